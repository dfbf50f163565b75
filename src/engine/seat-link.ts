/**
 * seatLink (the engine's own; the spec has no such power): the host makes a link that moves a player's
 * seat to a new phone. At a real poker night a phone goes flat, is dropped in a drink or left in a car;
 * the player is still at the table with their chips, and their seat is tied to the phone that joined
 * (the server's identity: src/server/identity.ts). Until session 40 the way on was the host removing
 * the seat (its chips to the results as "Bob (removed)") and the player joining again from another
 * phone with a new buy-in: two lines for one player in the settlement, and the stack typed by hand.
 *
 * The engine rules who may, and logs it where everyone sees it; the link itself (a signed, expiring
 * token) is the server's, as identity is:
 * - Only the host, only while the room is open (lobby or playing).
 * - Only for a player at the table (approved: one waiting for approval has nothing to move; they ask
 *   again from the new phone), never the host's own seat (the host's phone is the one asking).
 * - Only while the player's phone is away (`online`, the server's presence, as for actFor): with the
 *   phone at the table the player moves nothing, and a host could otherwise take a present player's
 *   seat, chips and all. The log line ("Host made a link to move Bob to a new phone") tells the table,
 *   Bob included, that it was made.
 * - It changes nothing at the table: no chips, no turn, no seat. It keeps the undo point (undo.ts).
 */
import { type Draft, emit, playerById } from './draft';
import type { Outcome } from './lobby';
import { MSG, seatLinkStillHere } from './messages';

/** seatLink (above): the host (`actorId`) asks for a link moving `playerId`'s seat to a new phone. */
export function seatLink(d: Draft, actorId: string, playerId: string, online?: readonly string[]): Outcome {
  if (actorId !== d.room.hostId) return MSG.onlyHostSeatLink;
  if (d.room.status === 'ENDED') return MSG.gameEnded;
  const player = playerById(d.players, playerId);
  if (player === undefined) return MSG.playerNotFound;
  if (playerId === actorId) return MSG.seatLinkOwnSeat;
  if (!player.isApproved) return MSG.seatLinkNotSeated;
  if (online?.includes(playerId)) return seatLinkStillHere(player.name);
  emit(d, { type: 'seatLinkMade', playerId, name: player.name });
  return null;
}
