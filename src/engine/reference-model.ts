/**
 * Test-only: an independent, brute-force model of the rules of SPEC.md sections 4, 5 and 8 (with the
 * readings of README.md), written without the engine's modules, to check each command's result in
 * the property tests. Slow and simple on purpose. Not part of the public API.
 */
import { stakeOnLeaving } from './departure';
import { CLOCK_SKEW_MS, HOST_AWAY_MS } from './host';
import { foldWin, MSG, showdown } from './messages';
import type {
  ActionType,
  Command,
  CommandResult,
  Facing,
  GameEvent,
  Player,
  Pot,
  Room,
  Settlement,
  Stage,
} from './types';

/** A failed model check. */
function check(cond: boolean, message: string): asserts cond {
  if (!cond) throw new Error(`model: ${message}`);
}

const STAGE_ORDER: Stage[] = ['PRE_FLOP', 'FLOP', 'TURN', 'RIVER', 'SHOWDOWN'];
const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
/** `m[id]` when it is `m`'s own key, else 0 (an id such as 'constructor' must not read the prototype). */
const ownCents = (m: Readonly<Record<string, number>>, id: string): number =>
  Object.hasOwn(m, id) ? (m[id] as number) : 0;
const own = (room: Room, id: string): Player | undefined =>
  Object.hasOwn(room.players, id) ? room.players[id] : undefined;

/**
 * `after` is `before` with only `playerId`'s seat link and kept claim (seat-link.ts) now as `seat` says
 * (each absent when not given; the link that holds the seat, heldByLink, as before unless given) and, with a `type`, one log line of it for that player; without one,
 * no log line.
 */
function checkOnlySeatLink(
  before: Room,
  after: Room,
  playerId: string,
  seat: Pick<Player, 'seatLink' | 'seatClaim' | 'heldByLink'>,
  type: 'seatLinkMade' | 'seatMoved' | 'seatLinkVoid' | null,
): void {
  const { seatLink: _was, seatClaim: _claim, ...rest } = before.players[playerId] as Player;
  const players = { ...before.players, [playerId]: { ...rest, ...seat } };
  const { log: logBefore, nextEventSeq: _n, lastActivity: _l, tableActivity: _t, ...restBefore } = before;
  const { log: logAfter, nextEventSeq: _n2, lastActivity: _l2, tableActivity: _t2, ...restAfter } = after;
  const what = type ?? 'seatBack';
  // Compared as JSON with sorted keys: the seat's link is its last key, wherever the engine put it.
  check(
    canonical(restAfter) === canonical({ ...restBefore, players }),
    `${what}: the room changed beyond its log and the seat's link`,
  );
  if (type === null) {
    check(logAfter === logBefore && after.nextEventSeq === before.nextEventSeq, `${what}: a log line`);
    return;
  }
  const line = logAfter.at(-1);
  check(
    line?.type === type && line.playerId === playerId && line.seq === before.nextEventSeq,
    `${type}: its log line`,
  );
}

/** JSON with every object's keys sorted. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v !== null && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}

/** Approved players by joinedAt. */
function seats(players: Record<string, Player>): Player[] {
  return Object.values(players)
    .filter((p) => p.isApproved)
    .sort((a, b) => a.joinedAt - b.joinedAt);
}
const live = (p: Player) => p.isActive && !p.hasFolded;
/** Dealt into the next hand: chips, and not sitting out. */
const dealtIn = (p: Player) => p.stack > 0 && p.away !== true;
const able = (p: Player) => live(p) && !p.isAllIn && p.stack > 0;
const highest = (ps: Player[]) => Math.max(0, ...ps.filter(live).map((p) => p.currentRoundBet));

/** Seats clockwise strictly after `seat` (or from it, `inclusive`), wrapping around. */
function clockwise(ps: Player[], seat: number, inclusive = false): Player[] {
  const i = ps.findIndex((p) => (inclusive ? p.joinedAt >= seat : p.joinedAt > seat));
  return i <= 0 ? ps : [...ps.slice(i), ...ps.slice(0, i)];
}

/** Every chip put in this hand: [id, amount, live], departed players last. */
function contributionsOf(room: Room): Array<{ id: string; amount: number; live: boolean }> {
  const out = seats(room.players).map((p) => ({ id: p.id, amount: p.totalPotContribution, live: live(p) }));
  for (const [id, amount] of Object.entries(room.gameState.departedContributions ?? {}))
    out.push({ id, amount, live: false });
  return out;
}

/**
 * Pots once betting is over, brute force: one layer per distinct contribution level (height x the
 * number of players who reached it, folded and departed ones included), eligible = live players who
 * reached it; equal adjacent eligible sets merge; a layer nobody live reached joins the pot below it
 * (the pot above if there is none below). Returns [amount, sorted eligible ids] per pot.
 */
function referencePots(room: Room): Array<[number, string[]]> {
  const c = contributionsOf(room);
  const levels = [...new Set(c.map((e) => e.amount).filter((a) => a > 0))].sort((a, b) => a - b);
  const pots: Array<[number, string[]]> = [];
  let carry = 0;
  let prev = 0;
  for (const level of levels) {
    const amount = (level - prev) * c.filter((e) => e.amount >= level).length;
    prev = level;
    const eligible = c
      .filter((e) => e.live && e.amount >= level)
      .map((e) => e.id)
      .sort();
    const last = pots[pots.length - 1];
    if (eligible.length === 0) {
      if (last) last[0] += amount;
      else carry += amount;
    } else if (last && last[1].join() === eligible.join()) last[0] += amount;
    else {
      pots.push([amount + carry, eligible]);
      carry = 0;
    }
  }
  if (carry > 0)
    pots.push([
      carry,
      c
        .filter((e) => e.live)
        .map((e) => e.id)
        .sort(),
    ]);
  return pots;
}

/** The room's pots in the same shape as referencePots, empty pots left out. */
function potsShape(pots: Pot[]): Array<[number, string[]]> {
  return pots.filter((p) => p.amount > 0).map((p) => [p.amount, [...p.eligiblePlayers].sort()]);
}

