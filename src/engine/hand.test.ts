import { describe, expect, it } from 'vitest';
import { raiseLimits } from './betting';
import {
  checkedDownThreeWay,
  lobby,
  play,
  player,
  potsOf,
  refuse,
  run,
  runWithEvents,
  stacks,
  started,
} from './test-helpers';
import type { Room } from './types';

const roles = (room: Room) => Object.fromEntries(Object.values(room.players).map((p) => [p.id, p.role]));

describe('startGame', () => {
  it('heads-up: the dealer posts the small blind and acts first pre-flop', () => {
    const { room, events } = runWithEvents(lobby([10_000, 10_000]), 'p0', { type: 'startGame' }, 2_000);
    expect(events).toEqual([
      { type: 'gameStarted' },
      { type: 'handStarted', handNumber: 1, dealerId: 'p0' },
      { type: 'blindPosted', playerId: 'p0', name: 'P0', blind: 'SMALL', amount: 100, allIn: false },
      { type: 'blindPosted', playerId: 'p1', name: 'P1', blind: 'BIG', amount: 200, allIn: false },
    ]);
    expect(room!.status).toBe('PLAYING');
    expect(room!.gameState).toMatchObject({
      status: 'PLAYING',
      stage: 'PRE_FLOP',
      stageProgress: 0,
      handNumber: 1,
      dealerId: 'p0',
      currentTurnPlayerId: 'p0',
      lastRaiseAmount: 0,
      blinds: { smallBlind: 100, bigBlind: 200 },
    });
    expect(roles(room!)).toEqual({ p0: 'DEALER_SMALL_BLIND', p1: 'BIG_BLIND' });
    expect(potsOf(room!)).toEqual([['main', 300, ['p0', 'p1']]]);
    expect(stacks(room!)).toEqual({ p0: 9_900, p1: 9_800 });
    expect(player(room!, 'p0')).toMatchObject({ isActive: true, lastChipUpdate: 2_000 });
  });

  it('heads-up: the big blind acts first after the flop', () => {
    const flop = play(started([10_000, 10_000]), ['p0', 'CALL'], ['p1', 'CALL'], 'advance');
    expect(flop.gameState).toMatchObject({ stage: 'FLOP', stageProgress: 1, currentTurnPlayerId: 'p1' });
  });

  it('3-handed: dealer, small blind, big blind; the dealer acts first pre-flop', () => {
    const room = started([10_000, 10_000, 10_000]);
    expect(roles(room)).toEqual({ p0: 'DEALER', p1: 'SMALL_BLIND', p2: 'BIG_BLIND' });
    expect(room.gameState.currentTurnPlayerId).toBe('p0');
    expect(potsOf(room)).toEqual([['main', 300, ['p0', 'p1', 'p2']]]);
  });

  it('10-handed: the player after the big blind acts first', () => {
    const room = started(Array.from({ length: 10 }, () => 5_000));
    expect(room.gameState.currentTurnPlayerId).toBe('p3');
    expect(roles(room)).toMatchObject({ p0: 'DEALER', p1: 'SMALL_BLIND', p2: 'BIG_BLIND', p3: 'PLAYER' });
    expect(potsOf(room)[0]).toEqual([
      'main',
      300,
      ['p0', 'p1', 'p2', 'p3', 'p4', 'p5', 'p6', 'p7', 'p8', 'p9'],
    ]);
  });

  it('blinds are capped by the stack; a stack equal to the blind is all-in', () => {
    const { room, events } = runWithEvents(lobby([10_000, 100, 150]), 'p0', { type: 'startGame' });
    expect(events.slice(2)).toEqual([
      { type: 'blindPosted', playerId: 'p1', name: 'P1', blind: 'SMALL', amount: 100, allIn: true },
      { type: 'blindPosted', playerId: 'p2', name: 'P2', blind: 'BIG', amount: 150, allIn: true },
    ]);
    // p0 is the only one who can still bet and must at least call 150.
    expect(room!.gameState.currentTurnPlayerId).toBe('p0');
    const called = play(room!, ['p0', 'CALL']);
    expect(called.gameState).toMatchObject({
      stage: 'SHOWDOWN',
      autoAdvancedReason: 'LAST_PLAYER_RESPONDED',
    });
    expect(potsOf(called)).toEqual([
      ['main', 300, ['p0', 'p1', 'p2']],
      ['side-1', 100, ['p0', 'p2']],
    ]);
  });

  it('both blinds all-in: straight to SHOWDOWN, the uncalled part goes back', () => {
    const { room, events } = runWithEvents(lobby([100, 10_000], [100, 200]), 'p0', { type: 'startGame' });
    expect(room!.gameState).toMatchObject({
      stage: 'SHOWDOWN',
      stageProgress: 4,
      currentTurnPlayerId: null,
      autoAdvancedReason: 'BETTING_CAPPED_BY_ALL_IN',
      message: 'Showdown! 2 players remain. Host must declare winner.',
    });
    expect(events.slice(4)).toEqual([
      { type: 'betReturned', playerId: 'p1', name: 'P1', amount: 100 },
      { type: 'stageChanged', stage: 'SHOWDOWN' },
      {
        type: 'showdown',
        playersRemaining: 2,
        message: 'Showdown! 2 players remain. Host must declare winner.',
      },
    ]);
    expect(potsOf(room!)).toEqual([['main', 200, ['p0', 'p1']]]);
    expect(stacks(room!)).toEqual({ p0: 0, p1: 9_900 });
  });

  it('everyone all-in from the blinds: ALL_REMAINING_ALL_IN', () => {
    const room = started([100, 200], [100, 200]);
    expect(room.gameState.autoAdvancedReason).toBe('ALL_REMAINING_ALL_IN');
    expect(potsOf(room)).toEqual([['main', 200, ['p0', 'p1']]]);
    expect(stacks(room)).toEqual({ p0: 0, p1: 100 });
  });

  it('is host-only, lobby-only and needs 2 approved players', () => {
    const solo = lobby([10_000]);
    expect(refuse(solo, 'p0', { type: 'startGame' })).toBe('Need at least 2 players to start the game');
    const pending = run(solo, 'x', { type: 'join', name: 'X', startingChips: 1_000 });
    expect(refuse(pending, 'p0', { type: 'startGame' })).toBe('Need at least 2 players to start the game');
    expect(refuse(lobby([10_000, 10_000]), 'p1', { type: 'startGame' })).toBe(
      'Only the host can update game state',
    );
    expect(refuse(started([10_000, 10_000]), 'p0', { type: 'startGame' })).toBe(
      'The game has already started',
    );
  });
});

