/**
 * Pots: main and side pots built from the hand's contributions, uncalled bets, and splitting a pot
 * among winners with the odd cents handed out in seat order.
 */
import type { Pot } from './types';

/** One player's chips in the current hand (folded and departed players included). */
export interface Contribution {
  id: string;
  /** Total put in this hand (all rounds, current round included). */
  amount: number;
  /** Still contesting the pot: in the hand and not folded. */
  live: boolean;
  /**
   * The highest total contribution this player can still be eligible for: `amount`, or
   * `amount + stack` for a live player who may still bet in the running round.
   */
  reach: number;
}

/**
 * Builds the pots (SPEC section 4): one layer per distinct contribution level, worth the level's
 * difference times the number of players who reached it (folded ones included); eligible are the
 * live players who reached it. Adjacent layers with the same eligible players form one pot, and a
 * layer no live player reached (dead money) joins the pot below it (or, below every live player's
 * contribution, the first pot above; if no live player put anything in, one main pot they all
 * contest). Ids are 'main', 'side-1', ...
 * While a round is running, a live player's `reach` also bounds a layer, so the pots preview
 * what each player can still win. With nothing contributed the result is one empty main pot with
 * every live player eligible.
 * `entries` must be in seat order; eligible lists keep it.
 */
export function buildPots(entries: readonly Contribution[]): Pot[] {
  const levels: number[] = [];
  let top = 0;
  for (const e of entries) {
    if (e.amount > 0) levels.push(e.amount);
    if (e.amount > top) top = e.amount;
  }
  if (levels.length === 0) {
    const eligiblePlayers: string[] = [];
    for (const e of entries) if (e.live) eligiblePlayers.push(e.id);
    return [{ id: 'main', amount: 0, eligiblePlayers, isMainPot: true }];
  }
  // A live player who can still bet splits a layer where their reach ends (a preview of what
  // they can still win); at the end of betting reach === amount and this adds nothing.
  for (const e of entries) if (e.reach > e.amount && e.reach < top) levels.push(e.reach);
  levels.sort((a, b) => a - b);
  const pots: Pot[] = [];
  let prev = 0;
  let carry = 0; // dead money below every live player's contribution, waiting for the first pot
  for (const level of levels) {
    if (level === prev || level > top) continue;
    let count = 0;
    const eligible: string[] = [];
    for (const e of entries) {
      if (e.amount >= level) count++;
      if (e.live && e.reach >= level) eligible.push(e.id);
    }
    const amount = (level - prev) * count;
    prev = level;
    const last = pots[pots.length - 1];
    if (eligible.length === 0 && last === undefined) {
      carry += amount;
    } else if (last !== undefined && (eligible.length === 0 || sameIds(last.eligiblePlayers, eligible))) {
      last.amount += amount;
    } else {
      pots.push(newPot(pots.length, amount + carry, eligible));
      carry = 0;
    }
  }
  if (carry > 0) {
    // Only departed or folded players put chips in: every live player may win them.
    const eligible: string[] = [];
    for (const e of entries) if (e.live) eligible.push(e.id);
    pots.push(newPot(0, carry, eligible));
  }
  return pots;
}

function newPot(index: number, amount: number, eligiblePlayers: string[]): Pot {
  return { id: index === 0 ? 'main' : `side-${index}`, amount, eligiblePlayers, isMainPot: index === 0 };
}

function sameIds(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Sum of the pots' amounts. */
export function potTotal(pots: readonly Pot[]): number {
  let total = 0;
  for (const p of pots) total += p.amount;
  return total;
}

/**
 * The uncalled bet once betting is over: when the largest contribution belongs to one live player
 * alone, the part above the next largest contribution goes back to them. Null when there is none.
 */
export function uncalledBet(entries: readonly Contribution[]): { id: string; amount: number } | null {
  let top: Contribution | null = null;
  let second = 0;
  for (const e of entries) {
    if (top === null || e.amount > top.amount) {
      if (top !== null) second = Math.max(second, top.amount);
      top = e;
    } else {
      second = Math.max(second, e.amount);
    }
  }
  if (top === null || !top.live || top.amount <= second) return null;
  return { id: top.id, amount: top.amount - second };
}

/**
 * Splits `amount` among `winnerIds` (already in payout order): equal shares in whole cents, and the
 * leftover cents one each to the first winners. Returns the shares in the same order.
 */
export function splitPot(amount: number, winnerIds: readonly string[]): number[] {
  const n = winnerIds.length;
  if (n === 0) return [];
  const share = Math.floor(amount / n);
  const odd = amount - share * n;
  return winnerIds.map((_, i) => share + (i < odd ? 1 : 0));
}