/** Betting is over (host advance awaited, or showdown): the pots must be the brute-force ones. */
export function checkPots(room: Room): void {
  const gs = room.gameState;
  if (room.status !== 'PLAYING') return;
  const over = gs.stage === 'SHOWDOWN' || gs.canAdvanceStage;
  if (!over) return;
  const got = JSON.stringify(potsShape(gs.pots));
  const want = JSON.stringify(referencePots(room));
  check(got === want, `pots ${got}, expected ${want}`);
  check(
    gs.pots.every((p, i) => p.id === (i === 0 ? 'main' : `side-${i}`) && p.isMainPot === (i === 0)),
    'pot ids',
  );
  // No uncalled bet stays in a pot once betting is over.
  const c = contributionsOf(room)
    .map((e) => e)
    .sort((a, b) => b.amount - a.amount);
  const [top, second] = c;
  if (top?.live && top.amount > 0) check(top.amount <= (second?.amount ?? 0), `uncalled bet of ${top.id}`);
}

/** What the model expects of the betting round after an action, a stage advance or the blinds. */
type Round =
  | { kind: 'fold'; winner: Player }
  | { kind: 'showdown'; reason: string | null; remaining: number }
  | { kind: 'advance' }
  | { kind: 'turn'; id: string };

function round(ps: Player[], stage: Stage, fromSeat: number, inclusive = false): Round {
  const inHand = ps.filter(live);
  if (inHand.length <= 1) {
    check(inHand.length === 1, 'nobody left in the hand');
    return { kind: 'fold', winner: inHand[0] as Player };
  }
  const h = highest(ps);
  const canBet = ps.filter(able);
  if (canBet.length === 0)
    return { kind: 'showdown', reason: 'ALL_REMAINING_ALL_IN', remaining: inHand.length };
  const lone = canBet[0] as Player;
  if (canBet.length === 1 && lone.currentRoundBet >= h)
    return {
      kind: 'showdown',
      reason: lone.hasActedThisRound ? 'LAST_PLAYER_RESPONDED' : 'BETTING_CAPPED_BY_ALL_IN',
      remaining: inHand.length,
    };
  const next = clockwise(ps, fromSeat, inclusive).find(
    (p) => able(p) && (!p.hasActedThisRound || p.currentRoundBet < h),
  );
  if (next !== undefined) return { kind: 'turn', id: next.id };
  if (stage === 'RIVER') return { kind: 'showdown', reason: null, remaining: inHand.length };
  return { kind: 'advance' };
}

/** Checks the room after a round outcome the model computed on `ps` (the players right after the move). */
function checkRound(after: Room, want: Round, stage: Stage, ps: Player[], potBefore: number): void {
  const gs = after.gameState;
  switch (want.kind) {
    case 'turn':
      check(gs.stage === stage, `stage ${gs.stage}, expected ${stage}`);
      check(gs.currentTurnPlayerId === want.id, `turn ${gs.currentTurnPlayerId}, expected ${want.id}`);
      check(!gs.canAdvanceStage, 'advance flag while betting');
      return;
    case 'advance': {
      const next = STAGE_ORDER[STAGE_ORDER.indexOf(stage) + 1];
      check(gs.stage === stage && gs.canAdvanceStage, `expected to wait for an advance, got ${gs.stage}`);
      check(gs.currentTurnPlayerId === null && gs.nextStage === next, 'advance flags');
      check(
        gs.nextStageName === { FLOP: 'Flop', TURN: 'Turn', RIVER: 'River' }[next as string],
        'stage name',
      );
      return;
    }
    case 'showdown':
      check(gs.stage === 'SHOWDOWN', `stage ${gs.stage}, expected SHOWDOWN`);
      check(gs.currentTurnPlayerId === null, 'turn at showdown');
      check(
        gs.autoAdvancedReason === want.reason,
        `reason ${gs.autoAdvancedReason}, expected ${want.reason}`,
      );
      check(gs.message === showdown(want.remaining), `message ${gs.message}`);
      return;
    case 'fold': {
      check(gs.stage === 'SHOWDOWN', 'fold win not at SHOWDOWN');
      check(gs.message === foldWin(want.winner.name), `message ${gs.message}`);
      check(sum(gs.pots.map((p) => p.amount)) === 0, 'pots not emptied');
      check(JSON.stringify(gs.winnerIds) === JSON.stringify([want.winner.id]), 'winnerIds');
      const w = after.players[want.winner.id];
      const before = ps.find((p) => p.id === want.winner.id) as Player;
      // The winner takes every chip of the hand (their own uncalled part included).
      check(
        w?.stack === before.stack + potBefore,
        `fold winner has ${w?.stack}, expected ${before.stack + potBefore}`,
      );
      return;
    }
  }
}

const copy = (ps: Player[]) => ps.map((p) => ({ ...p }));

/** The minimum raise increment (SPEC section 5). */
function referenceMinRaise(room: Room, h: number): number {
  const gs = room.gameState;
  const base = gs.blinds?.bigBlind ?? room.settings.bigBlind;
  if (h === 0) return base;
  if (gs.stage === 'PRE_FLOP' && gs.lastRaiseAmount === 0) return base;
  return gs.lastRaiseAmount > 0 ? gs.lastRaiseAmount : base;
}

