/**
 * Seats: who is in the hand, who can act, the dealer button, blinds' roles and clockwise order.
 * Clockwise means increasing joinedAt (the seat order), wrapping around.
 */
import type { Draft } from './draft';
import { seatIds } from './room';
import type { Player } from './types';

/** Holds a seat in the current hand and has not folded. */
export function inHand(p: Player): boolean {
  return p.isActive && !p.hasFolded;
}

/**
 * Dealt into the next hand (when seated): has chips and is not sitting out (seating.ts sitOut). The
 * button and the blinds go round these players only.
 */
export function dealtIn(p: Player): boolean {
  return p.stack > 0 && p.away !== true;
}

/** In the hand and still able to bet: not all-in and not chipless. */
export function canAct(p: Player): boolean {
  return p.isActive && !p.hasFolded && !p.isAllIn && p.stack > 0;
}

/** Can act and still owes a decision: has not acted this round, or is below the highest bet. */
export function needsToAct(p: Player, highestBet: number): boolean {
  return canAct(p) && (!p.hasActedThisRound || p.currentRoundBet < highestBet);
}

/**
 * The first seated player clockwise strictly after seat `fromSeat` (a joinedAt, which may belong
 * to a player who has left) that satisfies `pred`; with `inclusive`, the player sitting at
 * `fromSeat` is tried first. Null when nobody qualifies.
 */
export function nextSeat(
  d: Draft,
  fromSeat: number,
  pred: (p: Player) => boolean,
  inclusive = false,
): Player | null {
  const ids = seatIds(d);
  const n = ids.length;
  let start = 0;
  while (start < n && !after(d.players[ids[start] as string] as Player, fromSeat, inclusive)) start++;
  for (let k = 0; k < n; k++) {
    const p = d.players[ids[(start + k) % n] as string] as Player;
    if (pred(p)) return p;
  }
  return null;
}

function after(p: Player, seat: number, inclusive: boolean): boolean {
  return inclusive ? p.joinedAt >= seat : p.joinedAt > seat;
}

/** Dealer and blinds for a new hand, chosen among funded players only (SPEC section 4). */
export interface Positions {
  dealer: Player;
  smallBlind: Player;
  bigBlind: Player;
  /** Two funded players: the dealer is also the small blind (DEALER_SMALL_BLIND). */
  headsUp: boolean;
}

/**
 * Chooses the button and blinds among `funded` (seat order, at least 2). The first hand's dealer
 * is the first funded player; afterwards the button moves to the next funded player clockwise
 * after the previous dealer's seat (`previousDealerSeat`), skipping chipless players.
 */
export function positions(funded: Player[], previousDealerSeat: number | null): Positions {
  const n = funded.length;
  let di = 0;
  if (previousDealerSeat !== null) {
    const i = funded.findIndex((p) => p.joinedAt > previousDealerSeat);
    di = i === -1 ? 0 : i;
  }
  const at = (k: number) => funded[(di + k) % n] as Player;
  if (n === 2) return { dealer: at(0), smallBlind: at(0), bigBlind: at(1), headsUp: true };
  return { dealer: at(0), smallBlind: at(1), bigBlind: at(2), headsUp: false };
}

/**
 * Sorts player ids clockwise starting with the first seat left of the dealer (the dealer last):
 * the order in which odd cents of a split pot are handed out.
 */
export function clockwiseFromDealer(d: Draft, ids: string[]): string[] {
  const dealerSeat = d.gs.dealerSeat ?? Number.NEGATIVE_INFINITY;
  const key = (id: string) => {
    const seat = d.players[id]?.joinedAt ?? 0;
    return [seat > dealerSeat ? 0 : 1, seat] as const;
  };
  return [...ids].sort((a, b) => {
    const [ga, sa] = key(a);
    const [gb, sb] = key(b);
    return ga - gb || sa - sb;
  });
}
