import { seatOrder as approvedInSeatOrder, betweenHands, inHand, potTotal as sumPots } from '../../engine';
import type { Player, Pot, Room, Stage } from '../../engine/types';

/**
 * Read-only views of a room snapshot for display: ordering, grouping and sums of what the engine
 * already decided. No poker rule is decided here; the engine does that and the server enforces it.
 */

/** Community cards on the table at each stage (SPEC section 9). */
export const COMMUNITY_CARDS: Record<Stage, number> = {
  PRE_FLOP: 0,
  FLOP: 3,
  TURN: 4,
  RIVER: 5,
  SHOWDOWN: 5,
};

/** Players in seat order (by joinedAt). */
function seatOrder(room: Room): Player[] {
  return Object.values(room.players).sort((a, b) => a.joinedAt - b.joinedAt);
}

/** Approved players in seat order (the engine's seat order). */
export function approvedPlayers(room: Room): Player[] {
  return approvedInSeatOrder(room.players);
}

export function pendingPlayers(room: Room): Player[] {
  return seatOrder(room).filter((p) => !p.isApproved);
}

/** Pots that hold chips. */
export function livePots(room: Room): Pot[] {
  return room.gameState.pots.filter((p) => p.amount > 0);
}

/** Everything in the middle of the table. */
export function potTotal(room: Room): number {
  return sumPots(room.gameState.pots);
}

/** Players still holding cards in this hand (dealt in and not folded). */
export function playersInHand(room: Room): Player[] {
  return approvedPlayers(room).filter(inHand);
}

/** Whether `p` is still playing the hand on the table (dealt in, not folded, before it is over). */
export function playingHand(room: Room, p: Player): boolean {
  return inHand(p) && !betweenHands(room.gameState);
}

/**
 * Whether sitting out would keep anything for `p` (the leave and remove dialogs offer it then): chips,
 * or a hand they are still playing. A player with neither is dealt in again by a rebuy.
 */
export function canKeepSeat(room: Room, p: Player): boolean {
  return p.isApproved && p.away !== true && (p.stack > 0 || playingHand(room, p));
}

/** Players with chips behind. */
export function fundedPlayers(room: Room): Player[] {
  return approvedPlayers(room).filter((p) => p.stack > 0);
}

/** "Side pot 2" for 'side-2'; the main pot's label otherwise. */
export function potNumber(pot: Pot): string {
  return pot.id.startsWith('side-') ? pot.id.slice(5) : '';
}
