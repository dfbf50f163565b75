/**
 * Betting: the four actions, raise limits and when a betting round is complete.
 */
import { type Draft, edit, emit, playerById } from './draft';
import { ACT_FOR_AFTER_MS } from './host';
import type { Outcome } from './lobby';
import { actForTooSoon, MSG, maxEffectiveBet, minimumRaise, notEnoughChips } from './messages';
import { potTotal } from './pots';
import { seatIds, tableActivity } from './room';
import { canAct, inHand, needsToAct, nextSeat } from './seats';
import type {
  ActionType,
  AutoAdvancedReason,
  Facing,
  GameState,
  Player,
  RaiseLimits,
  Room,
  Settings,
} from './types';

/** The highest current-round bet among players still in the hand (folded bets do not count). */
export function highestBet(players: Record<string, Player>): number {
  let max = 0;
  for (const id in players) {
    const p = players[id] as Player;
    if (inHand(p) && p.currentRoundBet > max) max = p.currentRoundBet;
  }
  return max;
}

/**
 * The minimum raise increment (SPEC section 5): the base (the hand's big blind) when no bet is
 * open or pre-flop with only the blinds in; otherwise the last raise's increase if any, else the base.
 */
function minRaise(gs: GameState, settings: Settings, highest: number): number {
  const base = gs.blinds?.bigBlind ?? settings.bigBlind;
  if (highest === 0) return base;
  if (gs.stage === 'PRE_FLOP' && gs.lastRaiseAmount === 0) return base;
  return gs.lastRaiseAmount > 0 ? gs.lastRaiseAmount : base;
}

/** True when the room is in a betting stage and it is `playerId`'s turn. */
function isTurnOf(room: Room, playerId: string): boolean {
  return (
    room.status === 'PLAYING' &&
    room.gameState.stage !== 'SHOWDOWN' &&
    room.gameState.currentTurnPlayerId === playerId
  );
}

/**
 * What `playerId` may raise to right now (SPEC section 5), or null unless it is their turn in a
 * betting stage. min = highest bet + minimum raise (may exceed max: then only all-in or call);
 * max = own bet + stack, capped by the largest bet + stack among opponents still in the hand;
 * pot = own round bet + the pots (which already hold the round's bets), capped at max.
 */
export function raiseLimits(room: Room, playerId: string): RaiseLimits | null {
  if (!isTurnOf(room, playerId)) return null;
  const me = playerById(room.players, playerId);
  if (me === undefined) return null;
  const highest = highestBet(room.players);
  const step = minRaise(room.gameState, room.settings, highest);
  const own = me.currentRoundBet + me.stack;
  let opponents = -1;
  for (const id in room.players) {
    const p = room.players[id] as Player;
    if (id !== playerId && inHand(p)) opponents = Math.max(opponents, p.currentRoundBet + p.stack);
  }
  const max = opponents < 0 ? own : Math.min(own, opponents);
  return {
    min: highest + step,
    max,
    pot: Math.min(me.currentRoundBet + potTotal(room.gameState.pots), max),
    limitedByOpponents: max < own,
    currentBet: me.currentRoundBet,
    stack: me.stack,
    minRaise: step,
    highestBet: highest,
  };
}

/**
 * What `playerId` would add to the pot with CALL: the highest round bet minus their own, capped
 * at their stack (0 means CALL is a check). 0 for unknown players.
 */
export function callAmount(room: Room, playerId: string): number {
  const me = playerById(room.players, playerId);
  return me === undefined ? 0 : owed(room.players, me);
}

/** What `p` would add with CALL among `players`: callAmount's, on a room or a draft. */
function owed(players: Record<string, Player>, p: Player): number {
  return Math.max(0, Math.min(highestBet(players) - p.currentRoundBet, p.stack));
}

/** What `playerId`'s screen shows them facing now: sent with their action (types.ts Facing). */
export function facingOf(room: Room, playerId: string): Facing {
  const gs = room.gameState;
  return { handNumber: gs.handNumber, stage: gs.stage, toCall: callAmount(room, playerId) };
}

/**
 * Why a RAISE to the total bet `amount` would be refused, in the spec's words (SPEC section 8), or
 * null when it is legal. Checked in this order: not a whole number of cents; more than bet + stack;
 * exactly bet + stack (an all-in, always accepted, even below the minimum raise); above the
 * effective maximum; exactly the effective maximum when the opponents' stacks cap it (accepted, even
 * below the minimum raise: ours, see below); below the minimum raise. The web app shows the same
 * answer before sending.
 *
 * The capped maximum: a big stack facing opponents who hold less than a full raise behind (heads-up,
 * $100 against $3.50 on the flop, where the minimum bet is the $2.00 big blind and the most anyone
 * can call is $1.50) could otherwise never bet at all, by the spec's two rules together (at least the
 * minimum, at most the effective maximum), and the short stack would see every card for free. At a
 * real table that player bets the minimum or shoves and the part nobody can call comes back; a bet
 * of exactly what the deepest opponent can call is that, with nothing to give back. Every opponent
 * can then only call all-in or fold, so nothing is left to reopen.
 */
