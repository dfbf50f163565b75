/**
 * The hand: starting a game and each new hand (button, blinds), what happens when a betting round
 * ends (next turn, host advance, showdown, fold win), advancing stages and declaring winners.
 */
import { roundState } from './betting';
import { type Draft, edit, emit, hasOwn, playerById } from './draft';
import type { Outcome } from './lobby';
import {
  chooseWinnerFor,
  foldWin,
  MSG,
  NEXT_STAGE_FALLBACK,
  notEligibleFor,
  notInThisHand,
  STAGE_NAMES,
  showdown,
  unknownPot,
} from './messages';
import { buildPots, type Contribution, potTotal, splitPot, uncalledBet } from './pots';
import { seatIds } from './room';
import { canAct, clockwiseFromDealer, dealtIn, inHand, positions } from './seats';
import type { AutoAdvancedReason, GameState, Player, Pot, Stage } from './types';

/** Stages in order (SPEC section 4). */
const STAGES: readonly Stage[] = ['PRE_FLOP', 'FLOP', 'TURN', 'RIVER', 'SHOWDOWN'];

/** True while chips are being bet: playing, not at showdown and not waiting for a host advance. */
function bettingOpen(d: Draft): boolean {
  return d.room.status === 'PLAYING' && d.gs.stage !== 'SHOWDOWN' && !d.gs.canAdvanceStage;
}

/** Every contribution of the hand in seat order, departed players' dead money last. */
export function contributions(d: Draft): Contribution[] {
  const open = bettingOpen(d);
  const out: Contribution[] = [];
  for (const id of seatIds(d)) {
    const p = d.players[id] as Player;
    const live = inHand(p);
    if (p.totalPotContribution === 0 && !live) continue;
    const reach = open && canAct(p) ? p.totalPotContribution + p.stack : p.totalPotContribution;
    out.push({ id, amount: p.totalPotContribution, live, reach });
  }
  const departed = d.gs.departedContributions;
  if (departed !== undefined)
    for (const id in departed) {
      const amount = departed[id] as number;
      out.push({ id, amount, live: false, reach: amount });
    }
  return out;
}

/** Rebuilds the pots from the contributions. */
export function refreshPots(d: Draft): void {
  d.gs.pots = buildPots(contributions(d));
}

/** Returns an uncalled bet to its owner (betting is over). */
function returnUncalled(d: Draft): void {
  const back = uncalledBet(contributions(d));
  if (back === null) return;
  const p = edit(d, back.id);
  p.stack += back.amount;
  p.totalPotContribution -= back.amount;
  p.currentRoundBet = Math.max(0, p.currentRoundBet - back.amount);
  p.lastChipUpdate = d.now;
  if (p.stack > 0) p.isAllIn = false;
  emit(d, { type: 'betReturned', playerId: p.id, name: p.name, amount: back.amount });
}

/**
 * Moves the hand on after anything that may end a betting round (an action, a stage advance,
 * a new hand's blinds, a player leaving), per SPEC section 4 "Outcome once the round is complete":
 * one player left wins the pots; no betting possible, or the river complete, goes to SHOWDOWN;
 * another complete round waits for the host to advance; otherwise the turn passes clockwise after
 * seat `fromSeat` (or stays on that seat with `inclusive`).
 */
export function progress(d: Draft, fromSeat: number, inclusive = false): void {
  if (d.room.status !== 'PLAYING') return;
  if (d.gs.stage === 'SHOWDOWN') {
    // Betting is over; a departure may still leave a single contender for undistributed pots,
    // or fewer players for the host to choose from (the showdown message counts them).
    if (potTotal(d.gs.pots) === 0) return;
    const state = roundState(d, fromSeat);
    if (state.kind === 'lastPlayer' && state.winner !== null) winByFold(d, state.winner);
    else {
      refreshPots(d);
      d.gs.message = showdown(roundRemaining(d));
    }
    return;
  }
  const state = roundState(d, fromSeat, inclusive);
  switch (state.kind) {
    case 'lastPlayer':
      if (state.winner !== null) winByFold(d, state.winner);
      else goToShowdown(d, null, 0);
      return;
    case 'noBetting':
      goToShowdown(d, state.reason, state.remaining);
      return;
    case 'complete':
      d.gs.currentTurnPlayerId = null;
      if (d.gs.canAdvanceStage) {
        refreshPots(d);
      } else if (d.gs.stage === 'RIVER') {
        goToShowdown(d, null, state.remaining);
      } else {
        returnUncalled(d);
        const next = STAGES[STAGES.indexOf(d.gs.stage) + 1] as Stage;
        d.gs.canAdvanceStage = true;
        d.gs.nextStage = next;
        d.gs.nextStageName = STAGE_NAMES[next] ?? NEXT_STAGE_FALLBACK;
        refreshPots(d);
      }
      return;
    case 'open':
      d.gs.currentTurnPlayerId = d.gs.canAdvanceStage ? null : state.next.id;
      refreshPots(d);
      return;
    default:
      unreachable(state);
  }
}