describe('round outcomes', () => {
  it('everyone else folds: the last player wins every pot with the spec message', () => {
    const room = play(started([10_000, 10_000, 10_000]), ['p0', 'FOLD']);
    const { room: after, events } = runWithEvents(room, 'p1', { type: 'act', action: 'FOLD' });
    expect(events.slice(1)).toEqual([
      { type: 'betReturned', playerId: 'p2', name: 'P2', amount: 100 },
      {
        type: 'potAwarded',
        potId: 'main',
        amount: 200,
        winners: [{ playerId: 'p2', name: 'P2', amount: 200 }],
        reason: 'FOLD',
        message: 'P2 wins! All other players folded.',
      },
      { type: 'stageChanged', stage: 'SHOWDOWN' },
      { type: 'handCompleted', handNumber: 1 },
    ]);
    expect(after!.gameState).toMatchObject({
      stage: 'SHOWDOWN',
      currentTurnPlayerId: null,
      message: 'P2 wins! All other players folded.',
      winnerIds: ['p2'],
    });
    expect(potsOf(after!)).toEqual([['main', 0, []]]);
    expect(stacks(after!)).toEqual({ p0: 10_000, p1: 9_900, p2: 10_100 });
    expect(player(after!, 'p2')).toMatchObject({ currentRoundBet: 0, totalPotContribution: 0 });
  });

  it('an uncalled bet goes back before the fold win', () => {
    const flop = play(started([10_000, 10_000]), ['p0', 'CALL'], ['p1', 'CALL'], 'advance');
    const bet = play(flop, ['p1', 'RAISE', 1_000]);
    expect(potsOf(bet)).toEqual([['main', 1_400, ['p0', 'p1']]]);
    const { room, events } = runWithEvents(bet, 'p0', { type: 'act', action: 'FOLD' });
    expect(events.slice(1, 3)).toEqual([
      { type: 'betReturned', playerId: 'p1', name: 'P1', amount: 1_000 },
      {
        type: 'potAwarded',
        potId: 'main',
        amount: 400,
        winners: [{ playerId: 'p1', name: 'P1', amount: 400 }],
        reason: 'FOLD',
        message: 'P1 wins! All other players folded.',
      },
    ]);
    expect(stacks(room!)).toEqual({ p0: 9_800, p1: 10_200 });
  });

  it('an all-in bigger than anyone can call: the excess returns at showdown', () => {
    const room = play(started([10_000, 4_000]), ['p0', 'ALL_IN']);
    expect(potsOf(room)).toEqual([
      ['main', 4_200, ['p0', 'p1']],
      ['side-1', 6_000, ['p0']],
    ]);
    const { room: after, events } = runWithEvents(room, 'p1', { type: 'act', action: 'CALL' });
    expect(events[1]).toEqual({ type: 'betReturned', playerId: 'p0', name: 'P0', amount: 6_000 });
    expect(after!.gameState).toMatchObject({ stage: 'SHOWDOWN', autoAdvancedReason: 'ALL_REMAINING_ALL_IN' });
    expect(potsOf(after!)).toEqual([['main', 8_000, ['p0', 'p1']]]);
    expect(player(after!, 'p0')).toMatchObject({ stack: 6_000, isAllIn: false, currentRoundBet: 4_000 });
  });

  it('the only player who can still bet called an all-in: LAST_PLAYER_RESPONDED', () => {
    const room = play(started([5_000, 10_000]), ['p0', 'ALL_IN'], ['p1', 'CALL']);
    expect(room.gameState).toMatchObject({ stage: 'SHOWDOWN', autoAdvancedReason: 'LAST_PLAYER_RESPONDED' });
    expect(potsOf(room)).toEqual([['main', 10_000, ['p0', 'p1']]]);
  });

  it('checks through to the river end in SHOWDOWN without a reason', () => {
    let room = play(started([10_000, 10_000, 10_000]), ['p0', 'CALL'], ['p1', 'CALL'], ['p2', 'CALL']);
    for (const stage of ['FLOP', 'TURN', 'RIVER'] as const) {
      room = play(room, 'advance');
      expect(room.gameState).toMatchObject({ stage, lastRaiseAmount: 0, currentTurnPlayerId: 'p1' });
      expect(player(room, 'p0').currentRoundBet).toBe(0);
      room = play(room, ['p1', 'CALL'], ['p2', 'CALL']);
      if (stage !== 'RIVER') {
        expect(room.gameState.canAdvanceStage).toBe(false);
        room = play(room, ['p0', 'CALL']);
        expect(room.gameState.canAdvanceStage).toBe(true);
      }
    }
    const { room: end, events } = runWithEvents(room, 'p0', { type: 'act', action: 'CALL' });
    expect(end!.gameState).toMatchObject({
      stage: 'SHOWDOWN',
      autoAdvancedReason: null,
      message: 'Showdown! 3 players remain. Host must declare winner.',
    });
    expect(events.map((e) => e.type)).toEqual(['playerActed', 'stageChanged', 'showdown']);
  });

  it('advanceStage is host-only and needs a complete round', () => {
    const room = started([10_000, 10_000, 10_000]);
    expect(refuse(room, 'p0', { type: 'advanceStage' })).toBe('The betting round is not complete yet');
    const done = play(room, ['p0', 'CALL'], ['p1', 'CALL'], ['p2', 'CALL']);
    expect(refuse(done, 'p1', { type: 'advanceStage' })).toBe('Only the host can advance stages');
    const { events } = runWithEvents(done, 'p0', { type: 'advanceStage' });
    expect(events).toEqual([{ type: 'stageChanged', stage: 'FLOP' }]);
  });
});

