import { describe, expect, it } from 'vitest';
import { applyCommand } from './commands';
import { createRoom } from './room';
import { deepFreeze, lobby, player, refuse, run, runWithEvents } from './test-helpers';

const base = () =>
  createRoom({ roomCode: 'ABCDE', hostId: 'h', hostName: '  Hana ', startingChips: 5_000, now: 100 });

describe('createRoom', () => {
  it('creates a lobby with the host approved and the default settings', () => {
    const room = base();
    expect(room).toEqual({
      roomCode: 'ABCDE',
      hostId: 'h',
      createdAt: 100,
      lastActivity: 100,
      status: 'LOBBY',
      settings: { smallBlind: 100, bigBlind: 200, maxPlayers: 10, enableRebuys: true },
      players: {
        h: {
          id: 'h',
          name: 'Hana',
          isHost: true,
          isApproved: true,
          status: 'active',
          stack: 5_000,
          totalInvestment: 5_000,
          role: 'PLAYER',
          joinedAt: 100,
          currentRoundBet: 0,
          totalPotContribution: 0,
          hasFolded: false,
          isActive: false,
          isAllIn: false,
          hasActedThisRound: false,
          lastChipUpdate: 100,
        },
      },
      gameState: {
        stage: 'PRE_FLOP',
        dealerId: null,
        currentTurnPlayerId: null,
        handNumber: 0,
        pots: [],
        canAdvanceStage: false,
        nextStage: null,
        nextStageName: null,
        stageProgress: 0,
        lastRaiseAmount: 0,
        autoAdvancedReason: null,
        status: 'LOBBY',
        endedAt: null,
        endedBy: null,
        message: null,
        winnerIds: [],
        dealerSeat: null,
        blinds: null,
        departedContributions: {},
      },
      ledger: [],
      log: [],
      nextEventSeq: 1,
    });
  });

  it.each([
    ['   ', 5_000, 'Please enter your name'],
    ['x'.repeat(21), 5_000, 'Name must be 20 characters or less'],
    ['Hana', 99, 'Starting chips must be at least $1.00'],
    ['Hana', 150.5, 'Starting chips must be at least $1.00'],
    ['Hana', 1_000_001, 'Starting chips cannot be more than $10,000.00'],
  ])('refuses name %j with %d cents: %s', (hostName, startingChips, message) => {
    expect(() => createRoom({ roomCode: 'ABCDE', hostId: 'h', hostName, startingChips, now: 1 })).toThrow(
      message,
    );
  });

  it('accepts exactly $10,000.00 (1,000,000 cents), the most a buy-in may be (SPEC §5, §9)', () => {
    const room = createRoom({
      roomCode: 'X',
      hostId: 'h',
      hostName: 'Hana',
      startingChips: 1_000_000,
      now: 1,
    });
    expect(player(room, 'h')).toMatchObject({ stack: 1_000_000, totalInvestment: 1_000_000 });
    // A joiner's buy-in has the same limit: $10,000.00 is taken, one cent more is refused.
    const joined = run(room, 'a', { type: 'join', name: 'Ann', startingChips: 1_000_000 });
    expect(player(joined, 'a')).toMatchObject({ stack: 1_000_000, totalInvestment: 1_000_000 });
    expect(refuse(room, 'a', { type: 'join', name: 'Ann', startingChips: 1_000_001 })).toBe(
      'Starting chips cannot be more than $10,000.00',
    );
  });

  it('accepts a 20-character name and exactly $1.00', () => {
    const room = createRoom({
      roomCode: 'X',
      hostId: 'h',
      hostName: 'y'.repeat(20),
      startingChips: 100,
      now: 1,
    });
    expect(player(room, 'h').name).toBe('y'.repeat(20));
  });
});