export function raiseError(limits: RaiseLimits, amount: unknown): string | null {
  if (typeof amount !== 'number' || !Number.isSafeInteger(amount)) return MSG.invalidAmount;
  const own = limits.currentBet + limits.stack;
  if (amount > own) return notEnoughChips(own);
  if (amount === own) return null;
  if (amount > limits.max) return maxEffectiveBet(limits.max);
  if (amount === limits.max && limits.limitedByOpponents && limits.max > limits.highestBet) return null;
  if (amount < limits.min) return minimumRaise(limits.minRaise, limits.min);
  return null;
}

/** Why `actorId` may not act now, or null when it is their turn in a betting stage. */
function actError(d: Draft, actorId: string): string | null {
  const p = playerById(d.players, actorId);
  if (p === undefined || !p.isApproved) return MSG.notInGame;
  if (d.room.status === 'ENDED') return MSG.gameEnded;
  if (d.room.status !== 'PLAYING' || d.gs.stage === 'SHOWDOWN' || d.gs.currentTurnPlayerId === null)
    return MSG.noBetting;
  if (!p.isActive) return MSG.notInHand;
  if (p.hasFolded) return MSG.alreadyFolded;
  if (p.isAllIn) return MSG.alreadyAllIn;
  if (d.gs.currentTurnPlayerId !== actorId) return MSG.notYourTurn;
  return null;
}

/** Whether the table is still what `facing` says the player saw: the hand, the stage, the call. */
function stillFacing(d: Draft, actorId: string, facing: Facing): boolean {
  const toCall = owed(d.players, d.players[actorId] as Player);
  return facing.handNumber === d.gs.handNumber && facing.stage === d.gs.stage && facing.toCall === toCall;
}

/**
 * act: FOLD, CALL (a check when nothing is owed; all-in when the stack is short), RAISE (amount is
 * the total bet; a raise of exactly bet + stack is an all-in and always accepted) or ALL_IN.
 * A bet above the highest reopens the action for everyone else who can still act and records the
 * increase as lastRaiseAmount. Moving the turn on is the caller's job (see hand.ts `progress`).
 */
export function act(
  d: Draft,
  actorId: string,
  action: ActionType,
  amount: number | undefined,
  facing?: Facing,
): Outcome {
  const error = actError(d, actorId);
  if (error !== null) return error;
  if (facing !== undefined && !stillFacing(d, actorId, facing)) return MSG.actMovedOn;
  const p = edit(d, actorId);
  const highest = highestBet(d.players);
  let target: number; // the player's round bet after the action
  let recorded: ActionType = action;
  switch (action) {
    case 'FOLD':
      p.hasFolded = true;
      p.hasActedThisRound = true;
      emit(d, {
        type: 'playerActed',
        playerId: p.id,
        name: p.name,
        action,
        amount: 0,
        totalBet: p.currentRoundBet,
        allIn: false,
      });
      return null;
    case 'CALL':
      target = Math.min(highest, p.currentRoundBet + p.stack);
      if (target < p.currentRoundBet) target = p.currentRoundBet;
      break;
    case 'ALL_IN':
      target = p.currentRoundBet + p.stack;
      break;
    case 'RAISE': {
      const limits = raiseLimits(d.room, actorId) as RaiseLimits;
      const error = raiseError(limits, amount);
      if (error !== null) return error;
      target = amount as number;
      if (target === limits.currentBet + limits.stack) recorded = 'ALL_IN';
      break;
    }
    default:
      return unknownAction(action);
  }
  const pay = target - p.currentRoundBet;
  if (pay > 0) {
    p.stack -= pay;
    p.currentRoundBet = target;
    p.totalPotContribution += pay;
    p.lastChipUpdate = d.now;
  }
  if (p.stack === 0) p.isAllIn = true;
  p.hasActedThisRound = true;
  if (target > highest) {
    d.gs.lastRaiseAmount = target - highest;
    reopen(d, actorId);
  }
  emit(d, {
    type: 'playerActed',
    playerId: p.id,
    name: p.name,
    action: recorded,
    amount: pay,
    totalBet: p.currentRoundBet,
    allIn: p.isAllIn,
  });
  return null;
}