function unreachable(_x: never): never {
  throw new Error('unreachable');
}

/** Moves the hand to `stage`; nothing to advance to until its betting round is over. */
function enterStage(gs: GameState, stage: Stage): void {
  gs.stage = stage;
  gs.stageProgress = STAGES.indexOf(stage);
  gs.canAdvanceStage = false;
  gs.nextStage = null;
  gs.nextStageName = null;
}

/** Betting is over with several players left: SHOWDOWN, the host declares the winners. */
function goToShowdown(d: Draft, reason: AutoAdvancedReason | null, remaining: number): void {
  returnUncalled(d);
  const gs = d.gs;
  enterStage(gs, 'SHOWDOWN');
  gs.currentTurnPlayerId = null;
  gs.autoAdvancedReason = reason;
  gs.message = showdown(remaining);
  refreshPots(d);
  emit(d, { type: 'stageChanged', stage: 'SHOWDOWN' });
  emit(d, { type: 'showdown', playersRemaining: remaining, message: gs.message });
}

/**
 * Everyone else folded (or left): the last player takes every pot at once. Their bet nobody called
 * comes back first, its event right before the first award: the phones count it with the win
 * (src/web/screens/table-moments.ts); hand.test.ts holds that order.
 */
function winByFold(d: Draft, winner: Player): void {
  returnUncalled(d);
  const pots = buildPots(contributions(d));
  const message = foldWin(winner.name);
  const w = edit(d, winner.id);
  for (const pot of pots) {
    if (pot.amount === 0) continue;
    w.stack += pot.amount;
    emit(d, {
      type: 'potAwarded',
      potId: pot.id,
      amount: pot.amount,
      winners: [{ playerId: w.id, name: w.name, amount: pot.amount }],
      reason: 'FOLD',
      message,
    });
  }
  w.lastChipUpdate = d.now;
  if (w.stack > 0) w.isAllIn = false;
  const wasShowdown = d.gs.stage === 'SHOWDOWN';
  endHand(d, [winner.id]);
  d.gs.message = message;
  d.gs.autoAdvancedReason = null;
  if (!wasShowdown) emit(d, { type: 'stageChanged', stage: 'SHOWDOWN' });
  emit(d, { type: 'handCompleted', handNumber: d.gs.handNumber });
}

/**
 * The pots are paid out: clear contributions, bets and all-in flags (nobody is all-in in a finished
 * hand; a busted player is simply chipless), one empty main pot, SHOWDOWN, no turn.
 */
function endHand(d: Draft, winnerIds: string[]): void {
  for (const id in d.players) {
    const p = d.players[id] as Player;
    if (p.totalPotContribution !== 0 || p.currentRoundBet !== 0 || p.isAllIn) {
      const q = edit(d, id);
      q.totalPotContribution = 0;
      q.currentRoundBet = 0;
      q.isAllIn = false;
    }
  }
  const gs = d.gs;
  gs.departedContributions = {};
  enterStage(gs, 'SHOWDOWN');
  gs.currentTurnPlayerId = null;
  gs.winnerIds = winnerIds;
  gs.pots = [{ id: 'main', amount: 0, eligiblePlayers: [], isMainPot: true }];
}

/**
 * Deals a new hand: resets every player's hand fields (active = approved with chips, not sitting
 * out), moves the button (first hand: first funded player), assigns roles, posts the blinds capped
 * at the stacks and gives the turn to the player after the big blind (heads-up: the dealer/small
 * blind).
 */