describe('join', () => {
  it('adds a pending player with a trimmed name, logs it and stamps lastActivity', () => {
    const { room, events } = runWithEvents(
      base(),
      'a',
      { type: 'join', name: ' Ann ', startingChips: 2_500 },
      200,
    );
    expect(events).toEqual([{ type: 'playerJoined', playerId: 'a', name: 'Ann', startingChips: 2_500 }]);
    const a = player(room!, 'a');
    expect(a).toMatchObject({
      name: 'Ann',
      isHost: false,
      isApproved: false,
      status: 'waiting_approval',
      stack: 2_500,
      totalInvestment: 2_500,
      joinedAt: 200,
      isActive: false,
    });
    expect(room!.lastActivity).toBe(200);
    expect(room!.log).toEqual([
      {
        type: 'playerJoined',
        playerId: 'a',
        name: 'Ann',
        startingChips: 2_500,
        seq: 1,
        at: 200,
        handNumber: 0,
      },
    ]);
    expect(room!.nextEventSeq).toBe(2);
  });

  it('keeps joinedAt strictly increasing even when the clock stands still or goes back', () => {
    let room = run(base(), 'a', { type: 'join', name: 'Ann', startingChips: 1_000 }, 100);
    room = run(room, 'b', { type: 'join', name: 'Bob', startingChips: 1_000 }, 50);
    expect(player(room, 'a').joinedAt).toBe(101);
    expect(player(room, 'b').joinedAt).toBe(102);
  });

  it('is idempotent for the same user id: same room object, no events', () => {
    const once = run(base(), 'a', { type: 'join', name: 'Ann', startingChips: 1_000 }, 200);
    const res = applyCommand(
      deepFreeze(once),
      'a',
      { type: 'join', name: 'Other', startingChips: 9_000 },
      300,
    );
    expect(res).toEqual({ ok: true, room: once, events: [] });
    if (res.ok) expect(res.room).toBe(once);
  });

  it.each([
    ['', 1_000, 'Please enter your name'],
    ['   ', 1_000, 'Please enter your name'],
    ['123456789012345678901', 1_000, 'Name must be 20 characters or less'],
    ['Ann', 99, 'Starting chips must be at least $1.00'],
    ['Ann', Number.NaN, 'Starting chips must be at least $1.00'],
    ['hANA', 1_000, 'Name already taken. Please choose a different name.'],
    [' hana  ', 1_000, 'Name already taken. Please choose a different name.'],
    // Names that look like Hana or like nothing (regression: each was seated beside Hana or blank).
    ['Hana\u200B', 1_000, 'Name already taken. Please choose a different name.'],
    ['\u202EHana', 1_000, 'Name already taken. Please choose a different name.'],
    ['\uFF28ana', 1_000, 'Name already taken. Please choose a different name.'],
    ['HANA\u200D', 1_000, 'Name already taken. Please choose a different name.'],
    ['\u200B', 1_000, 'Please enter your name'],
    ['\u3164', 1_000, 'Please enter your name'],
    ['\u202E', 1_000, 'Please enter your name'],
    ['\u200D\u200C', 1_000, 'Please enter your name'],
    ['\u0000\u0001', 1_000, 'Please enter your name'],
    // More that look like Hana or like nothing (regression, session 33 security audit).
    ['Hana\u034F', 1_000, 'Name already taken. Please choose a different name.'],
    ['Hana\uFE0F', 1_000, 'Name already taken. Please choose a different name.'],
    ['Hana\u{E0100}', 1_000, 'Name already taken. Please choose a different name.'],
    ['Hana\u17B4', 1_000, 'Name already taken. Please choose a different name.'],
    ['\u2800', 1_000, 'Please enter your name'],
    ['\u034F', 1_000, 'Please enter your name'],
    ['\u2028\u2029', 1_000, 'Please enter your name'],
  ])('refuses %j with %d cents: %s', (name, startingChips, message) => {
    expect(refuse(base(), 'a', { type: 'join', name, startingChips })).toBe(message);
  });

  it('keeps an emoji name whole, and no line separator (a name cannot break the shared results into lines)', () => {
    const room = run(base(), 'a', { type: 'join', name: 'Al \u2764\uFE0F', startingChips: 1_000 });
    expect(room.players.a!.name).toBe('Al \u2764\uFE0F');
    const b = run(base(), 'b', { type: 'join', name: 'A\u2028Cat owes A $5', startingChips: 1_000 });
    expect(b.players.b!.name).toBe('ACat owes A $5');
  });

  it('refuses when the players (pending included) reach maxPlayers', () => {
    let room = base();
    for (let i = 1; i < 10; i++)
      room = run(room, `u${i}`, { type: 'join', name: `U${i}`, startingChips: 100 });
    expect(Object.keys(room.players)).toHaveLength(10);
    expect(refuse(room, 'late', { type: 'join', name: 'Late', startingChips: 100 })).toBe('Room is full.');
    // A full room is said before a taken name (SPEC section 5's order; regression).
    expect(refuse(room, 'late', { type: 'join', name: 'u3', startingChips: 100 })).toBe('Room is full.');
  });

  it('keeps names without the characters that show nothing, in composed form', () => {
    const accent = run(base(), 'a', { type: 'join', name: 'Rene\u0301\u0000', startingChips: 1_000 });
    expect(player(accent, 'a').name).toBe('Ren\u00E9');
    // Typed with the accent apart or composed, it is the same name.
    expect(refuse(accent, 'b', { type: 'join', name: 'REN\u00C9', startingChips: 1_000 })).toBe(
      'Name already taken. Please choose a different name.',
    );
    // The joiners that Persian names need stay.
    const persian = run(base(), 'c', {
      type: 'join',
      name: '\u0645\u06CC\u200C\u0631\u0648\u062F',
      startingChips: 1_000,
    });
    expect(player(persian, 'c').name).toBe('\u0645\u06CC\u200C\u0631\u0648\u062F');
  });

  it('the host name is kept the same way', () => {
    const room = createRoom({
      roomCode: 'ABCDE',
      hostId: 'h',
      hostName: '\u202EHana\u200B ',
      startingChips: 100,
      now: 1,
    });
    expect(player(room, 'h').name).toBe('Hana');
    expect(() =>
      createRoom({ roomCode: 'ABCDE', hostId: 'h', hostName: '\u200B\u3164', startingChips: 100, now: 1 }),
    ).toThrow(new Error('Please enter your name'));
  });

  it('a name cut in the middle of an emoji keeps no half of it (a lone surrogate shows as \uFFFD)', () => {
    // A phone's 20-character limit counts UTF-16 units: '…' + an emoji at units 20-21 arrives cut in two.
    const cut = 'Bobbybobbybobbybobb\u{1F600}'.slice(0, 20);
    const room = createRoom({ roomCode: 'ABCDE', hostId: 'h', hostName: cut, startingChips: 100, now: 1 });
    expect(player(room, 'h').name).toBe('Bobbybobbybobbybobb');
    const joined = run(room, 'g', { type: 'join', name: 'Cal\uDE00\u{1F600}', startingChips: 100 });
    expect(player(joined, 'g').name).toBe('Cal\u{1F600}');
    expect(() =>
      createRoom({ roomCode: 'ABCDE', hostId: 'h', hostName: '\uD83D', startingChips: 100, now: 1 }),
    ).toThrow(new Error('Please enter your name'));
  });

  it('refuses joining an ended game', () => {
    let room = lobby([1_000, 1_000]);
    room = run(room, 'p0', { type: 'startGame' });
    room = run(room, 'p0', { type: 'endGame' });
    expect(refuse(room, 'x', { type: 'join', name: 'Xavier', startingChips: 1_000 })).toBe(
      'This game has already ended.',
    );
  });

  it('lets a player join during play; once approved they sit out the hand in progress', () => {
    let room = run(lobby([1_000, 1_000]), 'p0', { type: 'startGame' });
    room = run(room, 'late', { type: 'join', name: 'Late', startingChips: 1_000 });
    room = run(room, 'p0', { type: 'approve', playerId: 'late' });
    expect(player(room, 'late')).toMatchObject({ isApproved: true, status: 'active', isActive: false });
    expect(room.gameState.currentTurnPlayerId).not.toBe('late');
  });
});