/** 4-handed: p3 all-in 3000, p0 calls, p1 (SB) folds, p2 (BB) all-in for 1000 in total. */
const sidePots = () =>
  play(
    started([10_000, 10_000, 1_000, 3_000]),
    ['p3', 'ALL_IN'],
    ['p0', 'CALL'],
    ['p1', 'FOLD'],
    ['p2', 'ALL_IN'],
  );

describe('declareWinners', () => {
  it('side pots include folded contributions; a single winner of all pots', () => {
    const room = sidePots();
    expect(room.gameState).toMatchObject({ stage: 'SHOWDOWN', autoAdvancedReason: 'LAST_PLAYER_RESPONDED' });
    expect(potsOf(room)).toEqual([
      ['main', 3_100, ['p0', 'p2', 'p3']],
      ['side-1', 4_000, ['p0', 'p3']],
    ]);
    const { room: after, events } = runWithEvents(room, 'p0', { type: 'declareWinners', winnerIds: ['p3'] });
    expect(events).toEqual([
      {
        type: 'potAwarded',
        potId: 'main',
        amount: 3_100,
        winners: [{ playerId: 'p3', name: 'P3', amount: 3_100 }],
        reason: 'SHOWDOWN',
        message: null,
      },
      {
        type: 'potAwarded',
        potId: 'side-1',
        amount: 4_000,
        winners: [{ playerId: 'p3', name: 'P3', amount: 4_000 }],
        reason: 'SHOWDOWN',
        message: null,
      },
      { type: 'handCompleted', handNumber: 1 },
    ]);
    expect(stacks(after!)).toEqual({ p0: 7_000, p1: 9_900, p2: 0, p3: 7_100 });
    expect(after!.gameState).toMatchObject({
      stage: 'SHOWDOWN',
      winnerIds: ['p3'],
      currentTurnPlayerId: null,
    });
    expect(potsOf(after!)).toEqual([['main', 0, []]]);
  });

  it('once the pots are paid nobody is all-in any more, busted players included (regression)', () => {
    const room = sidePots();
    expect(player(room, 'p2').isAllIn).toBe(true);
    const after = run(room, 'p0', { type: 'declareWinners', winnerIds: ['p3'] });
    expect(player(after, 'p2')).toMatchObject({ stack: 0, isAllIn: false });
    expect(Object.values(after.players).filter((p) => p.isAllIn)).toEqual([]);
  });

  it('winnerIds apply to every pot among the eligible winners named', () => {
    const after = run(sidePots(), 'p0', { type: 'declareWinners', winnerIds: ['p2', 'p3'] });
    // main split p2/p3 (1550 each), side-1 only p3 is eligible among them.
    expect(stacks(after)).toEqual({ p0: 7_000, p1: 9_900, p2: 1_550, p3: 5_550 });
    expect(after.gameState.winnerIds).toEqual(['p2', 'p3']);
  });

  it('a pot with no eligible winner named is refused, naming the pot', () => {
    expect(refuse(sidePots(), 'p0', { type: 'declareWinners', winnerIds: ['p2'] })).toBe(
      'Choose a winner for side-1',
    );
    expect(refuse(sidePots(), 'p0', { type: 'declareWinners', winnerIds: [] })).toBe(
      'Choose a winner for main',
    );
  });

  it('byPot names winners per pot and overrides winnerIds', () => {
    const after = run(sidePots(), 'p0', {
      type: 'declareWinners',
      winnerIds: ['p2'],
      byPot: { 'side-1': ['p0', 'p3'] },
    });
    expect(stacks(after)).toEqual({ p0: 9_000, p1: 9_900, p2: 3_100, p3: 2_000 });
  });

  it('a winner who left the room meanwhile is refused by name, not by id', () => {
    const showdown = checkedDownThreeWay(started([5_000, 5_000, 5_000]));
    expect(showdown.gameState.stage).toBe('SHOWDOWN');
    const left = run(showdown, 'p2', { type: 'leave' });
    expect(left.players.p2).toBeUndefined();
    expect(refuse(left, 'p0', { type: 'declareWinners', winnerIds: ['p2'] })).toBe(
      'Player P2 is not in this hand',
    );
    expect(refuse(left, 'p0', { type: 'declareWinners', winnerIds: [], byPot: { main: ['p1', 'p2'] } })).toBe(
      'Player P2 is not in this hand',
    );
  });

  it('refuses unknown, folded or ineligible winners and unknown pots', () => {
    const room = sidePots();
    expect(refuse(room, 'p0', { type: 'declareWinners', winnerIds: ['p1'] })).toBe(
      'Player P1 is not in this hand',
    );
    expect(refuse(room, 'p0', { type: 'declareWinners', winnerIds: ['zz'] })).toBe(
      'Player zz is not in this hand',
    );
    expect(
      refuse(room, 'p0', { type: 'declareWinners', winnerIds: ['p3'], byPot: { 'side-1': ['p2'] } }),
    ).toBe('P2 is not eligible for side-1');
    expect(
      refuse(room, 'p0', { type: 'declareWinners', winnerIds: ['p3'], byPot: { 'side-9': ['p3'] } }),
    ).toBe('There is no pot side-9');
    expect(refuse(room, 'p3', { type: 'declareWinners', winnerIds: ['p3'] })).toBe(
      'Only the host can update game state',
    );
  });

  it('only at showdown with chips in the pot', () => {
    const room = started([10_000, 10_000]);
    expect(refuse(room, 'p0', { type: 'declareWinners', winnerIds: ['p0'] })).toBe(
      'Winners can only be declared at showdown',
    );
    const won = play(room, ['p0', 'FOLD']);
    expect(refuse(won, 'p0', { type: 'declareWinners', winnerIds: ['p1'] })).toBe('There is no pot to award');
  });

  it('split pot odd cents go one each clockwise from the dealer’s left', () => {
    // Blinds 1/3, 4-handed: p3 and p0 call 3, p1 (SB) folds 1, p2 checks: pot 10.
    let room = play(started([10_000, 10_000, 10_000, 10_000], [1, 3]), ['p3', 'CALL'], ['p0', 'CALL']);
    room = play(room, ['p1', 'FOLD'], ['p2', 'CALL']);
    room = play(room, 'advance', ['p2', 'CALL'], ['p3', 'CALL'], ['p0', 'CALL']);
    room = play(room, 'advance', ['p2', 'CALL'], ['p3', 'CALL'], ['p0', 'CALL']);
    room = play(room, 'advance', ['p2', 'CALL'], ['p3', 'CALL'], ['p0', 'CALL']);
    expect(potsOf(room)).toEqual([['main', 10, ['p0', 'p2', 'p3']]]);
    const { room: after, events } = runWithEvents(room, 'p0', {
      type: 'declareWinners',
      winnerIds: ['p0', 'p3', 'p2'],
    });
    // Dealer p0: order p1 (folded), p2, p3, then p0 last.
    expect(events[0]).toMatchObject({
      winners: [
        { playerId: 'p2', amount: 4 },
        { playerId: 'p3', amount: 3 },
        { playerId: 'p0', amount: 3 },
      ],
    });
    expect(stacks(after!)).toEqual({ p0: 10_000, p1: 9_999, p2: 10_001, p3: 10_000 });
  });

  it('a pot smaller than the winners named: a winner whose share is 0 cents wins nothing and is no winner', () => {
    // Blinds of one cent; both blinds leave before anyone acts, their cents dead money: a 2-cent pot
    // for p3, p4 and p0, checked down. Before the fix p0 was "awarded" $0.00 and listed as a winner.
    let room = started([1_000, 1_000, 1_000, 1_000, 1_000], [1, 1]);
    room = run(room, 'p1', { type: 'leave' });
    room = run(room, 'p2', { type: 'leave' });
    expect(potsOf(room)).toEqual([['main', 2, ['p0', 'p3', 'p4']]]);
    room = play(room, ['p3', 'CALL'], ['p4', 'CALL'], ['p0', 'CALL']);
    for (let street = 0; street < 3; street++)
      room = play(room, 'advance', ['p3', 'CALL'], ['p4', 'CALL'], ['p0', 'CALL']);
    expect(room.gameState.stage).toBe('SHOWDOWN');
    const { room: after, events } = runWithEvents(room, 'p0', {
      type: 'declareWinners',
      winnerIds: ['p0', 'p3', 'p4'],
    });
    expect(events.filter((e) => e.type === 'potAwarded')).toEqual([
      {
        type: 'potAwarded',
        potId: 'main',
        amount: 2,
        winners: [
          { playerId: 'p3', name: 'P3', amount: 1 },
          { playerId: 'p4', name: 'P4', amount: 1 },
        ],
        reason: 'SHOWDOWN',
        message: null,
      },
    ]);
    expect(after!.gameState.winnerIds).toEqual(['p3', 'p4']);
    expect(stacks(after!)).toEqual({ p0: 1_000, p3: 1_001, p4: 1_001 });
    expect(player(after!, 'p0').lastChipUpdate).toBe(player(room, 'p0').lastChipUpdate);
  });

  it('the odd cent goes to the first winner left of the dealer, wherever the button is', () => {
    // Hand 1, dealer p0: p0 and p1 put in 3 each, p2 folds its big blind of 3: pot 9.
    let room = play(
      started([10_000, 10_000, 10_000], [1, 3]),
      ['p0', 'CALL'],
      ['p1', 'CALL'],
      ['p2', 'FOLD'],
    );
    for (let street = 0; street < 3; street++) room = play(room, 'advance', ['p1', 'CALL'], ['p0', 'CALL']);
    expect(potsOf(room)).toEqual([['main', 9, ['p0', 'p1']]]);
    room = run(room, 'p0', { type: 'declareWinners', winnerIds: ['p0', 'p1'] });
    expect(stacks(room)).toEqual({ p0: 10_001, p1: 10_002, p2: 9_997 });
    // Hand 2, dealer p1 (p2 small blind, p0 big blind): p0 folds, p1 and p2 split 9.
    room = run(room, 'p0', { type: 'newHand' });
    room = play(room, ['p1', 'CALL'], ['p2', 'CALL'], ['p0', 'FOLD']);
    for (let street = 0; street < 3; street++) room = play(room, 'advance', ['p2', 'CALL'], ['p1', 'CALL']);
    room = run(room, 'p0', { type: 'declareWinners', winnerIds: ['p1', 'p2'] });
    expect(stacks(room)).toEqual({ p0: 9_998, p1: 10_003, p2: 9_999 });
  });
});

