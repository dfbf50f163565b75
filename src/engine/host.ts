/**
 * makeHost (the engine's own; the spec has no such power): the host hands the host role to a player at
 * the table. At a real poker night the host is often not the last to go home, and a host whose phone
 * is about to go flat has no other way on: under the spec the host leaving ends the game for everyone.
 * After the handover the old host is a player like the others, who may leave without ending anything,
 * and the new host has every host power (their phone shows the host's controls from the next snapshot).
 *
 * - Only the host, only while the room is open (lobby or playing), only to a player at the table
 *   (approved: a stranger waiting for approval cannot be made host), never to themself.
 * - It changes nothing in the hand or the chips. It clears the undo point (undo.ts): an undo is the
 *   host taking back their own table's last move, and the new host starts with none.
 */
import { type Draft, edit, emit, playerById } from './draft';
import type { Outcome } from './lobby';
import { MSG } from './messages';

export function makeHost(d: Draft, actorId: string, playerId: string): Outcome {
  if (actorId !== d.room.hostId) return MSG.onlyHostMakeHost;
  if (d.room.status === 'ENDED') return MSG.gameEnded;
  const next = playerById(d.players, playerId);
  if (next === undefined) return MSG.playerNotFound;
  if (playerId === actorId) return MSG.alreadyHost;
  if (!next.isApproved) return MSG.makeHostNotSeated;
  const was = edit(d, actorId);
  was.isHost = false;
  edit(d, playerId).isHost = true;
  d.room.hostId = playerId;
  emit(d, { type: 'hostChanged', playerId, name: next.name, fromId: actorId, fromName: was.name });
  return null;
}
