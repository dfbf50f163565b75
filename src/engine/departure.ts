/**
 * Departure: a player leaving or being removed, in the lobby, during play and after the end.
 */
import { type Draft, dropPlayer, emit, hasOwn, playerById } from './draft';
import { payUncontested, progress } from './hand';
import { type Outcome, UNCHANGED } from './lobby';
import { MSG } from './messages';
import { finishGame } from './results';
import type { LedgerEntry, Player } from './types';

/**
 * leave: the actor leaves the room.
 * - Lobby: the host leaving deletes the room (`d.deleted`); anyone else just disappears.
 * - Playing: the host leaving ends the game (endedBy = host id, results stay visible); anyone else
 *   leaves the table (see `leaveTable`).
 * - Ended, or not in the room: nothing changes (the results stay visible until idle cleanup).
 */
export function leave(d: Draft, actorId: string): Outcome | typeof UNCHANGED {
  const p = playerById(d.players, actorId);
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
  if (actorId === d.room.hostId) finishGame(d, actorId);
  else leaveTable(d, actorId);
  return null;
}

/**
 * remove (host): deny a pending player or remove a seated one. The host cannot remove themself.
 * In the lobby the player disappears; during play see `leaveTable`.
 */
export function remove(d: Draft, actorId: string, playerId: string): Outcome {
  if (actorId !== d.room.hostId) return MSG.onlyHostRemove;
  if (d.room.status === 'ENDED') return MSG.gameEnded;
  const p = playerById(d.players, playerId);
  if (p === undefined) return MSG.playerNotFound;
  if (playerId === d.room.hostId) return MSG.hostCannotRemoveSelf;
  emit(d, { type: 'playerRemoved', playerId, name: p.name, wasApproved: p.isApproved });
  if (d.room.status === 'LOBBY') dropPlayer(d, playerId);
  else leaveTable(d, playerId, true);
  return null;
}

/**
 * A player leaves the table during play. A pending player simply disappears. A seated one is folded
 * (chips already in the pots stay there as dead money), leaves the players map and keeps a ledger
 * entry with their stack and investment (merged with an earlier entry of the same id), `removed` when
 * the host removed them. If it was their turn the turn passes on; if one player is left in the hand
 * they win it.
 */
export function leaveTable(d: Draft, playerId: string, removed = false): void {
  const was = playerById(d.players, playerId);
  if (was === undefined) return;
  if (!was.isApproved) {
    dropPlayer(d, playerId);
    return;
  }
  payUncontested(d, playerId);
  const p = d.players[playerId] as Player;
  const seat = p.joinedAt;
  const wasTurn = d.gs.currentTurnPlayerId === playerId;
  if (p.totalPotContribution > 0) {
    const departed = { ...(d.gs.departedContributions ?? {}) };
    // Own keys only: an id such as 'constructor' (any id the server's pattern allows) would read
    // Object.prototype's member and turn the sum into text, the chips lost.
    departed[playerId] =
      (hasOwn(departed, playerId) ? (departed[playerId] as number) : 0) + p.totalPotContribution;
    d.gs.departedContributions = departed;
  }
  const previous = d.room.ledger.find((e) => e.id === playerId);
  const finalChips = p.stack + (previous?.finalChips ?? 0);
  const totalInvestment = p.totalInvestment + (previous?.totalInvestment ?? 0);
  const entry: LedgerEntry = {
    id: playerId,
    name: p.name,
    finalChips,
    totalInvestment,
    netResult: finalChips - totalInvestment,
    leftAt: d.now,
  };
  if (removed) entry.removed = true;
  d.room.ledger = [...d.room.ledger.filter((e) => e.id !== playerId), entry];
  dropPlayer(d, playerId);
  if (wasTurn) {
    d.gs.currentTurnPlayerId = null;
    progress(d, seat);
  } else {
    const holder = d.gs.currentTurnPlayerId === null ? undefined : d.players[d.gs.currentTurnPlayerId];
    progress(d, holder?.joinedAt ?? seat, holder !== undefined);
  }
}
