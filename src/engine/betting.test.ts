import { describe, expect, it } from 'vitest';
import { callAmount, facingOf, raiseError, raiseLimits } from './betting';
import { play, player, potsOf, refuse, run, runWithEvents, started } from './test-helpers';

const even3 = () => started([10_000, 10_000, 10_000]); // p0 D, p1 SB, p2 BB; p0 first

describe('raiseLimits', () => {
  it('is null unless it is that player’s turn in a betting stage', () => {
    const room = even3();
    expect(raiseLimits(room, 'p1')).toBeNull();
    expect(raiseLimits(room, 'nobody')).toBeNull();
    const folded = play(room, ['p0', 'FOLD'], ['p1', 'FOLD']);
    expect(raiseLimits(folded, 'p2')).toBeNull();
  });

  it('pre-flop with only the blinds in: min = big blind + base raise, pot preset = own bet + pot', () => {
    expect(raiseLimits(even3(), 'p0')).toEqual({
      min: 400,
      max: 10_000,
      pot: 300,
      limitedByOpponents: false,
      currentBet: 0,
      stack: 10_000,
      minRaise: 200,
      highestBet: 200,
    });
  });

  it('minimum raise follows the last raise’s increase', () => {
    const room = play(even3(), ['p0', 'RAISE', 600]); // raise of 400
    expect(room.gameState.lastRaiseAmount).toBe(400);
    expect(raiseLimits(room, 'p1')).toMatchObject({ min: 1_000, minRaise: 400, highestBet: 600, pot: 1_000 });
    expect(refuse(room, 'p1', { type: 'act', action: 'RAISE', amount: 999 })).toBe(
      'Minimum raise is $4.00. Total bet must be at least $10.00',
    );
    const reraised = play(room, ['p1', 'RAISE', 1_500]); // raise of 900
    expect(raiseLimits(reraised, 'p2')).toMatchObject({ min: 2_400, minRaise: 900, currentBet: 200 });
  });

  it('after the flop with no bet the minimum is the big blind', () => {
    const flop = play(even3(), ['p0', 'CALL'], ['p1', 'CALL'], ['p2', 'CALL'], 'advance');
    expect(flop.gameState.currentTurnPlayerId).toBe('p1');
    expect(raiseLimits(flop, 'p1')).toMatchObject({ min: 200, minRaise: 200, highestBet: 0, pot: 600 });
  });

  it('the maximum effective bet is capped by the biggest opponent bet + stack', () => {
    const room = started([10_000, 3_000, 5_000]);
    expect(raiseLimits(room, 'p0')).toMatchObject({ max: 5_000, limitedByOpponents: true, stack: 10_000 });
    expect(refuse(room, 'p0', { type: 'act', action: 'RAISE', amount: 5_001 })).toBe(
      "Maximum effective bet is $50.00 based on opponents' stack sizes.",
    );
    expect(refuse(room, 'p0', { type: 'act', action: 'RAISE', amount: 10_001 })).toBe(
      "You don't have enough chips. Maximum bet is $100.00",
    );
    expect(player(play(room, ['p0', 'RAISE', 5_000]), 'p0').stack).toBe(5_000);
  });

  it('a bet of what the deepest opponent can call is accepted below the minimum raise, when their stacks cap it', () => {
    // Heads-up, blinds $1/$2: p0 (dealer, small blind) $100.00, p1 (big blind) $3.50. Pre-flop p0
    // calls, p1 checks; on the flop p1 checks with $1.50 behind, less than the $2.00 minimum bet.
    const room = play(started([10_000, 350]), ['p0', 'CALL'], ['p1', 'CALL'], 'advance');
    expect(room.gameState.currentTurnPlayerId).toBe('p1');
    const checked = play(room, ['p1', 'CALL']);
    expect(raiseLimits(checked, 'p0')).toMatchObject({
      min: 200,
      max: 150,
      limitedByOpponents: true,
      highestBet: 0,
    });
    // Below the minimum, but exactly what p1 can call: accepted, p0 keeps the rest behind.
    expect(refuse(checked, 'p0', { type: 'act', action: 'RAISE', amount: 149 })).toBe(
      'Minimum raise is $2.00. Total bet must be at least $2.00',
    );
    const bet = play(checked, ['p0', 'RAISE', 150]);
    expect(player(bet, 'p0')).toMatchObject({ stack: 9_650, currentRoundBet: 150, isAllIn: false });
    expect(bet.gameState.currentTurnPlayerId).toBe('p1');
    // p1 calls all-in; nobody can bet any more: showdown, the $7.00 pot all called.
    const called = play(bet, ['p1', 'CALL']);
    expect(player(called, 'p1')).toMatchObject({ stack: 0, isAllIn: true });
    expect(called.gameState.stage).toBe('SHOWDOWN');
    expect(potsOf(called)).toEqual([['main', 700, ['p0', 'p1']]]);
  });

  it('three-handed: the capped bet goes to what the deepest opponent can call; each then calls all-in or folds', () => {
    // p0 deals with $100.00; p1 posts $1.00 of $3.50, p2 $2.00 of $2.50. The minimum raise is to $4.00,
    // the most anyone can call $3.50 (p1).
    const room = started([10_000, 350, 250]);
    expect(raiseLimits(room, 'p0')).toMatchObject({ min: 400, max: 350, limitedByOpponents: true });
    const bet = play(room, ['p0', 'RAISE', 350]);
    expect(player(bet, 'p0')).toMatchObject({ stack: 9_650, currentRoundBet: 350 });
    expect(bet.gameState.currentTurnPlayerId).toBe('p1');
    // p1 can only call, all-in: their whole stack is what the bet asks; no raise is left to make.
    expect(raiseLimits(bet, 'p1')).toMatchObject({ max: 350, highestBet: 350, stack: 250, currentBet: 100 });
    const done = play(bet, ['p1', 'CALL'], ['p2', 'CALL']);
    expect([player(done, 'p1').isAllIn, player(done, 'p2').isAllIn]).toEqual([true, true]);
    expect(done.gameState.stage).toBe('SHOWDOWN');
    expect(potsOf(done)).toEqual([
      ['main', 750, ['p0', 'p1', 'p2']],
      ['side-1', 200, ['p0', 'p1']],
    ]);
  });

  it('the capped maximum is no raise when nobody can call more than the highest bet', () => {
    // p0 folds, p1 calls, p2 goes all-in for $3.00; p1 can only call it or go all-in: a RAISE to
    // $3.00 would be a call.
    const room = play(started([10_000, 10_000, 300]), ['p0', 'FOLD'], ['p1', 'CALL'], ['p2', 'ALL_IN']);
    expect(raiseLimits(room, 'p1')).toMatchObject({ max: 300, highestBet: 300, limitedByOpponents: true });
    // (p2's all-in raised by $1.00, so the minimum raise is $1.00.)
    expect(refuse(room, 'p1', { type: 'act', action: 'RAISE', amount: 300 })).toBe(
      'Minimum raise is $1.00. Total bet must be at least $4.00',
    );
  });

  it('the pot preset is capped at the maximum', () => {
    const room = started([250, 10_000, 10_000]);
    expect(raiseLimits(room, 'p0')).toMatchObject({
      min: 400,
      max: 250,
      pot: 250,
      limitedByOpponents: false,
    });
  });
});