/** Whether an act command should be accepted, and the bet it leads to. */
function modelAct(
  room: Room,
  actor: string,
  action: ActionType,
  amount: unknown,
  facing?: Facing,
): { ok: false; error: string } | { ok: true; target: number; recorded: ActionType } {
  const no = (error: string) => ({ ok: false as const, error });
  const p = own(room, actor);
  const gs = room.gameState;
  if (p === undefined || !p.isApproved) return no(MSG.notInGame);
  if (room.status === 'ENDED') return no(MSG.gameEnded);
  if (room.status !== 'PLAYING' || gs.stage === 'SHOWDOWN' || gs.currentTurnPlayerId === null)
    return no(MSG.noBetting);
  if (!p.isActive) return no(MSG.notInHand);
  if (p.hasFolded) return no(MSG.alreadyFolded);
  if (p.isAllIn) return no(MSG.alreadyAllIn);
  if (gs.currentTurnPlayerId !== actor) return no(MSG.notYourTurn);
  const ps = seats(room.players);
  const h = highest(ps);
  const all = p.currentRoundBet + p.stack;
  // What the player saw must still be the table: the hand, the stage and what calling costs.
  if (
    facing !== undefined &&
    (facing.handNumber !== gs.handNumber ||
      facing.stage !== gs.stage ||
      facing.toCall !== Math.max(0, Math.min(h, all) - p.currentRoundBet))
  )
    return no(MSG.actMovedOn);
  switch (action) {
    case 'FOLD':
      return { ok: true, target: p.currentRoundBet, recorded: 'FOLD' };
    case 'CALL':
      return { ok: true, target: Math.max(p.currentRoundBet, Math.min(h, all)), recorded: 'CALL' };
    case 'ALL_IN':
      return { ok: true, target: all, recorded: 'ALL_IN' };
    case 'RAISE': {
      // SPEC section 8's raise alerts, with formatCents's "$1,234.50".
      const $ = (c: number) =>
        `$${Math.floor(c / 100).toLocaleString('en-US')}.${String(c % 100).padStart(2, '0')}`;
      if (typeof amount !== 'number' || !Number.isSafeInteger(amount))
        return no('Please enter a valid amount (e.g., "25.50")');
      if (amount === all) return { ok: true, target: all, recorded: 'ALL_IN' };
      if (amount > all) return no(`You don't have enough chips. Maximum bet is ${$(all)}`);
      const opp = ps.filter((q) => q.id !== actor && live(q)).map((q) => q.currentRoundBet + q.stack);
      const max = opp.length === 0 ? all : Math.min(all, Math.max(...opp));
      if (amount > max) return no(`Maximum effective bet is ${$(max)} based on opponents' stack sizes.`);
      // Ours (betting.ts raiseError): what the deepest opponent can call, when that caps the bet.
      if (amount === max && max < all && max > h) return { ok: true, target: amount, recorded: 'RAISE' };
      const step = referenceMinRaise(room, h);
      if (amount < h + step)
        return no(`Minimum raise is ${$(step)}. Total bet must be at least ${$(h + step)}`);
      return { ok: true, target: amount, recorded: 'RAISE' };
    }
  }
}

/** Positions for a new hand (SPEC section 4, README "Hands, button, blinds"). */
function modelPositions(room: Room) {
  const funded = seats(room.players).filter(dealtIn);
  const prev = room.gameState.dealerSeat ?? null;
  let di = 0;
  if (prev !== null) {
    const i = funded.findIndex((p) => p.joinedAt > prev);
    di = i === -1 ? 0 : i;
  }
  const at = (k: number) => funded[(di + k) % funded.length] as Player;
  if (funded.length === 2) return { funded, dealer: at(0), sb: at(0), bb: at(1), headsUp: true };
  return { funded, dealer: at(0), sb: at(1), bb: at(2), headsUp: false };
}

/** Split of `amount` among `ids`, odd cents one each clockwise from the dealer's left (dealer last). */
function referenceSplit(room: Room, amount: number, ids: string[]): Map<string, number> {
  const dealerSeat = room.gameState.dealerSeat ?? Number.NEGATIVE_INFINITY;
  const order = clockwise(
    seats(room.players).filter((p) => ids.includes(p.id)),
    dealerSeat,
  ).map((p) => p.id);
  const share = Math.floor(amount / order.length);
  let odd = amount - share * order.length;
  const out = new Map<string, number>();
  for (const id of order) {
    out.set(id, share + (odd > 0 ? 1 : 0));
    odd--;
  }
  return out;
}

/** Every fixed message and message pattern an engine refusal may carry. */
const PATTERNS: RegExp[] = [
  /^You don't have enough chips\. Maximum bet is \$[\d,]+\.\d\d$/,
  /^Maximum effective bet is \$[\d,]+\.\d\d based on opponents' stack sizes\.$/,
  /^Minimum raise is \$[\d,]+\.\d\d\. Total bet must be at least \$[\d,]+\.\d\d$/,
  /^.+ is still in this hand\. Add chips after the showdown or once they fold\.$/,
  /^Choose a winner for (main|side-\d+)$/,
  /^Player .+ is not in this hand$/,
  /^.+ is not eligible for (main|side-\d+)$/,
  /^There is no pot .+$/,
  /^.+ is at the table and can act\. Nothing was done\.$/,
  /^.+ has just taken over as host\. Nothing was done\.$/,
  /^.+'s phone is still connected\. Nothing was done\.$/,
  /^This phone already plays in this game: give the link to .+\.$/,
];
const FIXED = new Set<string>(Object.values(MSG));

/** A refusal must carry one of the engine's (spec-worded) messages. */
function checkError(error: string): void {
  check(FIXED.has(error) || PATTERNS.some((re) => re.test(error)), `unknown error text '${error}'`);
}

/**
 * Checks an accepted or refused command against the model: acceptance of actions, advances, new
 * hands and awards; the bet each action moves; the turn, stage and reason afterwards; button, roles
 * and blinds of a new hand; the chips each winner gets (odd cents included).
 */