function startHand(d: Draft): Outcome {
  // Dealt in: seated, with chips, not sitting out (seating.ts sitOut).
  const funded: Player[] = [];
  let withChips = 0;
  for (const id of seatIds(d)) {
    const p = d.players[id] as Player;
    if (p.stack > 0) withChips++;
    if (dealtIn(p)) funded.push(p);
  }
  if (funded.length < 2) return withChips >= 2 ? MSG.needTwoIn : MSG.needTwoFunded;
  const pos = positions(funded, d.gs.dealerSeat ?? null);
  for (const id in d.players) {
    const p = edit(d, id);
    p.currentRoundBet = 0;
    p.totalPotContribution = 0;
    p.hasFolded = false;
    p.isAllIn = false;
    p.hasActedThisRound = false;
    p.role = 'PLAYER';
    p.isActive = p.isApproved && dealtIn(p);
  }
  const dealer = edit(d, pos.dealer.id);
  dealer.role = pos.headsUp ? 'DEALER_SMALL_BLIND' : 'DEALER';
  if (!pos.headsUp) edit(d, pos.smallBlind.id).role = 'SMALL_BLIND';
  edit(d, pos.bigBlind.id).role = 'BIG_BLIND';

  const settings = d.room.settings;
  const gs = d.gs;
  enterStage(gs, 'PRE_FLOP');
  gs.handNumber += 1;
  gs.dealerId = dealer.id;
  gs.dealerSeat = dealer.joinedAt;
  gs.currentTurnPlayerId = null;
  gs.lastRaiseAmount = 0;
  gs.autoAdvancedReason = null;
  gs.message = null;
  gs.winnerIds = [];
  gs.blinds = { smallBlind: settings.smallBlind, bigBlind: settings.bigBlind };
  gs.departedContributions = {};
  emit(d, { type: 'handStarted', handNumber: gs.handNumber, dealerId: dealer.id });
  postBlind(d, pos.smallBlind.id, 'SMALL', settings.smallBlind);
  postBlind(d, pos.bigBlind.id, 'BIG', settings.bigBlind);
  progress(d, pos.bigBlind.joinedAt);
  return null;
}

function postBlind(d: Draft, id: string, blind: 'SMALL' | 'BIG', size: number): void {
  const p = edit(d, id);
  const amount = Math.min(size, p.stack);
  p.stack -= amount;
  p.currentRoundBet = amount;
  p.totalPotContribution = amount;
  p.lastChipUpdate = d.now;
  if (p.stack === 0) p.isAllIn = true;
  emit(d, { type: 'blindPosted', playerId: id, name: p.name, blind, amount, allIn: p.isAllIn });
}

/** startGame (host, lobby, at least 2 approved players): PLAYING and hand 1. */
export function startGame(d: Draft, actorId: string): Outcome {
  if (actorId !== d.room.hostId) return MSG.onlyHostGameState;
  if (d.room.status === 'ENDED') return MSG.gameEnded;
  if (d.room.status === 'PLAYING') return MSG.alreadyStarted;
  if (seatIds(d).length < 2) return MSG.needTwoPlayers;
  d.room.status = 'PLAYING';
  d.gs.status = 'PLAYING';
  emit(d, { type: 'gameStarted' });
  return startHand(d);
}

/** newHand (host): only at SHOWDOWN once the pots are paid out, with at least 2 funded players. */
export function newHand(d: Draft, actorId: string): Outcome {
  const error = hostPlayingError(d, actorId);
  if (error !== null) return error;
  if (d.gs.stage !== 'SHOWDOWN') return MSG.newHandNotAtShowdown;
  if (potTotal(d.gs.pots) > 0) return MSG.declareBeforeNewHand;
  return startHand(d);
}

/**
 * Between hands: the showdown with every pot awarded, where New Hand deals the next one. The host may
 * arrange the seats then (seating.ts), and the phones offer New Hand and the seats only then.
 */
export function betweenHands(gs: GameState): boolean {
  return gs.stage === 'SHOWDOWN' && potTotal(gs.pots) === 0;
}

/** The host-only game-state check shared by the in-game host commands. */
export function hostPlayingError(d: Draft, actorId: string): string | null {
  if (actorId !== d.room.hostId) return MSG.onlyHostGameState;
  if (d.room.status === 'ENDED') return MSG.gameEnded;
  if (d.room.status !== 'PLAYING') return MSG.notStarted;
  return null;
}

/**
 * advanceStage (host): only when the round is complete (canAdvanceStage). Clears round bets and
 * acted flags, sets the next stage and gives the turn to the first player able to act after the
 * dealer. If nobody can bet any more the hand goes straight to SHOWDOWN.
 */