describe('act', () => {
  it('CALL matches the highest bet; CALL with nothing owed is a check', () => {
    let room = play(even3(), ['p0', 'CALL']);
    expect(player(room, 'p0')).toMatchObject({ stack: 9_800, currentRoundBet: 200, hasActedThisRound: true });
    room = play(room, ['p1', 'CALL']);
    const { room: after, events } = runWithEvents(room, 'p2', { type: 'act', action: 'CALL' });
    expect(events).toEqual([
      {
        type: 'playerActed',
        playerId: 'p2',
        name: 'P2',
        action: 'CALL',
        amount: 0,
        totalBet: 200,
        allIn: false,
      },
    ]);
    expect(after!.gameState).toMatchObject({
      currentTurnPlayerId: null,
      canAdvanceStage: true,
      nextStage: 'FLOP',
      nextStageName: 'Flop',
    });
    expect(potsOf(after!)).toEqual([['main', 600, ['p0', 'p1', 'p2']]]);
  });

  it('CALL with a short stack goes all-in for the rest', () => {
    const room = play(started([10_000, 10_000, 700]), ['p0', 'RAISE', 1_000], ['p1', 'FOLD']);
    const { room: after, events } = runWithEvents(room, 'p2', { type: 'act', action: 'CALL' });
    expect(events[0]).toEqual({
      type: 'playerActed',
      playerId: 'p2',
      name: 'P2',
      action: 'CALL',
      amount: 500,
      totalBet: 700,
      allIn: true,
    });
    expect(player(after!, 'p2')).toMatchObject({ stack: 0, isAllIn: true });
  });

  it('RAISE amounts must be whole cents', () => {
    const room = even3();
    for (const amount of [Number.NaN, 450.5, undefined, Number.POSITIVE_INFINITY])
      expect(refuse(room, 'p0', { type: 'act', action: 'RAISE', amount } as never)).toBe(
        'Please enter a valid amount (e.g., "25.50")',
      );
  });

  it('a RAISE of exactly bet + stack is an all-in even below the minimum raise', () => {
    const room = started([300, 10_000, 10_000]); // p0 can only reach 300; min raise would be 400
    const { room: after, events } = runWithEvents(room, 'p0', { type: 'act', action: 'RAISE', amount: 300 });
    expect(events[0]).toMatchObject({ action: 'ALL_IN', amount: 300, totalBet: 300, allIn: true });
    expect(after!.gameState.lastRaiseAmount).toBe(100);
  });

  it('a short all-in above the highest bet reopens the action and sets the raise size', () => {
    // p2 (big blind) has 700 in total.
    let room = play(started([10_000, 10_000, 700]), ['p0', 'RAISE', 600], ['p1', 'CALL']);
    room = play(room, ['p2', 'ALL_IN']);
    expect(room.gameState.lastRaiseAmount).toBe(100);
    expect(player(room, 'p0').hasActedThisRound).toBe(false);
    expect(player(room, 'p1').hasActedThisRound).toBe(false);
    expect(room.gameState.currentTurnPlayerId).toBe('p0');
    expect(raiseLimits(room, 'p0')).toMatchObject({ min: 800, minRaise: 100, max: 10_000 });
    room = play(room, ['p0', 'CALL'], ['p1', 'CALL']);
    expect(room.gameState).toMatchObject({ canAdvanceStage: true, nextStage: 'FLOP' });
    expect(potsOf(room)).toEqual([['main', 2_100, ['p0', 'p1', 'p2']]]);
  });

  it('an all-in below the highest bet does not reopen the action', () => {
    // p0 (dealer) has 500; p3 opens to 1000, p0 is all-in short, p1 and p2 call: round over.
    let room = play(started([500, 10_000, 10_000, 10_000]), ['p3', 'RAISE', 1_000], ['p0', 'ALL_IN']);
    expect(room.gameState.lastRaiseAmount).toBe(800);
    expect(player(room, 'p3').hasActedThisRound).toBe(true);
    room = play(room, ['p1', 'CALL'], ['p2', 'CALL']);
    expect(room.gameState).toMatchObject({ canAdvanceStage: true, currentTurnPlayerId: null });
    expect(potsOf(room)).toEqual([
      ['main', 2_000, ['p0', 'p1', 'p2', 'p3']],
      ['side-1', 1_500, ['p1', 'p2', 'p3']],
    ]);
  });

  it('an all-in after the blinds raises and reopens the players who already called', () => {
    const room = play(
      started([10_000, 10_000, 10_000, 500]),
      ['p3', 'ALL_IN'],
      ['p0', 'CALL'],
      ['p1', 'CALL'],
    );
    expect(room.gameState.lastRaiseAmount).toBe(300);
    expect(player(room, 'p0').hasActedThisRound).toBe(true);
    expect(room.gameState.currentTurnPlayerId).toBe('p2');
  });

  it('FOLD keeps the chips in the pot', () => {
    const room = play(even3(), ['p0', 'RAISE', 600], ['p1', 'FOLD']);
    expect(player(room, 'p1')).toMatchObject({ hasFolded: true, stack: 9_900, totalPotContribution: 100 });
    expect(potsOf(room)).toEqual([['main', 900, ['p0', 'p2']]]);
  });

  it('refuses anyone who cannot act now, with a clear reason', () => {
    const room = even3();
    expect(refuse(room, 'p1', { type: 'act', action: 'CALL' })).toBe('It is not your turn');
    expect(refuse(room, 'ghost', { type: 'act', action: 'CALL' })).toBe('You are not in this game');
    const folded = play(room, ['p0', 'FOLD']);
    expect(refuse(folded, 'p0', { type: 'act', action: 'CALL' })).toBe('You have folded this hand');
    const allIn = play(started([10_000, 10_000, 10_000, 500]), ['p3', 'ALL_IN']);
    expect(refuse(allIn, 'p3', { type: 'act', action: 'CALL' })).toBe('You are already all-in');
    const waiting = play(room, ['p0', 'CALL'], ['p1', 'CALL'], ['p2', 'CALL']);
    expect(refuse(waiting, 'p0', { type: 'act', action: 'CALL' })).toBe('There is no betting right now');
  });

  it('a player sitting out (approved mid-hand) is not in the hand', () => {
    let room = run(even3(), 'late', { type: 'join', name: 'Late', startingChips: 1_000 });
    room = run(room, 'p0', { type: 'approve', playerId: 'late' });
    expect(refuse(room, 'late', { type: 'act', action: 'FOLD' })).toBe('You are not in this hand');
  });

  it('the turn skips folded, all-in and chipless players', () => {
    // 4-handed, p3 (first to act) all-in, p0 folds, p1 calls: the turn goes to p2 then round ends.
    let room = play(started([10_000, 10_000, 10_000, 1_000]), ['p3', 'ALL_IN'], ['p0', 'FOLD']);
    expect(room.gameState.currentTurnPlayerId).toBe('p1');
    room = play(room, ['p1', 'CALL'], ['p2', 'CALL'], 'advance');
    expect(room.gameState.currentTurnPlayerId).toBe('p1');
    room = play(room, ['p1', 'CALL']);
    expect(room.gameState.currentTurnPlayerId).toBe('p2');
  });
});