export function checkTransition(
  before: Room,
  actor: string,
  command: Command,
  res: CommandResult,
  now?: number,
): void {
  if (!res.ok) checkError(res.error);
  // Host-only commands sent by anyone else: the spec's section 6 wording, before anything else.
  const hostOnly: Partial<Record<Command['type'], string>> = {
    approve: MSG.onlyHostApprove,
    remove: MSG.onlyHostRemove,
    updateSettings: MSG.onlyHostSettings,
    advanceStage: MSG.onlyHostAdvance,
    startGame: MSG.onlyHostGameState,
    declareWinners: MSG.onlyHostGameState,
    newHand: MSG.onlyHostGameState,
    rebuy: MSG.onlyHostGameState,
    endGame: MSG.onlyHostGameState,
    undo: MSG.onlyHostUndo,
    actFor: MSG.onlyHostActFor,
    makeHost: MSG.onlyHostMakeHost,
    arrangeSeats: MSG.onlyHostSeats,
    seatLink: MSG.onlyHostSeatLink,
  };
  const hostMessage = hostOnly[command.type];
  if (hostMessage !== undefined && actor !== before.hostId)
    check(!res.ok && res.error === hostMessage, `${command.type} by ${actor}: expected '${hostMessage}'`);
  const after = res.ok ? res.room : null;
  // An undo moves chips back without events of their own; properties.test.ts checks it against the
  // room before the undone command.
  if (after !== null && after !== undefined && command.type !== 'undo')
    checkEvents(before, after, res.ok ? res.events : []);
  const gs0 = before.gameState;
  switch (command.type) {
    case 'act': {
      const want = modelAct(before, actor, command.action, command.amount, command.facing);
      check(res.ok === want.ok, `act ${command.action} ${command.amount}: ok ${res.ok}, model ${want.ok}`);
      if (!res.ok && !want.ok)
        check(res.error === want.error, `act refused with '${res.error}', expected '${want.error}'`);
      if (!want.ok || after === null) return;
      const p = before.players[actor] as Player;
      const ev = res.ok ? res.events.find((e) => e.type === 'playerActed') : undefined;
      check(ev?.type === 'playerActed', 'no playerActed event');
      check(ev.action === want.recorded, `recorded ${ev.action}, expected ${want.recorded}`);
      check(ev.amount === want.target - p.currentRoundBet, `paid ${ev.amount}`);
      check(ev.totalBet === want.target, `total bet ${ev.totalBet}, expected ${want.target}`);
      // The model's players right after the move, before the round's outcome.
      const ps = copy(seats(before.players));
      const h = highest(ps);
      const me = ps.find((q) => q.id === actor) as Player;
      const pay = want.target - me.currentRoundBet;
      me.stack -= pay;
      me.currentRoundBet = want.target;
      me.totalPotContribution += pay;
      me.hasActedThisRound = true;
      if (command.action === 'FOLD') me.hasFolded = true;
      else if (me.stack === 0) me.isAllIn = true;
      if (want.target > h) for (const q of ps) if (q.id !== actor && able(q)) q.hasActedThisRound = false;
      check(ev.allIn === me.isAllIn, 'allIn flag of the event');
      const potBefore =
        sum(ps.map((q) => q.totalPotContribution)) + sum(Object.values(gs0.departedContributions ?? {}));
      const outcome = round(ps, gs0.stage, p.joinedAt);
      checkRound(after, outcome, gs0.stage, ps, potBefore);
      if (after.gameState.stage === gs0.stage)
        check(
          after.gameState.lastRaiseAmount === (want.target > h ? want.target - h : gs0.lastRaiseAmount),
          `lastRaiseAmount ${after.gameState.lastRaiseAmount}`,
        );
      return;
    }
    case 'advanceStage': {
      const okWant =
        actor === before.hostId &&
        before.status === 'PLAYING' &&
        gs0.canAdvanceStage &&
        gs0.nextStage !== null;
      check(res.ok === okWant, `advance: ok ${res.ok}, model ${okWant}`);
      if (!okWant || after === null) return;
      const ps = copy(seats(before.players));
      for (const q of ps) {
        q.currentRoundBet = 0;
        q.hasActedThisRound = false;
      }
      const stage = gs0.nextStage as Stage;
      const outcome = round(ps, stage, gs0.dealerSeat ?? Number.NEGATIVE_INFINITY);
      check(outcome.kind !== 'fold', 'advance with one player left');
      checkRound(after, outcome, stage, ps, 0);
      if (after.gameState.stage === stage)
        check(after.gameState.lastRaiseAmount === 0, 'lastRaiseAmount kept');
      return;
    }
    case 'startGame':
    case 'newHand': {
      const funded = seats(before.players).filter(dealtIn).length;
      const okWant =
        actor === before.hostId &&
        (command.type === 'startGame'
          ? before.status === 'LOBBY' && seats(before.players).length >= 2 && funded >= 2
          : before.status === 'PLAYING' &&
            gs0.stage === 'SHOWDOWN' &&
            sum(gs0.pots.map((p) => p.amount)) === 0 &&
            funded >= 2);
      check(res.ok === okWant, `${command.type}: ok ${res.ok}, model ${okWant}`);
      if (!okWant || after === null) return;
      checkNewHand(before, after);
      return;
    }
    case 'declareWinners': {
      checkAward(before, actor, command.winnerIds, command.byPot, res);
      return;
    }
    case 'leave':
    case 'remove': {
      const target = command.type === 'leave' ? actor : command.playerId;
      if (command.type === 'remove') {
        const okWant =
          actor === before.hostId &&
          before.status !== 'ENDED' &&
          own(before, target) !== undefined &&
          target !== before.hostId;
        check(res.ok === okWant, `remove: ok ${res.ok}, model ${okWant}`);
      } else check(res.ok, 'leave refused');
      if (after === null || !res.ok || before.status !== 'PLAYING') return;
      if (command.type === 'leave' && target === before.hostId) {
        checkEnd(before, after, target);
        return;
      }
      const p = own(before, target);
      if (p === undefined) return;
      check(own(after, target) === undefined, 'departed player still seated');
      if (p.isApproved) checkDeparture(before, after, p, command.type === 'remove');
      return;
    }
    case 'rebuy': {
      const p = own(before, command.playerId);
      const invested =
        sum(Object.values(before.players).map((q) => q.totalInvestment)) +
        sum(before.ledger.map((e) => e.totalInvestment));
      const okWant =
        actor === before.hostId &&
        before.status !== 'ENDED' &&
        before.settings.enableRebuys &&
        Number.isSafeInteger(command.amount) &&
        command.amount > 0 &&
        p?.isApproved === true &&
        command.amount <= Number.MAX_SAFE_INTEGER - invested &&
        !(before.status === 'PLAYING' && gs0.stage !== 'SHOWDOWN' && live(p));
      check(res.ok === okWant, `rebuy: ok ${res.ok}, model ${okWant}`);
      if (!okWant || after === null || p === undefined) return;
      const q = after.players[p.id] as Player;
      check(q.stack === p.stack + command.amount, 'rebuy stack');
      check(q.totalInvestment === p.totalInvestment + command.amount, 'rebuy investment');
      return;
    }
    case 'makeHost': {
      // The host role moves to a player at the table, and nothing else changes (host.ts).
      const target = own(before, command.playerId);
      const okWant =
        actor === before.hostId &&
        before.status !== 'ENDED' &&
        target !== undefined &&
        target.id !== actor &&
        target.isApproved;
      check(res.ok === okWant, `makeHost: ok ${res.ok}, model ${okWant}`);
      if (okWant && after) checkHandOver(before, after, command.playerId);
      return;
    }
    case 'seatLink': {
      // The host, for a player at the table other than themself whose phone the server does not see;
      // the room gains one log line and nothing else (seat-link.ts).
      const target = own(before, command.playerId);
      const okWant =
        actor === before.hostId &&
        before.status !== 'ENDED' &&
        target !== undefined &&
        target.id !== actor &&
        target.isApproved &&
        !(command.online?.includes(target.id) ?? false);
      check(res.ok === okWant, `seatLink: ok ${res.ok}, model ${okWant}`);
      if (!okWant || !after || !target) return;
      // The room gains the link's id on the seat (replacing any earlier one) and one log line.
      checkOnlySeatLink(before, after, target.id, { seatLink: command.linkId }, 'seatLinkMade');
      return;
    }
    case 'claimSeat': {
      // A phone (the actor: any id, usually no member's) takes a seat with the link the host made for
      // it last and nobody has used, or asks again with the link it used (the claim kept on the seat):
      // not the host's seat, not one connected, not by a phone seated at the table (other than the seat
      // itself), not once the game is over. A first claim: the link goes, the claim is kept, one log
      // line. Again: the room as it was.
      const target = own(before, command.playerId);
      const again = target?.seatClaim?.linkId === command.linkId && target.seatClaim.by === actor;
      const okWant =
        before.status !== 'ENDED' &&
        target !== undefined &&
        target.id !== before.hostId &&
        (actor === target.id || own(before, actor)?.isApproved !== true) &&
        (target.seatLink === command.linkId || again) &&
        !(command.online?.includes(target.id) ?? false);
      check(res.ok === okWant, `claimSeat: ok ${res.ok}, model ${okWant}`);
      if (!res.ok || !target) return;
      if (again) {
        check(
          res.room === before && res.events.length === 0,
          'claimSeat: a claim asked again changed the room',
        );
        return;
      }
      check(after !== null, 'claimSeat deleted the room');
      // The claim's link is the one whose room-scoped credentials hold the seat from now on.
      const seatClaim = { linkId: command.linkId, by: actor };
      checkOnlySeatLink(before, after, target.id, { seatClaim, heldByLink: command.linkId }, 'seatMoved');
      return;
    }
    case 'seatBack': {
      // A phone of the actor's is back: their unused link goes, with one log line, and a kept claim,
      // with none; anything else (neither, not in the room, a game over) is the room as it was.
      check(res.ok, 'seatBack refused');
      const me = own(before, actor);
      if ((me?.seatLink === undefined && me?.seatClaim === undefined) || before.status === 'ENDED') {
        check(res.room === before && res.events.length === 0, 'seatBack changed a room with no link to void');
        return;
      }
      check(after !== null, 'seatBack deleted the room');
      checkOnlySeatLink(before, after, actor, {}, me?.seatLink === undefined ? null : 'seatLinkVoid');
      return;
    }
    case 'claimHost': {
      // A player at the table takes the role once the table has gone HOST_AWAY_MS without a command
      // (known when `now` is given).
      if (now === undefined) return;
      const me = own(before, actor);
      const idle = now - (before.tableActivity ?? before.lastActivity);
      const okWant =
        before.status === 'PLAYING' &&
        me !== undefined &&
        me.isApproved &&
        actor !== before.hostId &&
        // A wait more than CLOCK_SKEW_MS below zero: the server's clock stepped back since; not a host
        // just seen. Less below zero: another process's clock a moment behind; the table is active.
        !(idle >= -CLOCK_SKEW_MS && idle < HOST_AWAY_MS) &&
        // Not from a host whose phone the server sees connected.
        !(command.online?.includes(before.hostId) ?? false);
      check(res.ok === okWant, `claimHost: ok ${res.ok}, model ${okWant}`);
      if (okWant && after) checkHandOver(before, after, actor);
      return;
    }
    case 'sitOut': {
      // A player for themself, the host for anyone at the table; during play; only the flag changes.
      const target = command.playerId ?? actor;
      const byHost = target !== actor;
      const p = own(before, target);
      const okWant =
        before.status === 'PLAYING' && (!byHost || actor === before.hostId) && p?.isApproved === true;
      check(res.ok === okWant, `sitOut: ok ${res.ok}, model ${okWant}`);
      if (!okWant || !after || p === undefined) return;
      if ((p.away === true) === command.away) {
        check(after === before, 'sitOut: asking for what already is changed the room');
        return;
      }
      check(JSON.stringify(after.gameState) === JSON.stringify(gs0), 'sitOut: the hand changed');
      for (const q of Object.values(before.players)) {
        const r = own(after, q.id);
        const want = q.id === target ? { ...q, away: command.away ? true : undefined } : q;
        check(
          r !== undefined && JSON.stringify(r) === JSON.stringify(want),
          `sitOut: ${q.id} changed beyond the flag`,
        );
      }
      return;
    }
    case 'arrangeSeats': {
      // The players at the table, each once, clockwise; in the lobby or between hands (seating.ts).
      const table = seats(before.players).map((p) => p.id);
      const ids = command.playerIds;
      const betweenHands =
        before.status === 'LOBBY' ||
        (before.status === 'PLAYING' && gs0.stage === 'SHOWDOWN' && sum(gs0.pots.map((p) => p.amount)) === 0);
      const okWant =
        actor === before.hostId &&
        before.status !== 'ENDED' &&
        betweenHands &&
        ids.length === table.length &&
        new Set(ids).size === ids.length &&
        ids.every((id) => table.includes(id));
      check(res.ok === okWant, `arrangeSeats: ok ${res.ok}, model ${okWant}`);
      if (!okWant || !after) return;
      const same = ids.every((id, i) => id === table[i]);
      // The same order changes nothing, unless a stranger waiting sat between two seats (moved behind).
      const lastBefore = Math.max(...seats(before.players).map((p) => p.joinedAt));
      const strangerAmong = Object.values(before.players).some(
        (p) => !p.isApproved && p.joinedAt < lastBefore,
      );
      check(!same || strangerAmong || after === before, 'arrangeSeats: the same order changed the room');
      check(
        JSON.stringify(seats(after.players).map((p) => p.id)) === JSON.stringify(ids),
        'arrangeSeats: the seat order',
      );
      // The same seats (joinedAt values), nobody else's touched, no chips moved.
      const seatsOf = (r: Room) =>
        seats(r.players)
          .map((p) => p.joinedAt)
          .join();
      check(seatsOf(after) === seatsOf(before), 'arrangeSeats: the seats themselves changed');
      for (const p of Object.values(before.players)) {
        const q = own(after, p.id);
        check(
          q !== undefined && q.stack === p.stack && q.totalInvestment === p.totalInvestment,
          `arrangeSeats: ${p.id}'s chips`,
        );
      }
      // Strangers waiting for approval: behind every seat, in the order they asked.
      const waiting = (r: Room) =>
        Object.values(r.players)
          .filter((p) => !p.isApproved)
          .sort((a, b) => a.joinedAt - b.joinedAt);
      check(
        waiting(after)
          .map((p) => p.id)
          .join() ===
          waiting(before)
            .map((p) => p.id)
            .join(),
        'arrangeSeats: the waiting list reordered',
      );
      const lastSeat = Math.max(...seats(after.players).map((p) => p.joinedAt));
      check(
        waiting(after).every((p) => p.joinedAt > lastSeat),
        'arrangeSeats: a stranger waiting sits between seated players',
      );
      // The button stays with the last hand's dealer.
      const dealer = seats(before.players).find((p) => p.joinedAt === gs0.dealerSeat);
      if (before.status === 'PLAYING' && dealer !== undefined)
        check(
          after.gameState.dealerSeat === own(after, dealer.id)?.joinedAt,
          'arrangeSeats: the button moved',
        );
      // A last dealer who left: the button goes on to whoever sat on their left, in any new order.
      const firstAfter = (r: Room, seat: number) => {
        const s = seats(r.players);
        return (s.find((p) => p.joinedAt > seat) ?? s[0])?.id;
      };
      const was = gs0.dealerSeat ?? null;
      const now = after.gameState.dealerSeat ?? null;
      if (before.status === 'PLAYING' && dealer === undefined && was !== null)
        check(
          now !== null && firstAfter(after, now) === firstAfter(before, was),
          'arrangeSeats: the button skipped the departed dealer’s left',
        );
      return;
    }
    case 'endGame': {
      const okWant = actor === before.hostId && before.status === 'PLAYING';
      check(res.ok === okWant, `endGame: ok ${res.ok}, model ${okWant}`);
      if (okWant && after !== null) checkEnd(before, after, actor);
      return;
    }
    default:
      return;
  }
}