/**
 * actFor (host): the host checks or folds for the player whose turn it is, when that player is away
 * from the table (a phone gone flat, a smoke outside): the only way to keep a hand moving without
 * removing them, which would cost them their seat. What a real table does for an absent player: a
 * check when it is free, a fold when there is a bet to call; never chips put in for them. `action`
 * names which the host's button offered, so a tap that crossed the table moving on (the player acted,
 * and it is their turn again facing something else) is refused, never turned into the other move.
 * It is the player's own FOLD or CALL otherwise (the same events, turn and round), logged `byHost`.
 */
export function actFor(
  d: Draft,
  actorId: string,
  playerId: string,
  action: 'CHECK' | 'FOLD',
  online?: readonly string[],
): Outcome {
  if (actorId !== d.base.hostId) return MSG.onlyHostActFor;
  if (d.room.status === 'ENDED') return MSG.gameEnded;
  if (d.room.status !== 'PLAYING') return MSG.noBetting;
  const p = playerById(d.players, playerId);
  if (p === undefined || d.gs.currentTurnPlayerId !== playerId || d.gs.stage === 'SHOWDOWN')
    return MSG.actForMovedOn;
  const owed = highestBet(d.players) > p.currentRoundBet;
  if (owed !== (action === 'FOLD')) return MSG.actForMovedOn;
  // Only for a player away from the table: their phone not connected (`online`, the server's
  // presence), or their turn waited ACT_FOR_AFTER_MS. The session-33 security audit: checked on the
  // phones only, a host folded a connected player the instant the turn reached them and took the pot.
  // Sitting out does not count: the host can sit anyone out (its review: sit out, then fold at once).
  // A negative wait is refused too, unlike claimHost's (host.ts), where the host's presence still
  // decides: here the wait is all that guards a connected player, and with several processes whose
  // clocks differ by up to a second a turn stamped by one is "negative" on another for its first
  // moments (session 38's review). A clock stepped back costs a host the step plus 30 s, and only for
  // a player whose phone is connected.
  if (online?.includes(playerId) && d.now - tableActivity(d.base) < ACT_FOR_AFTER_MS)
    return actForTooSoon(p.name);
  const error = act(d, playerId, action === 'FOLD' ? 'FOLD' : 'CALL', undefined);
  if (error !== null) return error;
  const acted = d.events[d.events.length - 1];
  if (acted?.type === 'playerActed') acted.byHost = true;
  return null;
}

function unknownAction(_action: never): string {
  return MSG.unknownCommand;
}

/** After a raise: everyone else who can still act must act again. */
function reopen(d: Draft, raiserId: string): void {
  for (const id of seatIds(d)) {
    const p = d.players[id] as Player;
    if (id !== raiserId && p.hasActedThisRound && canAct(p)) edit(d, id).hasActedThisRound = false;
  }
}

/** Where a betting round stands. */
export type RoundState =
  /** At most one player is left in the hand (`winner` null if none). */
  | { kind: 'lastPlayer'; winner: Player | null; remaining: number }
  /** More than one player left but nobody can bet any more. */
  | { kind: 'noBetting'; reason: AutoAdvancedReason; remaining: number }
  /** Everyone who can act has acted and matched the highest bet. */
  | { kind: 'complete'; remaining: number }
  /** `next` is to act. */
  | { kind: 'open'; next: Player };

/**
 * Classifies the round (SPEC section 4, "Betting round completion"). The next player to act is
 * searched clockwise after seat `fromSeat` (inclusive of it with `inclusive`).
 * A lone player who can still bet is not asked to act when they already match the highest bet:
 * nobody could answer a raise (reason LAST_PLAYER_RESPONDED if they acted this round, else
 * BETTING_CAPPED_BY_ALL_IN).
 */
export function roundState(d: Draft, fromSeat: number, inclusive = false): RoundState {
  let remaining = 0;
  let last: Player | null = null;
  let able = 0;
  let lastAble: Player | null = null;
  for (const id of seatIds(d)) {
    const p = d.players[id] as Player;
    if (!inHand(p)) continue;
    remaining++;
    last = p;
    if (canAct(p)) {
      able++;
      lastAble = p;
    }
  }
  if (remaining <= 1) return { kind: 'lastPlayer', winner: last, remaining };
  const highest = highestBet(d.players);
  if (able === 0) return { kind: 'noBetting', reason: 'ALL_REMAINING_ALL_IN', remaining };
  if (able === 1 && lastAble !== null && lastAble.currentRoundBet >= highest) {
    const reason = lastAble.hasActedThisRound ? 'LAST_PLAYER_RESPONDED' : 'BETTING_CAPPED_BY_ALL_IN';
    return { kind: 'noBetting', reason, remaining };
  }
  const next = nextSeat(d, fromSeat, (p) => needsToAct(p, highest), inclusive);
  if (next === null) return { kind: 'complete', remaining };
  return { kind: 'open', next };
}