describe('callAmount', () => {
  it('is what CALL would put in: owed amount capped by the stack, 0 for a check', () => {
    const room = started([10_000, 10_000, 150]);
    expect(callAmount(room, 'p0')).toBe(150);
    expect(callAmount(room, 'p1')).toBe(50);
    expect(callAmount(room, 'p2')).toBe(0);
    expect(callAmount(room, 'ghost')).toBe(0);
    const raised = play(started([10_000, 10_000, 10_000]), ['p0', 'RAISE', 12_000 - 2_000]);
    expect(callAmount(raised, 'p1')).toBe(9_900);
  });
});

describe('raiseError', () => {
  // p0 has $10.00 behind, nothing in; to call $2.00; min raise total $4.00. Opponents cover $100.00.
  const limits = {
    min: 400,
    max: 1_000,
    pot: 500,
    limitedByOpponents: false,
    currentBet: 0,
    stack: 1_000,
    minRaise: 200,
    highestBet: 200,
  };

  it('answers with the spec’s messages, in the engine’s order of checks', () => {
    expect(raiseError(limits, null)).toBe('Please enter a valid amount (e.g., "25.50")');
    expect(raiseError(limits, 12.5)).toBe('Please enter a valid amount (e.g., "25.50")');
    expect(raiseError(limits, 1_001)).toBe("You don't have enough chips. Maximum bet is $10.00");
    expect(raiseError(limits, 399)).toBe('Minimum raise is $2.00. Total bet must be at least $4.00');
    expect(raiseError(limits, 400)).toBeNull();
    expect(raiseError(limits, 1_000)).toBeNull();
  });

  it('caps by the opponents, but an all-in of exactly bet + stack is always legal', () => {
    const capped = { ...limits, max: 600, limitedByOpponents: true };
    expect(raiseError(capped, 601)).toBe("Maximum effective bet is $6.00 based on opponents' stack sizes.");
    expect(raiseError(capped, 1_000)).toBeNull();
    const short = { ...limits, stack: 300, max: 300 };
    expect(raiseError(short, 300)).toBeNull();
    expect(raiseError(short, 299)).toBe('Minimum raise is $2.00. Total bet must be at least $4.00');
  });
});