/** The host role went to `to`, one host flag, and nothing in the hand or the chips changed. */
function checkHandOver(before: Room, after: Room, to: string): void {
  check(after.hostId === to, 'hand-over: hostId');
  const flags = Object.values(after.players).filter((p) => p.isHost);
  check(flags.length === 1 && flags[0]?.id === to, 'hand-over: one host flag, the new host’s');
  check(JSON.stringify(after.gameState) === JSON.stringify(before.gameState), 'hand-over: the hand changed');
  for (const p of Object.values(before.players)) {
    const q = own(after, p.id);
    check(
      q !== undefined && q.stack === p.stack && q.totalInvestment === p.totalInvestment,
      `hand-over: ${p.id}'s chips`,
    );
  }
}

/**
 * The events tell the whole story of the chips: for everyone seated before and after, the stack
 * moved by exactly the blinds, actions, returned bets, awards and rebuys the events report; an
 * award's shares add up to the pot.
 */
function checkEvents(before: Room, after: Room, events: GameEvent[]): void {
  const delta = new Map<string, number>();
  const add = (id: string, n: number) => delta.set(id, (delta.get(id) ?? 0) + n);
  for (const e of events) {
    switch (e.type) {
      case 'blindPosted':
      case 'playerActed':
        add(e.playerId, -e.amount);
        break;
      case 'betReturned':
      case 'rebuy':
        add(e.playerId, e.amount);
        break;
      case 'potAwarded':
        check(sum(e.winners.map((w) => w.amount)) === e.amount, `shares of ${e.potId} do not add up`);
        check(e.amount > 0, `empty ${e.potId} awarded`);
        for (const w of e.winners) add(w.playerId, w.amount);
        break;
      default:
        break;
    }
  }
  // Ending the game mid-hand (no pot awarded on the way) returns a departed stint's chips in the pots
  // to its ledger entry (they join the final chips), not to the stack of the same id seated again.
  if (events.some((e) => e.type === 'gameEnded') && !events.some((e) => e.type === 'potAwarded')) {
    const departed = before.gameState.departedContributions ?? {};
    for (const e of before.ledger) add(e.id, -ownCents(departed, e.id));
  }
  for (const p of Object.values(before.players)) {
    const q = own(after, p.id);
    if (q === undefined) continue;
    check(
      q.stack - p.stack === (delta.get(p.id) ?? 0),
      `events of ${p.id} say ${delta.get(p.id) ?? 0}, stack moved ${q.stack - p.stack}`,
    );
  }
}

