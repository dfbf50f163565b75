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
 * - It records the link's id on the player (`seatLink`, made by the server: the engine has no
 *   randomness), replacing any earlier one: the host's newest link is the only one that works. A
 *   claim kept from an earlier link (`seatClaim`, below) goes with it.
 *
 * claimSeat: a new phone opens the link. The server has checked the link's signature and time; the
 * engine rules the seat, in the room's turn, so two phones opening one link at once cannot both take it:
 * - The link works once: the first phone to use it clears the player's `seatLink` ("This link no
 *   longer works: the seat has a phone again", as once void: seatBack), and a newer link made since
 *   replaces it ("The host has made a newer link").
 *   Until session 41 a link worked for all of its 15 minutes: a photo of the QR code taken at the table
 *   could take Bob's seat, chips and turn, whenever Bob's new phone slept.
 * - Not for a seat gone (left, removed), a game over, a seat that is the host's now (a copy of a link
 *   is never the host), or a seat whose phone is connected (`online`): Bob's old phone came back.
 * - Not for a phone that already has a seat at this table: it would hold two. The web app says so
 *   before asking (use-seat-link-param.ts). A phone only asking to join (Bob asked again from the
 *   borrowed phone before the host made the link) may: its request holds no chips, and the web app
 *   gives it up first (a leave; should that leave be owed, the claim must not wait on it).
 * - The seat's own phone opening its link moves nothing and never gets here (socket-gateway.ts).
 * It logs "Bob's seat moved to a new phone" for the table, changes nothing at the table but the link,
 * and keeps the undo point.
 * The claim is kept on the seat (`seatClaim`: the link and the phone that used it) until a phone of the
 * player's resumes the room (seatBack): the same phone asking again with the same link, its answer
 * lost on the way, is answered as the claim it made (nothing changes, nothing is logged), under the
 * same rules as a first claim but the link's use. Once the new phone has resumed the room as the
 * player, the claim is done: the phone given back ("Give This Phone Back") and opening the link again
 * from the chat is refused as any other. Until session 42 the server answered such a repeat by the
 * claim's command id, without the engine, and ruled the seat again with a copy of these rules; the
 * phone that used a link could retake the seat with it for the link's 15 minutes, whenever the
 * seat's phone was away.
 *
 * The claim's link holds the seat (`heldByLink`, kept for good, replaced by the next claim): the
 * server's room-scoped credentials name their link and carry it in every command as `via`, and
 * applyCommand refuses one naming another (holdsSeat). Until session 42 every claim's credentials were
 * the same, so a phone that once held the seat was the player for good.
 *
 * seatBack: a phone of the player's resumed the room (the server says so): the seat has a phone again,
 * so its unused link goes ("Bob's phone is back: the link to move Bob no longer works"). Without it a
 * link outlived its need: Bob's own phone back, a photo of the QR code took the seat whenever that phone
 * slept in the link's 15 minutes (session 41's review). A claim kept on the seat goes too, unlogged:
 * the phone that made it is in (or Bob's own phone is back, and the claim is no longer wanted).
 * Nothing else changes, not even the table's last move (a phone coming back is no move at the table),
 * and it keeps the undo point. A game over changes no more.
 */
import { type Draft, edit, emit, playerById } from './draft';
import { type Outcome, UNCHANGED } from './lobby';
import { MSG, seatLinkSameTable, seatLinkStillHere } from './messages';
import type { Player } from './types';

/** seatLink (above): the host (`actorId`) asks for a link moving `playerId`'s seat to a new phone. */
export function seatLink(
  d: Draft,
  actorId: string,
  playerId: string,
  linkId: string,
  online?: readonly string[],
): Outcome {
  if (actorId !== d.room.hostId) return MSG.onlyHostSeatLink;
  if (d.room.status === 'ENDED') return MSG.gameEnded;
  const player = playerById(d.players, playerId);
  if (player === undefined) return MSG.playerNotFound;
  if (playerId === actorId) return MSG.seatLinkOwnSeat;
  if (!player.isApproved) return MSG.seatLinkNotSeated;
  if (online?.includes(playerId)) return seatLinkStillHere(player.name);
  if (typeof linkId !== 'string' || linkId === '') return MSG.unknownCommand;
  const seat = edit(d, playerId);
  seat.seatLink = linkId;
  delete seat.seatClaim;
  emit(d, { type: 'seatLinkMade', playerId, name: player.name });
  return null;
}

/** claimSeat (above): the phone of `actorId` takes `playerId`'s seat with the link `linkId`. */
export function claimSeat(
  d: Draft,
  actorId: string,
  playerId: string,
  linkId: string,
  online?: readonly string[],
): Outcome | typeof UNCHANGED {
  if (d.room.status === 'ENDED') return MSG.seatLinkEnded;
  const player = playerById(d.players, playerId);
  if (player === undefined) return MSG.seatLinkGone;
  if (playerId === d.room.hostId) return MSG.seatLinkHost;
  if (actorId !== playerId && playerById(d.players, actorId)?.isApproved)
    return seatLinkSameTable(player.name);
  const again = player.seatClaim?.linkId === linkId && player.seatClaim.by === actorId;
  if (!again && player.seatLink === undefined) return MSG.seatLinkUsed;
  if (!again && player.seatLink !== linkId) return MSG.seatLinkReplaced;
  if (online?.includes(playerId)) return MSG.seatLinkInUse;
  if (again) return UNCHANGED;
  const seat = edit(d, playerId);
  delete seat.seatLink;
  seat.seatClaim = { linkId, by: actorId };
  seat.heldByLink = linkId;
  emit(d, { type: 'seatMoved', playerId, name: player.name });
  return null;
}

/**
 * Whether a phone of `player`'s holding room-scoped credentials made for the link `via` holds the seat
 * (heldByLink, above): only the newest claim's phone does ('' for credentials made before links were
 * named, good while no claim has moved the seat since).
 */
export function holdsSeat(player: Pick<Player, 'heldByLink'>, via: string): boolean {
  return (player.heldByLink ?? '') === via;
}

/** seatBack (above): a phone of `actorId`'s is back; their unused seat link, or kept claim, goes. */
export function seatBack(d: Draft, actorId: string): Outcome | typeof UNCHANGED {
  const player = playerById(d.players, actorId);
  if (player === undefined || d.room.status === 'ENDED') return UNCHANGED;
  if (player.seatLink === undefined && player.seatClaim === undefined) return UNCHANGED;
  const seat = edit(d, actorId);
  delete seat.seatClaim;
  if (player.seatLink === undefined) return null;
  delete seat.seatLink;
  emit(d, { type: 'seatLinkVoid', playerId: actorId, name: player.name });
  return null;
}