describe('approve', () => {
  const withAnn = () => run(base(), 'a', { type: 'join', name: 'Ann', startingChips: 1_000 });

  it('approves a pending player', () => {
    const { room, events } = runWithEvents(withAnn(), 'h', { type: 'approve', playerId: 'a' });
    expect(player(room!, 'a')).toMatchObject({ isApproved: true, status: 'active' });
    expect(events).toEqual([{ type: 'playerApproved', playerId: 'a', name: 'Ann' }]);
  });

  it('is host-only and needs an existing player', () => {
    expect(refuse(withAnn(), 'a', { type: 'approve', playerId: 'a' })).toBe(
      'Only the host can approve players',
    );
    expect(refuse(withAnn(), 'h', { type: 'approve', playerId: 'zz' })).toBe('Selected player not found');
  });

  it('approving a player still waiting when the game ended is refused and changes nothing (mutation testing)', () => {
    // Ann asks to join during the game; the host ends it before approving her.
    let room = run(lobby([1_000, 1_000]), 'p0', { type: 'startGame' });
    room = run(room, 'a', { type: 'join', name: 'Ann', startingChips: 1_000 });
    room = run(room, 'p0', { type: 'endGame' });
    expect(room.status).toBe('ENDED');
    expect(player(room, 'a')).toMatchObject({ isApproved: false, status: 'waiting_approval' });
    const res = applyCommand(deepFreeze(room), 'p0', { type: 'approve', playerId: 'a' }, 5_000);
    expect(res).toEqual({ ok: false, error: 'This game has already ended.' });
  });

  it('approving twice changes nothing', () => {
    const once = run(withAnn(), 'h', { type: 'approve', playerId: 'a' });
    const res = applyCommand(deepFreeze(once), 'h', { type: 'approve', playerId: 'a' }, 5_000);
    expect(res.ok && res.room).toBe(once);
  });
});