/** A seated player left or was removed mid-game: ledger, dead money, turn, fold win, auto end. */
function checkDeparture(before: Room, after: Room, p: Player, removed: boolean): void {
  const gs0 = before.gameState;
  const prev = before.ledger.find((e) => e.id === p.id);
  const entry = after.ledger.find((e) => e.id === p.id);
  check(entry !== undefined && after.ledger.filter((e) => e.id === p.id).length === 1, 'one ledger entry');
  // How they went, as of this departure: the results say "(removed)" or "(left)".
  check(entry.removed === (removed ? true : undefined), 'ledger: removed or left');
  const ps = copy(seats(before.players)).filter((q) => q.id !== p.id);
  // Leaving the hand folds it, and the player takes (1) what nobody else can win: every chip put in
  // above the most any other player still in it can be in for (their total, and before the showdown
  // their stack too if they can still bet); then (2) what nobody matched: their own chips above the
  // most anyone else (seated, folded or gone) has then put in.
  const departedEntries = Object.entries(gs0.departedContributions ?? {});
  const departed0 = departedEntries.map(([, n]) => n);
  let uncontested = 0;
  let unmatched = 0;
  let stays: number | null = null;
  if (before.status === 'PLAYING' && live(p) && sum(gs0.pots.map((x) => x.amount)) > 0) {
    const betting = gs0.stage !== 'SHOWDOWN';
    const reach = (q: Player) => q.totalPotContribution + (betting && able(q) ? q.stack : 0);
    const cap = Math.max(0, ...ps.filter(live).map(reach));
    const capped = (n: number) => (p.totalPotContribution > cap ? Math.min(n, cap) : n);
    if (p.totalPotContribution > cap)
      for (const n of [p.totalPotContribution, ...ps.map((q) => q.totalPotContribution), ...departed0])
        uncontested += Math.max(0, n - cap);
    const others = [
      ...ps.map((q) => q.totalPotContribution),
      ...departedEntries.filter(([id]) => id !== p.id).map(([, n]) => n),
    ];
    unmatched = Math.max(0, capped(p.totalPotContribution) - Math.max(0, ...others.map(capped)));
    stays = capped(p.totalPotContribution) - unmatched;
  }
  // The leave and remove questions say what of the leaver's own chips stays in the pots.
  const said = stakeOnLeaving(before, p.id);
  const staysWant = p.totalPotContribution > 0 ? stays : null;
  check((said?.stays ?? null) === staysWant, `stakeOnLeaving ${JSON.stringify(said)}, model ${staysWant}`);
  if (said !== null) check(said.bet === p.totalPotContribution, 'stakeOnLeaving: bet');
  check(
    entry.finalChips === p.stack + uncontested + unmatched + (prev?.finalChips ?? 0),
    `ledger chips ${entry.finalChips}, model ${p.stack + uncontested + unmatched + (prev?.finalChips ?? 0)}`,
  );
  check(entry.totalInvestment === p.totalInvestment + (prev?.totalInvestment ?? 0), 'ledger investment');
  const seated = ps.filter((q) => q.isApproved).length;
  const potBefore =
    sum(ps.map((q) => q.totalPotContribution)) +
    sum(departed0) +
    p.totalPotContribution -
    uncontested -
    unmatched;
  const gs = after.gameState;
  const autoEnds = (stageAfter: Stage) => stageAfter === 'SHOWDOWN' && seated <= 1;
  if (gs0.stage === 'SHOWDOWN') {
    if (autoEnds('SHOWDOWN')) {
      check(after.status === 'ENDED' && gs.endedBy === 'auto', 'no auto end');
      return;
    }
    check(after.status === 'PLAYING', 'ended');
    const inHand = ps.filter(live);
    if (sum(gs0.pots.map((x) => x.amount)) === 0) return;
    if (inHand.length === 1)
      checkRound(after, { kind: 'fold', winner: inHand[0] as Player }, 'SHOWDOWN', ps, potBefore);
    else check(gs.message === showdown(inHand.length), `showdown message ${gs.message}`);
    return;
  }
  const turn = gs0.currentTurnPlayerId;
  const holder = turn === null || turn === p.id ? undefined : ps.find((q) => q.id === turn);
  const want = round(ps, gs0.stage, holder?.joinedAt ?? p.joinedAt, holder !== undefined);
  const stageAfter = want.kind === 'fold' || want.kind === 'showdown' ? 'SHOWDOWN' : gs0.stage;
  if (autoEnds(stageAfter)) {
    check(after.status === 'ENDED' && gs.endedBy === 'auto', 'no auto end');
    return;
  }
  check(after.status === 'PLAYING', 'ended');
  if (gs0.canAdvanceStage && (want.kind === 'turn' || want.kind === 'advance')) {
    check(gs.canAdvanceStage && gs.currentTurnPlayerId === null && gs.stage === gs0.stage, 'advance lost');
    return;
  }
  checkRound(after, want, gs0.stage, ps, potBefore);
}