describe('newHand', () => {
  const finished = () => play(started([10_000, 10_000, 10_000]), ['p0', 'FOLD'], ['p1', 'FOLD']);

  it('moves the button, posts blinds again and increases the hand number', () => {
    const { room, events } = runWithEvents(finished(), 'p0', { type: 'newHand' });
    expect(events.slice(0, 1)).toEqual([{ type: 'handStarted', handNumber: 2, dealerId: 'p1' }]);
    expect(roles(room!)).toEqual({ p0: 'BIG_BLIND', p1: 'DEALER', p2: 'SMALL_BLIND' });
    expect(room!.gameState).toMatchObject({
      stage: 'PRE_FLOP',
      handNumber: 2,
      currentTurnPlayerId: 'p1',
      winnerIds: [],
      message: null,
    });
    expect(stacks(room!)).toEqual({ p0: 9_800, p1: 9_900, p2: 10_000 });
    for (const p of Object.values(room!.players)) expect(p.hasFolded).toBe(false);
  });

  it('is refused mid-hand, before the winner is declared, twice in a row and for non-hosts', () => {
    expect(refuse(started([10_000, 10_000]), 'p0', { type: 'newHand' })).toBe(
      'A new hand can only start after the showdown',
    );
    expect(refuse(sidePots(), 'p0', { type: 'newHand' })).toBe(
      'Declare the winner before starting a new hand',
    );
    const again = run(finished(), 'p0', { type: 'newHand' });
    expect(refuse(again, 'p0', { type: 'newHand' })).toBe('A new hand can only start after the showdown');
    expect(refuse(finished(), 'p1', { type: 'newHand' })).toBe('Only the host can update game state');
  });

  it('needs two players with chips', () => {
    const busted = run(play(started([10_000, 1_000]), ['p0', 'ALL_IN'], ['p1', 'CALL']), 'p0', {
      type: 'declareWinners',
      winnerIds: ['p0'],
    });
    expect(stacks(busted)).toEqual({ p0: 11_000, p1: 0 });
    expect(refuse(busted, 'p0', { type: 'newHand' })).toBe(
      'Need at least 2 players with chips to assign roles',
    );
  });

  it('the button skips chipless players, who sit out', () => {
    // p1 busts in hand 1; hand 2's button moves from p0 past p1 to p2.
    let room = play(
      started([10_000, 1_000, 10_000, 10_000]),
      ['p3', 'FOLD'],
      ['p0', 'FOLD'],
      ['p1', 'ALL_IN'],
    );
    room = play(room, ['p2', 'CALL']);
    room = run(room, 'p0', { type: 'declareWinners', winnerIds: ['p2'] });
    expect(player(room, 'p1').stack).toBe(0);
    room = run(room, 'p0', { type: 'newHand' });
    expect(roles(room)).toEqual({ p0: 'BIG_BLIND', p1: 'PLAYER', p2: 'DEALER', p3: 'SMALL_BLIND' });
    expect(player(room, 'p1').isActive).toBe(false);
    expect(room.gameState.currentTurnPlayerId).toBe('p2');
    // Hand 3: the button moves on to p3; p1 is still skipped.
    room = run(play(room, ['p2', 'FOLD'], ['p3', 'FOLD']), 'p0', { type: 'newHand' });
    expect(roles(room)).toEqual({ p0: 'SMALL_BLIND', p1: 'PLAYER', p2: 'BIG_BLIND', p3: 'DEALER' });
  });

  it('when the previous dealer is chipless the next funded player clockwise takes the button', () => {
    let room = play(started([1_000, 10_000, 10_000]), ['p0', 'ALL_IN'], ['p1', 'FOLD'], ['p2', 'CALL']);
    room = run(room, 'p0', { type: 'declareWinners', winnerIds: ['p2'] });
    room = run(room, 'p0', { type: 'newHand' });
    expect(roles(room)).toEqual({ p0: 'PLAYER', p1: 'DEALER_SMALL_BLIND', p2: 'BIG_BLIND' });
  });

  it('the button goes round a 10-handed table', () => {
    let room = started(Array.from({ length: 10 }, () => 5_000));
    const dealers: string[] = [room.gameState.dealerId as string];
    for (let hand = 2; hand <= 11; hand++) {
      while (room.gameState.stage !== 'SHOWDOWN')
        room = play(room, [room.gameState.currentTurnPlayerId as string, 'FOLD']);
      room = run(room, 'p0', { type: 'newHand' });
      dealers.push(room.gameState.dealerId as string);
    }
    expect(dealers).toEqual(['p0', 'p1', 'p2', 'p3', 'p4', 'p5', 'p6', 'p7', 'p8', 'p9', 'p0']);
  });

  it('new blinds apply from the next hand', () => {
    let room = run(started([10_000, 10_000, 10_000]), 'p0', {
      type: 'updateSettings',
      smallBlind: 500,
      bigBlind: 1_000,
    });
    expect(room.gameState.blinds).toEqual({ smallBlind: 100, bigBlind: 200 });
    expect(room.gameState.pots[0]?.amount).toBe(300);
    room = play(room, ['p0', 'RAISE', 400]); // min raise is still the old big blind
    room = run(play(room, ['p1', 'FOLD'], ['p2', 'FOLD']), 'p0', { type: 'newHand' });
    expect(room.gameState.blinds).toEqual({ smallBlind: 500, bigBlind: 1_000 });
    expect(potsOf(room)).toEqual([['main', 1_500, ['p0', 'p1', 'p2']]]);
  });
});