describe("an action sent with what the player's screen showed (Facing)", () => {
  // The session-32 audit: $20 each, blinds $1/$2. Checked round to the flop; P1 is first to act there.
  const flop = () =>
    run(play(started([2_000, 2_000, 2_000]), ['p0', 'CALL'], ['p1', 'CALL'], ['p2', 'CALL']), 'p0', {
      type: 'advanceStage',
    });

  it('a Check tapped offline, arriving after the host checked for P1 and P2 bet $5, is refused: not a call', () => {
    const seen = facingOf(flop(), 'p1');
    expect(seen).toEqual({ handNumber: 1, stage: 'FLOP', toCall: 0 });
    const later = play(
      run(flop(), 'p0', { type: 'actFor', playerId: 'p1', action: 'CHECK' }),
      ['p2', 'RAISE', 500],
      ['p0', 'CALL'],
    );
    expect(later.gameState.currentTurnPlayerId).toBe('p1');
    expect(refuse(later, 'p1', { type: 'act', action: 'CALL', facing: seen })).toBe(
      'The table changed before your action arrived. Nothing was done.',
    );
    // A stale fold, raise or all-in the same; what P1 faces now is taken, and so is an action without it.
    for (const command of [
      { type: 'act', action: 'FOLD', facing: seen },
      { type: 'act', action: 'RAISE', amount: 1_000, facing: seen },
      { type: 'act', action: 'ALL_IN', facing: seen },
    ] as const)
      expect(refuse(later, 'p1', command)).toBe(
        'The table changed before your action arrived. Nothing was done.',
      );
    const now = facingOf(later, 'p1');
    expect(now).toEqual({ handNumber: 1, stage: 'FLOP', toCall: 500 });
    expect(player(run(later, 'p1', { type: 'act', action: 'CALL', facing: now }), 'p1').stack).toBe(1_300);
    expect(player(run(later, 'p1', { type: 'act', action: 'CALL' }), 'p1').stack).toBe(1_300);
  });

  it('another hand or another stage is refused even when the call is the same', () => {
    const room = flop();
    const seen = facingOf(room, 'p1');
    for (const facing of [
      { ...seen, handNumber: 2 },
      { ...seen, stage: 'PRE_FLOP' as const },
      { ...seen, toCall: 1 },
    ])
      expect(refuse(room, 'p1', { type: 'act', action: 'CALL', facing })).toBe(
        'The table changed before your action arrived. Nothing was done.',
      );
    // Not their turn is still said first.
    expect(refuse(room, 'p2', { type: 'act', action: 'CALL', facing: facingOf(room, 'p2') })).toBe(
      'It is not your turn',
    );
    // A call of more than the stack is an all-in: toCall is what calling costs, the stack.
    const short = play(started([2_000, 300, 2_000]), ['p0', 'RAISE', 1_000]);
    expect(facingOf(short, 'p1')).toEqual({ handNumber: 1, stage: 'PRE_FLOP', toCall: 200 });
    const called = run(short, 'p1', { type: 'act', action: 'CALL', facing: facingOf(short, 'p1') });
    expect([player(called, 'p1').stack, player(called, 'p1').isAllIn]).toEqual([0, true]);
  });
});