describe('remove', () => {
  const withAnn = () => run(base(), 'a', { type: 'join', name: 'Ann', startingChips: 1_000 });

  it('denies a pending player', () => {
    const { room, events } = runWithEvents(withAnn(), 'h', { type: 'remove', playerId: 'a' });
    expect(Object.keys(room!.players)).toEqual(['h']);
    expect(events).toEqual([{ type: 'playerRemoved', playerId: 'a', name: 'Ann', wasApproved: false }]);
    expect(room!.ledger).toEqual([]);
  });

  it('removes an approved player before the start without a ledger entry', () => {
    const approved = run(withAnn(), 'h', { type: 'approve', playerId: 'a' });
    const { room, events } = runWithEvents(approved, 'h', { type: 'remove', playerId: 'a' });
    expect(Object.keys(room!.players)).toEqual(['h']);
    expect(events).toEqual([{ type: 'playerRemoved', playerId: 'a', name: 'Ann', wasApproved: true }]);
    expect(room!.ledger).toEqual([]);
  });

  it('is host-only, needs an existing player and never removes the host', () => {
    expect(refuse(withAnn(), 'a', { type: 'remove', playerId: 'h' })).toBe(
      'Only the host can remove players',
    );
    expect(refuse(withAnn(), 'h', { type: 'remove', playerId: 'zz' })).toBe('Selected player not found');
    expect(refuse(withAnn(), 'h', { type: 'remove', playerId: 'h' })).toBe(
      'The host cannot remove themself. Use End Game instead.',
    );
  });
});

