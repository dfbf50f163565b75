import { describe, expect, it } from 'vitest';
import {
  checkedDownThreeWay,
  lobby,
  play,
  player,
  refuse,
  run,
  runWithEvents,
  started,
} from './test-helpers';
import type { Command, Room } from './types';
import { takenBack } from './undo';

/** What an undo must put back: everything but the log, its seq, lastActivity and the undo point. */
const state = (room: Room) => ({
  status: room.status,
  settings: room.settings,
  players: room.players,
  gameState: room.gameState,
  ledger: room.ledger,
});

const undo = (room: Room, actor = room.hostId, now = 9_000) =>
  run(room, actor, { type: 'undo', seq: room.undo?.seq ?? -1 }, now);

describe('undo', () => {
  it('takes back a raise to the cent: stack, round bet, pot and turn, and says so in the log', () => {
    const before = started([10_000, 10_000, 10_000]);
    const raised = play(before, ['p0', 'RAISE', 650]);
    expect(player(raised, 'p0').stack).toBe(9_350);
    expect(raised.undo).toMatchObject({
      seq: before.nextEventSeq,
      first: { type: 'playerActed', playerId: 'p0', action: 'RAISE', amount: 650, totalBet: 650 },
    });
    const { room: back, events } = runWithEvents(
      raised,
      'p0',
      { type: 'undo', seq: before.nextEventSeq },
      9_000,
    );
    expect(state(back!)).toEqual(state(before));
    expect(player(back!, 'p0')).toMatchObject({
      stack: 10_000,
      currentRoundBet: 0,
      hasActedThisRound: false,
    });
    expect(back!.gameState.currentTurnPlayerId).toBe('p0');
    expect(events).toEqual([{ type: 'undone', undoneSeq: before.nextEventSeq, first: raised.undo!.first }]);
    expect(back!.log.at(-1)).toMatchObject({
      type: 'undone',
      undoneSeq: before.nextEventSeq,
      seq: raised.nextEventSeq,
      at: 9_000,
      handNumber: 1,
    });
    expect(back!.nextEventSeq).toBe(raised.nextEventSeq + 1);
    expect(back!.lastActivity).toBe(9_000);
    expect(back!.undo).toBeNull();
    // The hand goes on from there: p0 can act again, differently.
    expect(player(play(back!, ['p0', 'CALL']), 'p0').stack).toBe(9_800);
  });

  const showdown = () => checkedDownThreeWay(started([10_000, 10_000, 10_000]));
  const cases: Array<[string, () => Room, string, Command]> = [
    [
      'a fold that wins the hand',
      () => play(started([10_000, 10_000]), ['p0', 'RAISE', 400]),
      'p1',
      { type: 'act', action: 'FOLD' },
    ],
    [
      'a check',
      () => play(started([10_000, 10_000, 10_000]), ['p0', 'CALL'], ['p1', 'CALL']),
      'p2',
      { type: 'act', action: 'CALL' },
    ],
    [
      'an all-in that ends the betting',
      () => play(started([10_000, 3_000]), ['p0', 'ALL_IN']),
      'p1',
      { type: 'act', action: 'CALL' },
    ],
    [
      'the flop dealt',
      () => play(started([10_000, 10_000, 10_000]), ['p0', 'CALL'], ['p1', 'CALL'], ['p2', 'CALL']),
      'p0',
      { type: 'advanceStage' },
    ],
    ['the pot awarded to the wrong player', showdown, 'p0', { type: 'declareWinners', winnerIds: ['p1'] }],
    ['a split pot', showdown, 'p0', { type: 'declareWinners', winnerIds: ['p1', 'p2'] }],
    [
      'a new hand dealt',
      () => run(showdown(), 'p0', { type: 'declareWinners', winnerIds: ['p2'] }),
      'p0',
      { type: 'newHand' },
    ],
    [
      'a rebuy of the wrong amount',
      () => play(started([10_000, 10_000, 10_000]), ['p0', 'FOLD']),
      'p0',
      { type: 'rebuy', playerId: 'p0', amount: 100_000 },
    ],
  ];
  it.each(cases)('puts back the room as it was before %s', (_, make, actor, command) => {
    const before = make();
    const after = run(before, actor, command, 5_000);
    expect(state(after)).not.toEqual(state(before));
    expect(after.undo?.seq).toBe(before.nextEventSeq);
    expect(state(undo(after))).toEqual(state(before));
  });

  it('a wrong award seen once the next hand is dealt: undo the New Hand, then the award', () => {
    const showdown = checkedDownThreeWay(started([10_000, 10_000, 10_000]));
    const wrong = run(showdown, 'p0', { type: 'declareWinners', winnerIds: ['p1'] });
    const dealt = run(wrong, 'p0', { type: 'newHand' });
    expect(dealt.undo?.prev?.seq).toBe(wrong.undo!.seq);
    const back = undo(dealt);
    expect(state(back)).toEqual(state(wrong));
    expect(back.undo?.seq).toBe(wrong.undo!.seq);
    expect(back.undo?.prev).toBeUndefined();
    const before = undo(back);
    expect(state(before)).toEqual(state(showdown));
    expect(before.undo).toBeNull();
    const right = run(before, 'p0', { type: 'declareWinners', winnerIds: ['p2'] });
    expect(player(right, 'p2').stack).toBe(10_400);
    // Once the new hand has a move of its own, the award is out of reach.
    const moved = play(dealt, ['p1', 'CALL']);
    expect(moved.undo?.prev).toBeUndefined();
    expect(undo(moved).undo).toBeNull();
  });

  it("takenBack: the undone commands' events, not a join or new blinds between, nor an earlier undo", () => {
    const showdown = checkedDownThreeWay(started([10_000, 10_000, 10_000]));
    let room = run(showdown, 'p0', { type: 'declareWinners', winnerIds: ['p1'] });
    room = run(room, 'late', { type: 'join', name: 'Late', startingChips: 500 });
    room = run(room, 'p0', { type: 'newHand' });
    room = run(room, 'p0', { type: 'updateSettings', smallBlind: 200, bigBlind: 400 });
    room = undo(undo(room));
    const undone = takenBack(room.log);
    const since = room.log.filter((e) => e.seq >= showdown.nextEventSeq);
    expect(since.map((e) => [e.type, undone(e)])).toEqual([
      ['potAwarded', true],
      ['handCompleted', true],
      ['playerJoined', false],
      ['handStarted', true],
      ['blindPosted', true],
      ['blindPosted', true],
      ['settingsUpdated', false],
      ['undone', false],
      ['undone', false],
    ]);
    expect(room.log.filter((e) => e.seq < showdown.nextEventSeq).some(undone)).toBe(false);
    expect(takenBack(showdown.log)(showdown.log.at(-1)!)).toBe(false);
  });

  it('keeps only the fields the command changed, as they were (a raise: one player, the turn and the pots)', () => {
    const before = started([10_000, 10_000, 10_000]);
    const after = run(before, 'p0', { type: 'act', action: 'RAISE', amount: 650 }, 5_000);
    expect(after.undo!.players).toEqual({
      p0: {
        stack: 10_000,
        currentRoundBet: 0,
        totalPotContribution: 0,
        hasActedThisRound: false,
        lastChipUpdate: 1_000,
      },
    });
    expect(after.undo!.gameState).toEqual({
      currentTurnPlayerId: 'p0',
      pots: before.gameState.pots,
      lastRaiseAmount: before.gameState.lastRaiseAmount,
    });
  });

  it('survives a join and a change of blinds; the latecomer still waits after the undo', () => {
    const before = started([10_000, 10_000]);
    let room = play(before, ['p0', 'RAISE', 1_000]);
    room = run(room, 'late', { type: 'join', name: 'Late', startingChips: 5_000 });
    room = run(room, 'p0', { type: 'updateSettings', smallBlind: 200, bigBlind: 400 });
    const back = undo(room);
    expect(back.players.p0).toEqual(before.players.p0);
    expect(back.gameState).toEqual(before.gameState);
    expect(player(back, 'late')).toMatchObject({ status: 'waiting_approval', stack: 5_000 });
    expect(back.settings).toMatchObject({ smallBlind: 200, bigBlind: 400 });
  });

  it('survives a stranger asking to join and leaving, or being denied (regression: a stranger wiped it at will)', () => {
    const before = started([10_000, 10_000, 10_000]);
    const raised = play(before, ['p0', 'RAISE', 650]);
    let room = run(raised, 'x1', { type: 'join', name: 'X1', startingChips: 500 });
    room = run(room, 'x1', { type: 'leave' });
    room = run(room, 'x2', { type: 'join', name: 'X2', startingChips: 500 });
    room = run(room, 'p0', { type: 'remove', playerId: 'x2' });
    expect(room.undo).toEqual(raised.undo);
    const back = undo(room);
    expect(back.players).toEqual(before.players);
    expect(back.gameState).toEqual(before.gameState);
    // Only the raise is taken back; the comings and goings stay as they were.
    const undone = takenBack(back.log);
    expect(back.log.filter((e) => e.seq >= before.nextEventSeq).map((e) => [e.type, undone(e)])).toEqual([
      ['playerActed', true],
      ['playerJoined', false],
      ['playerLeft', false],
      ['playerJoined', false],
      ['playerRemoved', false],
      ['undone', false],
    ]);
  });

  it('survives sitting out and coming back, by the player or the host (regression: any player wiped it so)', () => {
    // The host gives the pot to p1 by mistake; p1 sits out and back, and the host sits p2 out.
    const showdown = checkedDownThreeWay(started([10_000, 10_000, 10_000]));
    const wrong = run(showdown, 'p0', { type: 'declareWinners', winnerIds: ['p1'] });
    let room = run(wrong, 'p1', { type: 'sitOut', away: true });
    room = run(room, 'p1', { type: 'sitOut', away: false });
    room = run(room, 'p0', { type: 'sitOut', away: true, playerId: 'p2' });
    expect(room.undo).toEqual(wrong.undo);
    const back = undo(room);
    // The award is taken back to the cent; who sits out stays as it is now (no undo restores it).
    expect({ ...back.players, p2: { ...back.players.p2, away: undefined } }).toEqual({
      ...showdown.players,
      p2: { ...showdown.players.p2, away: undefined },
    });
    expect(player(back, 'p2').away).toBe(true);
    expect(back.gameState).toEqual(showdown.gameState);
    const undone = takenBack(back.log);
    expect(back.log.filter((e) => e.seq >= wrong.undo!.seq).map((e) => [e.type, undone(e)])).toEqual([
      ['potAwarded', true],
      ['handCompleted', true],
      ['sitOutChanged', false],
      ['sitOutChanged', false],
      ['sitOutChanged', false],
      ['undone', false],
    ]);
    // The right award; the next deal leaves p2 out.
    const right = run(back, 'p0', { type: 'declareWinners', winnerIds: ['p2'] });
    expect(player(right, 'p2').stack).toBe(10_400);
    expect(player(run(right, 'p0', { type: 'newHand' }), 'p2').isActive).toBe(false);
  });

  it.each<[string, (r: Room) => Room]>([
    [
      'an approval',
      (r) =>
        run(run(r, 'late', { type: 'join', name: 'Late', startingChips: 500 }), 'p0', {
          type: 'approve',
          playerId: 'late',
        }),
    ],
    ['a removal', (r) => run(r, 'p0', { type: 'remove', playerId: 'p2' })],
    ['a player leaving', (r) => run(r, 'p2', { type: 'leave' })],
    ['End Game', (r) => run(r, 'p0', { type: 'endGame' })],
    ['an undo (of anything but a New Hand)', (r) => undo(r)],
  ])('is cleared by %s: there is nothing to undo after it', (_, then) => {
    const room = then(play(started([10_000, 10_000, 10_000]), ['p0', 'RAISE', 650]));
    expect(room.undo).toBeNull();
    expect(refuse(room, 'p0', { type: 'undo', seq: 1 })).toBe('There is nothing to undo');
  });

  it('is the host’s only, even for the player whose action it was', () => {
    const room = play(started([10_000, 10_000, 10_000]), ['p0', 'CALL'], ['p1', 'RAISE', 800]);
    const seq = room.undo!.seq;
    expect(refuse(room, 'p1', { type: 'undo', seq })).toBe('Only the host can undo');
    expect(refuse(room, 'stranger', { type: 'undo', seq })).toBe('Only the host can undo');
  });

  it('a stale undo (the table moved on after the host tapped) undoes nothing', () => {
    const first = play(started([10_000, 10_000, 10_000]), ['p0', 'CALL']);
    const seq = first.undo!.seq;
    const later = play(first, ['p1', 'CALL']);
    expect(refuse(later, 'p0', { type: 'undo', seq })).toBe(
      'The table has moved on since. Nothing was undone.',
    );
    expect(state(undo(later))).toEqual(state(first));
  });

  it('there is nothing to undo in a lobby or a freshly started game, and lobby rooms keep no undo key', () => {
    const room = lobby([10_000, 10_000]);
    expect('undo' in room).toBe(false);
    expect(refuse(room, 'p0', { type: 'undo', seq: 1 })).toBe('There is nothing to undo');
    const game = run(room, 'p0', { type: 'startGame' });
    expect('undo' in game).toBe(false);
    expect(refuse(game, 'p0', { type: 'undo', seq: 1 })).toBe('There is nothing to undo');
  });
});

describe('undo: a rule a mutant survived (mutation testing)', () => {
  it('a room stored before gameState.blinds existed: its first New Hand adds the key, so it leaves no undo point', () => {
    // The server reads stored rooms as they were written (JSON, no migration); a room saved mid-game by
    // an older version has no `blinds` in its game state. New Hand adds it. An undo point cannot take
    // an added key back, so rather than one that restores half the hand the command leaves none.
    const paid = play(started([10_000, 10_000, 10_000]), ['p0', 'FOLD'], ['p1', 'FOLD']);
    const legacy = structuredClone(paid);
    delete legacy.gameState.blinds;
    const dealt = run(legacy, 'p0', { type: 'newHand' });
    expect(dealt.gameState.blinds).toEqual({ smallBlind: 100, bigBlind: 200 });
    expect(dealt.undo ?? null).toBeNull();
    expect(refuse(dealt, 'p0', { type: 'undo', seq: legacy.nextEventSeq })).toBe('There is nothing to undo');
    // The same New Hand in a room that has the key leaves its point as usual.
    const current = run(paid, 'p0', { type: 'newHand' });
    expect(current.undo?.seq).toBe(paid.nextEventSeq);
    expect(state(undo(current))).toEqual(state(paid));
  });
});