export function advanceStage(d: Draft, actorId: string): Outcome {
  if (actorId !== d.room.hostId) return MSG.onlyHostAdvance;
  if (d.room.status === 'ENDED') return MSG.gameEnded;
  if (d.room.status !== 'PLAYING') return MSG.notStarted;
  const next = d.gs.nextStage;
  if (!d.gs.canAdvanceStage || next === null) return MSG.cannotAdvance;
  for (const id in d.players) {
    const p = d.players[id] as Player;
    if (p.currentRoundBet !== 0 || p.hasActedThisRound) {
      const q = edit(d, id);
      q.currentRoundBet = 0;
      q.hasActedThisRound = false;
    }
  }
  const gs = d.gs;
  enterStage(gs, next);
  gs.lastRaiseAmount = 0;
  gs.autoAdvancedReason = null;
  if (next === 'SHOWDOWN') {
    goToShowdown(d, null, roundRemaining(d));
    return null;
  }
  emit(d, { type: 'stageChanged', stage: next });
  progress(d, gs.dealerSeat ?? Number.NEGATIVE_INFINITY);
  return null;
}

function roundRemaining(d: Draft): number {
  let n = 0;
  for (const id in d.players) if (inHand(d.players[id] as Player)) n++;
  return n;
}

/**
 * declareWinners (host, SHOWDOWN, several players left, chips in the pots). `winnerIds` applies to
 * every pot (each pot split among the eligible winners named); `byPot` names winners per pot and
 * overrides. A pot with a single eligible player goes to them without naming. Odd cents go one each
 * to the winners clockwise from the dealer's left. Afterwards the pots are one empty main pot.
 */
export function declareWinners(
  d: Draft,
  actorId: string,
  winnerIds: readonly string[],
  byPot: Readonly<Record<string, readonly string[]>> | undefined,
): Outcome {
  const error = hostPlayingError(d, actorId);
  if (error !== null) return error;
  if (d.gs.stage !== 'SHOWDOWN') return MSG.notAtShowdown;
  if (roundRemaining(d) < 2 || potTotal(d.gs.pots) <= 0) return MSG.noPotToAward;
  const pots = d.gs.pots;
  const live = (id: string) => {
    const p = playerById(d.players, id);
    return p !== undefined && inHand(p);
  };
  // A winner who left meanwhile (another phone) is named from the ledger: their id would mean nothing.
  const nameOf = (id: string) =>
    playerById(d.players, id)?.name ?? d.room.ledger.find((e) => e.id === id)?.name ?? id;
  if (!Array.isArray(winnerIds)) return MSG.unknownCommand;
  if (byPot !== undefined && (typeof byPot !== 'object' || byPot === null || Array.isArray(byPot)))
    return MSG.unknownCommand;
  for (const id of winnerIds) if (!live(id)) return notInThisHand(nameOf(id));
  const plan: Array<{ pot: Pot; winners: string[] }> = [];
  if (byPot !== undefined) {
    for (const potId in byPot) {
      if (!pots.some((p) => p.id === potId)) return unknownPot(potId);
    }
  }
  for (const pot of pots) {
    if (pot.amount === 0) continue;
    const named = byPot !== undefined && hasOwn(byPot, pot.id) ? byPot[pot.id] : undefined;
    let winners: string[];
    if (named !== undefined) {
      if (!Array.isArray(named)) return MSG.unknownCommand;
      for (const id of named) {
        if (!live(id)) return notInThisHand(nameOf(id));
        if (!pot.eligiblePlayers.includes(id)) return notEligibleFor(nameOf(id), pot.id);
      }
      winners = pot.eligiblePlayers.filter((id) => named.includes(id));
    } else {
      winners = pot.eligiblePlayers.filter((id) => winnerIds.includes(id));
    }
    if (winners.length === 0 && pot.eligiblePlayers.length === 1) winners = [...pot.eligiblePlayers];
    if (winners.length === 0) return chooseWinnerFor(pot.id);
    plan.push({ pot, winners: clockwiseFromDealer(d, winners) });
  }
  const allWinners: string[] = [];
  for (const { pot, winners } of plan) {
    const shares = splitPot(pot.amount, winners);
    // A pot of fewer cents than winners (dead blinds of a cent or two) leaves the last of them a share
    // of 0: they win nothing from it, and are no winner for it (the fuzz audit of session 35).
    const paid = winners.flatMap((id, i) => {
      const amount = shares[i] as number;
      if (amount === 0) return [];
      const p = edit(d, id);
      p.stack += amount;
      p.lastChipUpdate = d.now;
      if (p.stack > 0) p.isAllIn = false;
      if (!allWinners.includes(id)) allWinners.push(id);
      return [{ playerId: id, name: p.name, amount }];
    });
    emit(d, {
      type: 'potAwarded',
      potId: pot.id,
      amount: pot.amount,
      winners: paid,
      reason: 'SHOWDOWN',
      message: null,
    });
  }
  endHand(d, clockwiseFromDealer(d, allWinners));
  d.gs.message = null;
  emit(d, { type: 'handCompleted', handNumber: d.gs.handNumber });
  return null;
}