/** The end of the game: chips of the unfinished hand back, final chips, nets, winners, losers. */
function checkEnd(before: Room, after: Room, endedBy: string): void {
  const gs = after.gameState;
  check(after.status === 'ENDED' && gs.status === 'ENDED' && gs.endedBy === endedBy, 'ended flags');
  check(gs.pots.length === 0 && gs.currentTurnPlayerId === null, 'pots or turn left');
  const departed = before.gameState.departedContributions ?? {};
  const carried = new Map<string, { chips: number; invested: number }>();
  for (const e of before.ledger)
    if (own(before, e.id)?.isApproved)
      carried.set(e.id, { chips: e.finalChips + ownCents(departed, e.id), invested: e.totalInvestment });
  const nets: Array<[string, number, boolean]> = [];
  for (const p of Object.values(before.players)) {
    const q = after.players[p.id] as Player;
    const c = carried.get(p.id);
    const finalChips = p.stack + p.totalPotContribution + (c?.chips ?? 0);
    const invested = p.totalInvestment + (c?.invested ?? 0);
    check(q.finalChips === finalChips, `finalChips of ${p.id}: ${q.finalChips}, expected ${finalChips}`);
    check(q.netResult === finalChips - invested, `netResult of ${p.id}`);
    check(q.isLoser === finalChips - invested < 0, `isLoser of ${p.id}`);
    nets.push([p.id, finalChips - invested, p.isApproved]);
  }
  // Those who left and were not seated again: their final chips and net result.
  const gone: Array<[string, number]> = [];
  for (const e of before.ledger) {
    if (carried.has(e.id)) {
      check(!after.ledger.some((x) => x.id === e.id), `ledger ${e.id} not merged`);
      continue;
    }
    const x = after.ledger.find((y) => y.id === e.id);
    const finalChips = e.finalChips + ownCents(departed, e.id);
    check(x?.finalChips === finalChips, `ledger ${e.id} chips`);
    check(x?.netResult === finalChips - e.totalInvestment, `ledger ${e.id} net`);
    gone.push([e.id, finalChips - e.totalInvestment]);
  }
  // The winner: the best positive net of every approved player and everyone who left.
  const best = Math.max(0, ...nets.filter(([, , a]) => a).map(([, n]) => n), ...gone.map(([, n]) => n));
  for (const [id, net, approved] of nets)
    check(
      (after.players[id] as Player).isWinner === (approved && best > 0 && net === best),
      `isWinner of ${id}`,
    );
  for (const [id, net] of gone)
    check(
      (after.ledger.find((y) => y.id === id)?.isWinner ?? false) === (best > 0 && net === best),
      `isWinner of ${id} (left)`,
    );
}