describe('updateSettings', () => {
  it('stores new blinds in cents', () => {
    const { room, events } = runWithEvents(base(), 'h', {
      type: 'updateSettings',
      smallBlind: 25,
      bigBlind: 50,
    });
    expect(room!.settings).toEqual({ smallBlind: 25, bigBlind: 50, maxPlayers: 10, enableRebuys: true });
    expect(events).toEqual([{ type: 'settingsUpdated', smallBlind: 25, bigBlind: 50 }]);
  });

  it('allows equal blinds', () => {
    expect(run(base(), 'h', { type: 'updateSettings', smallBlind: 50, bigBlind: 50 }).settings.bigBlind).toBe(
      50,
    );
  });

  it.each([
    [0, 200, 'Please enter both small and big blind amounts'],
    [100, 0, 'Please enter both small and big blind amounts'],
    [-1, 200, 'Please enter both small and big blind amounts'],
    [1.5, 200, 'Please enter both small and big blind amounts'],
    [Number.NaN, 200, 'Please enter both small and big blind amounts'],
    [300, 200, 'Small blind cannot be more than the big blind'],
  ])('refuses %d / %d: %s', (smallBlind, bigBlind, message) => {
    expect(refuse(base(), 'h', { type: 'updateSettings', smallBlind, bigBlind })).toBe(message);
  });

  it('is host-only', () => {
    const room = run(base(), 'a', { type: 'join', name: 'Ann', startingChips: 1_000 });
    expect(refuse(room, 'a', { type: 'updateSettings', smallBlind: 1, bigBlind: 2 })).toBe(
      'Only the host can update settings',
    );
  });
});

describe('leave in the lobby', () => {
  it('a player just disappears', () => {
    const room = run(base(), 'a', { type: 'join', name: 'Ann', startingChips: 1_000 });
    const { room: out, events } = runWithEvents(room, 'a', { type: 'leave' });
    expect(Object.keys(out!.players)).toEqual(['h']);
    expect(events).toEqual([{ type: 'playerLeft', playerId: 'a', name: 'Ann' }]);
  });

  it('the host leaving deletes the room', () => {
    const res = applyCommand(deepFreeze(base()), 'h', { type: 'leave' }, 500);
    expect(res).toEqual({ ok: true, room: null, events: [{ type: 'roomDeleted' }] });
  });

  it('leaving when not in the room changes nothing', () => {
    const room = deepFreeze(base());
    const res = applyCommand(room, 'nobody', { type: 'leave' }, 500);
    expect(res.ok && res.room).toBe(room);
  });
});

describe('log', () => {
  it('keeps only the last 50 events with increasing seq', () => {
    let room = base();
    for (let i = 0; i < 60; i++)
      room = run(room, 'h', { type: 'updateSettings', smallBlind: 1 + i, bigBlind: 200 }, 1_000 + i);
    expect(room.log).toHaveLength(50);
    expect(room.log[0]).toMatchObject({ seq: 11, at: 1_010, smallBlind: 11 });
    expect(room.log[49]).toMatchObject({ seq: 60, at: 1_059, smallBlind: 60 });
    expect(room.nextEventSeq).toBe(61);
  });

  it('logs an event as its own fields, then seq, at and handNumber, and nothing else', () => {
    const room = run(base(), 'h', { type: 'updateSettings', smallBlind: 7, bigBlind: 14 }, 2_000);
    const [logged] = room.log.slice(-1);
    const expected = {
      type: 'settingsUpdated',
      smallBlind: 7,
      bigBlind: 14,
      seq: 1,
      at: 2_000,
      handNumber: 0,
    };
    // Field order is what JSON.stringify writes, so what the store and the phones read.
    expect(Object.keys(logged!)).toEqual(Object.keys(expected));
    expect(JSON.stringify(logged)).toBe(JSON.stringify(expected));
    expect(logged).toEqual(expected);
    expect({ ...logged }).toEqual(expected);
  });
});