describe('hand rules a mutant survived (mutation testing)', () => {
  it('the stage advance clears every round bet (an all-in big blind’s too), the advance flags and the last raise', () => {
    // p2 is all-in from posting the big blind and never acts; p0 raises to $6.00, p1 calls.
    const room = play(started([10_000, 10_000, 200]), ['p0', 'RAISE', 600], ['p1', 'CALL']);
    expect(room.gameState).toMatchObject({ canAdvanceStage: true, nextStage: 'FLOP', nextStageName: 'Flop' });
    expect(room.gameState.lastRaiseAmount).toBe(400);
    const flop = play(room, 'advance');
    expect(player(flop, 'p2')).toMatchObject({ currentRoundBet: 0, isAllIn: true, hasActedThisRound: false });
    expect(flop.gameState).toMatchObject({
      stage: 'FLOP',
      canAdvanceStage: false,
      nextStage: null,
      nextStageName: null,
      lastRaiseAmount: 0,
      currentTurnPlayerId: 'p1',
    });
  });

  it('a new hand starts with no last raise and no showdown reason from the hand before', () => {
    const raised = play(
      started([10_000, 10_000, 10_000]),
      ['p0', 'RAISE', 600],
      ['p1', 'FOLD'],
      ['p2', 'FOLD'],
    );
    expect(raised.gameState.lastRaiseAmount).toBe(400);
    const next = run(raised, 'p0', { type: 'newHand' });
    expect(next.gameState.lastRaiseAmount).toBe(0);
    expect(raiseLimits(next, 'p1')).toMatchObject({ min: 400, minRaise: 200, highestBet: 200 });

    const allIn = play(started([10_000, 5_000]), ['p0', 'ALL_IN'], ['p1', 'CALL']);
    expect(allIn.gameState.autoAdvancedReason).toBe('ALL_REMAINING_ALL_IN');
    const paid = run(allIn, 'p0', { type: 'declareWinners', winnerIds: ['p1'] });
    expect(run(paid, 'p0', { type: 'newHand' }).gameState.autoAdvancedReason).toBeNull();
  });

  it('a pot only one player can win goes to them though the host named only the short all-in', () => {
    // p2 (big blind) all-in for $3.00; p3 and p1 in for $6.00; on the flop p1 bets $10.00 and p3 folds:
    // main $9.00 (p1, p2), side-1 $6.00 (p1 alone; p3's folded chips), p1's $10.00 back.
    const room = play(
      started([10_000, 10_000, 300, 10_000]),
      ['p3', 'RAISE', 600],
      ['p0', 'FOLD'],
      ['p1', 'CALL'],
      ['p2', 'ALL_IN'],
      'advance',
      ['p1', 'RAISE', 1_000],
      ['p3', 'FOLD'],
    );
    expect(room.gameState.stage).toBe('SHOWDOWN');
    expect(potsOf(room)).toEqual([
      ['main', 900, ['p1', 'p2']],
      ['side-1', 600, ['p1']],
    ]);
    const { room: out, events } = runWithEvents(room, 'p0', { type: 'declareWinners', winnerIds: ['p2'] });
    expect(events.filter((e) => e.type === 'potAwarded').map((e) => [e.potId, e.winners])).toEqual([
      ['main', [{ playerId: 'p2', name: 'P2', amount: 900 }]],
      ['side-1', [{ playerId: 'p1', name: 'P1', amount: 600 }]],
    ]);
    expect(stacks(out!)).toMatchObject({ p1: 10_000, p2: 900 });
  });

  it('after the award: no message, one empty main pot, and a second award is refused', () => {
    const room = run(checkedDownThreeWay(started([10_000, 10_000, 10_000])), 'p0', {
      type: 'declareWinners',
      winnerIds: ['p1'],
    });
    expect(room.gameState.message).toBeNull();
    expect(room.gameState.pots).toEqual([{ id: 'main', amount: 0, eligiblePlayers: [], isMainPot: true }]);
    expect(refuse(room, 'p0', { type: 'declareWinners', winnerIds: ['p1'] })).toBe(
      'There is no pot to award',
    );
  });

  it('winner ids that are not a list are an unknown command', () => {
    const room = checkedDownThreeWay(started([10_000, 10_000, 10_000]));
    expect(refuse(room, 'p0', { type: 'declareWinners', winnerIds: 'p1' as unknown as string[] })).toBe(
      'Unknown command',
    );
  });

  it('a folded player leaving after a fold win: nothing is won again', () => {
    const won = play(started([10_000, 10_000, 10_000]), ['p0', 'FOLD'], ['p1', 'FOLD']);
    const { room, events } = runWithEvents(won, 'p1', { type: 'leave' });
    expect(events.map((e) => e.type)).toEqual(['playerLeft']);
    expect(room!.gameState.message).toBe(won.gameState.message);
    expect(room!.gameState.pots).toEqual(won.gameState.pots);
  });

  it('a player leaving while the host is to deal the next stage leaves the pot’s contenders', () => {
    const room = play(started([10_000, 10_000, 10_000]), ['p0', 'CALL'], ['p1', 'CALL'], ['p2', 'CALL']);
    expect(room.gameState.canAdvanceStage).toBe(true);
    expect(potsOf(run(room, 'p1', { type: 'leave' }))).toEqual([['main', 600, ['p0', 'p2']]]);
  });

  it('the last contender of an all-in showdown wins it as the others leave: the all-in reason goes', () => {
    const showdown = play(
      started([10_000, 10_000, 10_000]),
      ['p0', 'ALL_IN'],
      ['p1', 'CALL'],
      ['p2', 'CALL'],
    );
    expect(showdown.gameState.autoAdvancedReason).toBe('ALL_REMAINING_ALL_IN');
    const room = run(run(showdown, 'p1', { type: 'leave' }), 'p2', { type: 'leave' });
    expect(room.gameState.autoAdvancedReason).toBeNull();
    expect(player(room, 'p0').finalChips).toBe(30_000);
  });

  it('a fold win clears a one-cent contribution too: ending the game then returns nothing more', () => {
    const won = play(started([10_000, 10_000, 10_000], [1, 2]), ['p0', 'FOLD'], ['p1', 'FOLD']);
    expect(player(won, 'p1')).toMatchObject({ stack: 9_999, totalPotContribution: 0 });
    expect(player(run(won, 'p0', { type: 'endGame' }), 'p1').finalChips).toBe(9_999);
  });

  it('two players with chips, one sitting out: New Hand says who is missing', () => {
    const won = play(started([10_000, 10_000]), ['p0', 'FOLD']);
    const away = run(won, 'p1', { type: 'sitOut', away: true });
    expect(refuse(away, 'p0', { type: 'newHand' })).toBe(
      'Need at least 2 players with chips who are not sitting out',
    );
  });
});

