/**
 * Departure: a player leaving or being removed, in the lobby, during play and after the end.
 */
import { type Draft, dropPlayer, emit } from './draft';
import { type Outcome, UNCHANGED } from './lobby';
import { MSG } from './messages';

/**
 * leave: the actor leaves the room.
 * - Lobby: the host leaving deletes the room (`d.deleted`); anyone else just disappears.
 * - Playing: see `leaveTable` (folded, ledger entry, turn passes on); the host leaving ends the game.
 * - Ended, or not in the room: nothing changes (the results stay visible until cleanup).
 */
export function leave(
  d: Draft,
  actorId: string,
  leaveTable: (d: Draft, playerId: string) => void,
  endByHost: (d: Draft) => void,
): Outcome | typeof UNCHANGED {
  const p = d.players[actorId];
  if (p === undefined || d.room.status === 'ENDED') return UNCHANGED;
  if (d.room.status === 'LOBBY') {
    if (actorId === d.room.hostId) {
      d.deleted = true;
      emit(d, { type: 'roomDeleted' });
      return null;
    }
    dropPlayer(d, actorId);
    emit(d, { type: 'playerLeft', playerId: actorId, name: p.name });
    return null;
  }
  emit(d, { type: 'playerLeft', playerId: actorId, name: p.name });
  if (actorId === d.room.hostId) endByHost(d);
  else leaveTable(d, actorId);
  return null;
}

/**
 * remove (host): deny a pending player or remove a seated one. The host cannot remove themself.
 * During play a seated player is handled by `leaveTable`; pending players simply disappear.
 */
export function remove(
  d: Draft,
  actorId: string,
  playerId: string,
  leaveTable: (d: Draft, playerId: string) => void,
): Outcome {
  if (actorId !== d.room.hostId) return MSG.onlyHostRemove;
  if (d.room.status === 'ENDED') return MSG.gameEnded;
  const p = d.players[playerId];
  if (p === undefined) return MSG.playerNotFound;
  if (playerId === d.room.hostId) return MSG.hostCannotRemoveSelf;
  emit(d, { type: 'playerRemoved', playerId, name: p.name, wasApproved: p.isApproved });
  if (d.room.status === 'LOBBY') dropPlayer(d, playerId);
  else leaveTable(d, playerId);
  return null;
}