function checkNewHand(before: Room, after: Room): void {
  const pos = modelPositions(before);
  const gs = after.gameState;
  check(gs.handNumber === before.gameState.handNumber + 1, 'hand number');
  check(gs.dealerId === pos.dealer.id, `dealer ${gs.dealerId}, expected ${pos.dealer.id}`);
  const ps = copy(seats(before.players));
  for (const q of ps) {
    q.currentRoundBet = 0;
    q.totalPotContribution = 0;
    q.hasFolded = false;
    q.isAllIn = false;
    q.hasActedThisRound = false;
    q.isActive = dealtIn(q);
  }
  for (const p of Object.values(after.players)) {
    const role =
      p.id === pos.dealer.id
        ? pos.headsUp
          ? 'DEALER_SMALL_BLIND'
          : 'DEALER'
        : p.id === pos.sb.id
          ? 'SMALL_BLIND'
          : p.id === pos.bb.id
            ? 'BIG_BLIND'
            : 'PLAYER';
    check(p.role === role, `role of ${p.id}: ${p.role}, expected ${role}`);
    const was = before.players[p.id];
    check(p.isActive === (p.isApproved && was !== undefined && dealtIn(was)), `isActive of ${p.id}`);
  }
  const post = (id: string, size: number) => {
    const q = ps.find((x) => x.id === id) as Player;
    const amount = Math.min(size, q.stack);
    q.stack -= amount;
    q.currentRoundBet = amount;
    q.totalPotContribution = amount;
    if (q.stack === 0) q.isAllIn = true;
  };
  post(pos.sb.id, before.settings.smallBlind);
  post(pos.bb.id, before.settings.bigBlind);
  const potBefore = sum(ps.map((q) => q.totalPotContribution));
  const outcome = round(ps, 'PRE_FLOP', pos.bb.joinedAt);
  checkRound(after, outcome, 'PRE_FLOP', ps, potBefore);
  if (outcome.kind === 'turn' || outcome.kind === 'advance')
    check(sum(gs.pots.map((p) => p.amount)) === potBefore, 'pot is not the sum of the blinds');
}

function checkAward(
  before: Room,
  actor: string,
  winnerIds: readonly string[],
  byPot: Readonly<Record<string, readonly string[]>> | undefined,
  res: CommandResult,
): void {
  const gs0 = before.gameState;
  const liveIds = new Set(
    seats(before.players)
      .filter(live)
      .map((p) => p.id),
  );
  let okWant =
    actor === before.hostId &&
    before.status === 'PLAYING' &&
    gs0.stage === 'SHOWDOWN' &&
    liveIds.size >= 2 &&
    sum(gs0.pots.map((p) => p.amount)) > 0 &&
    winnerIds.every((id) => liveIds.has(id)) &&
    Object.keys(byPot ?? {}).every((k) => gs0.pots.some((p) => p.id === k));
  const gains = new Map<string, number>();
  if (okWant)
    for (const pot of gs0.pots) {
      if (pot.amount === 0) continue;
      const named = byPot?.[pot.id];
      if (named !== undefined && !named.every((id) => liveIds.has(id) && pot.eligiblePlayers.includes(id))) {
        okWant = false;
        break;
      }
      let winners = pot.eligiblePlayers.filter((id) => (named ?? winnerIds).includes(id));
      if (winners.length === 0 && pot.eligiblePlayers.length === 1) winners = [...pot.eligiblePlayers];
      if (winners.length === 0) {
        okWant = false;
        break;
      }
      for (const [id, amount] of referenceSplit(before, pot.amount, winners))
        gains.set(id, (gains.get(id) ?? 0) + amount);
    }
  check(res.ok === okWant, `declareWinners: ok ${res.ok}, model ${okWant}`);
  if (!res.ok || res.room === null) return;
  const after = res.room;
  for (const p of Object.values(before.players)) {
    const got = (after.players[p.id]?.stack ?? Number.NaN) - p.stack;
    check(got === (gains.get(p.id) ?? 0), `${p.id} won ${got}, expected ${gains.get(p.id) ?? 0}`);
  }
}

/**
 * The spec's settlement rule, checked step by step: each transfer is from a debtor owing the most
 * still to a creditor owed the most still (ties either way), for the lesser of the two amounts.
 */
export function checkSettlement(
  rows: Array<{ id: string; netResult: number }>,
  transfers: Settlement[],
): void {
  const left = new Map(rows.map((r) => [r.id, r.netResult]));
  for (const t of transfers) {
    const debts = [...left.values()].filter((v) => v < 0);
    const credits = [...left.values()].filter((v) => v > 0);
    const from = left.get(t.fromPlayerId) ?? 0;
    const to = left.get(t.toPlayerId) ?? 0;
    check(from === Math.min(...debts), `transfer from ${t.fromPlayerId} who is not the biggest loser`);
    check(to === Math.max(...credits), `transfer to ${t.toPlayerId} who is not the biggest winner`);
    check(t.amount === Math.min(-from, to), `transfer of ${t.amount}`);
    left.set(t.fromPlayerId, from + t.amount);
    left.set(t.toPlayerId, to - t.amount);
  }
  for (const [id, v] of left) check(v === 0, `${id} left at ${v}`);
}