describe('hand rules a mutant survived, second pass (mutation testing)', () => {
  it('split pot: the odd cent goes to the winner just after the dealer before one seated before the dealer (wrap-around)', () => {
    // SPEC §4: leftover chips go one each to the winners in order of position from the dealer,
    // nearest first. Hand 1 (dealer p0): p0 and p1 fold, p2 takes the blinds.
    let room = play(started([10_000, 10_000, 10_000]), ['p0', 'FOLD'], ['p1', 'FOLD']);
    expect(stacks(room)).toEqual({ p0: 10_000, p1: 9_900, p2: 10_100 });
    // Hand 2: dealer p1, p2 small blind, p0 big blind. p1 raises to $4.01, both call; p1 folds on the
    // flop and p2 and p0 check it down: 3 x 401 = 1,203 cents for p0 and p2.
    room = run(room, 'p0', { type: 'newHand' });
    expect(room.gameState.dealerId).toBe('p1');
    room = play(room, ['p1', 'RAISE', 401], ['p2', 'CALL'], ['p0', 'CALL']);
    room = play(room, 'advance', ['p2', 'CALL'], ['p0', 'CALL'], ['p1', 'FOLD']);
    for (let street = 0; street < 2; street++) room = play(room, 'advance', ['p2', 'CALL'], ['p0', 'CALL']);
    expect(room.gameState.stage).toBe('SHOWDOWN');
    expect(potsOf(room)).toEqual([['main', 1_203, ['p0', 'p2']]]);
    const { room: after, events } = runWithEvents(room, 'p0', {
      type: 'declareWinners',
      winnerIds: ['p0', 'p2'],
    });
    // Clockwise from the dealer p1: p2 (nearest), then p0 (round the table): p2 gets the odd cent.
    expect(events.filter((e) => e.type === 'potAwarded').map((e) => e.winners)).toEqual([
      [
        { playerId: 'p2', name: 'P2', amount: 602 },
        { playerId: 'p0', name: 'P0', amount: 601 },
      ],
    ]);
    expect(after!.gameState.winnerIds).toEqual(['p2', 'p0']);
    expect(stacks(after!)).toEqual({ p0: 10_200, p1: 9_499, p2: 10_301 });
  });

  it('a one-cent uncalled bet comes back: the player has 1 cent behind and is no longer all-in', () => {
    // Heads-up: p0 shoves $10.01, p1 calls all-in for $10.00. The cent nobody could call goes back.
    const room = play(started([1_001, 1_000]), ['p0', 'ALL_IN'], ['p1', 'CALL']);
    expect(room.gameState.stage).toBe('SHOWDOWN');
    expect(player(room, 'p0')).toMatchObject({
      stack: 1,
      totalPotContribution: 1_000,
      currentRoundBet: 1_000,
      isAllIn: false,
    });
    expect(player(room, 'p1')).toMatchObject({ stack: 0, isAllIn: true });
    expect(potsOf(room)).toEqual([['main', 2_000, ['p0', 'p1']]]);
  });

  it('a bet nobody could call comes back whole: the round bet shown is 0, not what was returned', () => {
    // p2 is all-in for $5.00 pre-flop (p0 and p1 call). On the flop p1 bets $10.00 and p0 folds: only
    // p2 (all-in) is left against p1, so the $10.00 goes back to p1 and the hand is at the showdown.
    const room = play(
      started([10_000, 10_000, 500]),
      ['p0', 'CALL'],
      ['p1', 'CALL'],
      ['p2', 'ALL_IN'],
      ['p0', 'CALL'],
      ['p1', 'CALL'],
      'advance',
      ['p1', 'RAISE', 1_000],
      ['p0', 'FOLD'],
    );
    expect(room.gameState.stage).toBe('SHOWDOWN');
    expect(player(room, 'p1')).toMatchObject({ stack: 9_500, totalPotContribution: 500, currentRoundBet: 0 });
    expect(potsOf(room)).toEqual([['main', 1_500, ['p1', 'p2']]]);
  });

  it('New Hand with one funded player and another on 1 cent sitting out: the 1 cent counts as chips', () => {
    // Heads-up: p1 calls p0's raise to $10.00 with all but 1 cent, then folds on the flop.
    let room = play(started([10_000, 1_001]), ['p0', 'RAISE', 1_000], ['p1', 'CALL'], 'advance', [
      'p1',
      'FOLD',
    ]);
    expect(stacks(room)).toEqual({ p0: 11_000, p1: 1 });
    room = run(room, 'p1', { type: 'sitOut', away: true });
    // Two players have chips; one is sitting out: the message says so (not "with chips").
    expect(refuse(room, 'p0', { type: 'newHand' })).toBe(
      'Need at least 2 players with chips who are not sitting out',
    );
  });

  it('a small blind all-in for 1 cent: the stage advance clears its 1-cent round bet', () => {
    // Hand 1: p2 (big blind) calls p0's raise to $10.00 with all but 1 cent, then folds on the flop.
    let room = play(
      started([10_000, 10_000, 1_001]),
      ['p0', 'RAISE', 1_000],
      ['p1', 'FOLD'],
      ['p2', 'CALL'],
      'advance',
      ['p2', 'FOLD'],
    );
    expect(stacks(room)).toEqual({ p0: 11_100, p1: 9_900, p2: 1 });
    // Hand 2: dealer p1, p2 posts the small blind capped at its 1 cent (all-in, never acts), p0 the
    // big blind. p1 calls, p0 checks: the round is over.
    room = play(run(room, 'p0', { type: 'newHand' }), ['p1', 'CALL'], ['p0', 'CALL']);
    expect(player(room, 'p2')).toMatchObject({
      role: 'SMALL_BLIND',
      stack: 0,
      currentRoundBet: 1,
      isAllIn: true,
      hasActedThisRound: false,
    });
    const flop = play(room, 'advance');
    expect(flop.gameState.stage).toBe('FLOP');
    expect(player(flop, 'p2')).toMatchObject({ currentRoundBet: 0, totalPotContribution: 1, isAllIn: true });
    expect(potsOf(flop)).toEqual([
      ['main', 3, ['p0', 'p1', 'p2']],
      ['side-1', 398, ['p0', 'p1']],
    ]);
  });

  it('the end of a hand clears a folded 1-cent small blind from an earlier street: End Game returns nothing more', () => {
    // Blinds $0.01/$0.02: p1 folds its small blind pre-flop; on the flop p2 bets and p0 folds.
    const won = play(
      started([10_000, 10_000, 10_000], [1, 2]),
      ['p0', 'CALL'],
      ['p1', 'FOLD'],
      ['p2', 'CALL'],
      'advance',
      ['p2', 'RAISE', 2],
      ['p0', 'FOLD'],
    );
    expect(won.gameState.stage).toBe('SHOWDOWN');
    expect(stacks(won)).toEqual({ p0: 9_998, p1: 9_999, p2: 10_003 });
    expect(player(won, 'p1')).toMatchObject({ totalPotContribution: 0, currentRoundBet: 0 });
    const ended = run(won, 'p0', { type: 'endGame' });
    expect(Object.values(ended.players).map((p) => [p.id, p.finalChips])).toEqual([
      ['p0', 9_998],
      ['p1', 9_999],
      ['p2', 10_003],
    ]);
  });
});