describe('betting rules a mutant survived (mutation testing)', () => {
  it('no bet open after the only bettor left: the minimum raise is the big blind again, not the bet’s raise', () => {
    // Flop, four players: p1 bets $5.00 (a raise of $5.00), then leaves before anyone answers.
    const flop = play(
      started([10_000, 10_000, 10_000, 10_000]),
      ['p3', 'CALL'],
      ['p0', 'CALL'],
      ['p1', 'CALL'],
      ['p2', 'CALL'],
      'advance',
      ['p1', 'RAISE', 500],
    );
    expect(flop.gameState.lastRaiseAmount).toBe(500);
    const room = run(flop, 'p1', { type: 'leave' });
    expect(room.gameState.currentTurnPlayerId).toBe('p2');
    expect(raiseLimits(room, 'p2')).toMatchObject({ min: 200, minRaise: 200, highestBet: 0 });
  });

  it('an all-in raising by one cent makes the minimum raise one cent (lastRaiseAmount above 0)', () => {
    const room = play(started([201, 10_000, 10_000]), ['p0', 'ALL_IN']);
    expect(room.gameState.lastRaiseAmount).toBe(1);
    expect(raiseLimits(room, 'p1')).toMatchObject({ min: 202, minRaise: 1, highestBet: 201 });
  });

  it('a call of one cent moves the cent (blinds $0.01/$0.02)', () => {
    const room = play(started([10_000, 10_000, 10_000], [1, 2]), ['p0', 'CALL'], ['p1', 'CALL']);
    expect(player(room, 'p1')).toMatchObject({ stack: 9_998, currentRoundBet: 2, totalPotContribution: 2 });
    expect(potsOf(room)).toEqual([['main', 6, ['p0', 'p1', 'p2']]]);
  });

  it('FOLD marks the player folded and acted (SPEC section 4)', () => {
    const room = play(even3(), ['p0', 'FOLD']);
    expect(player(room, 'p0')).toMatchObject({ hasFolded: true, hasActedThisRound: true });
  });

  it('acting once the game has ended is refused as ended', () => {
    const ended = run(even3(), 'p0', { type: 'endGame' });
    expect(refuse(ended, 'p1', { type: 'act', action: 'CALL' })).toBe('This game has already ended.');
  });
});
