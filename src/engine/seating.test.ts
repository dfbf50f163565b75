import { describe, expect, it } from 'vitest';
import { MSG } from './messages';
import { lobby, play, refuse, run, runWithEvents, started } from './test-helpers';
import type { Command, Room } from './types';

const arrange = (...playerIds: string[]): Command => ({ type: 'arrangeSeats', playerIds });
/** The seated players clockwise (the engine's seat order: increasing joinedAt). */
const order = (room: Room) =>
  Object.values(room.players)
    .filter((p) => p.isApproved)
    .sort((a, b) => a.joinedAt - b.joinedAt)
    .map((p) => p.id);
const roles = (room: Room) =>
  Object.fromEntries(
    Object.values(room.players)
      .filter((p) => p.role !== 'PLAYER')
      .map((p) => [p.id, p.role]),
  );

describe('arrangeSeats: the host puts the players in the order they sit', () => {
  it('in the lobby: the new order deals the first hand (dealer first, then the blinds, then the first to act)', () => {
    // Joined p0, p1, p2, p3; at the real table p0 has p2 on her left, then p3, then p1.
    const room = lobby([10_000, 10_000, 10_000, 10_000]);
    const seatsBefore = Object.values(room.players)
      .map((p) => p.joinedAt)
      .sort();
    const { room: out, events } = runWithEvents(room, 'p0', arrange('p0', 'p2', 'p3', 'p1'), 5_000);
    expect(order(out!)).toEqual(['p0', 'p2', 'p3', 'p1']);
    expect(events).toEqual([
      { type: 'seatsArranged', playerIds: ['p0', 'p2', 'p3', 'p1'], names: ['P0', 'P2', 'P3', 'P1'] },
    ]);
    expect(out!.log.at(-1)).toMatchObject({ type: 'seatsArranged', at: 5_000 });
    // The same seats, dealt out again; nothing else about anyone changed.
    expect(
      Object.values(out!.players)
        .map((p) => p.joinedAt)
        .sort(),
    ).toEqual(seatsBefore);
    for (const id of ['p0', 'p1', 'p2', 'p3'])
      expect({ ...out!.players[id], joinedAt: 0 }).toEqual({ ...room.players[id], joinedAt: 0 });

    const dealt = run(out!, 'p0', { type: 'startGame' });
    expect(roles(dealt)).toEqual({ p0: 'DEALER', p2: 'SMALL_BLIND', p3: 'BIG_BLIND' });
    expect(dealt.gameState.currentTurnPlayerId).toBe('p1');
  });

  it('the first dealer is whoever the host puts first', () => {
    const out = run(lobby([10_000, 10_000, 10_000]), 'p0', arrange('p2', 'p0', 'p1'));
    const dealt = run(out, 'p0', { type: 'startGame' });
    expect(roles(dealt)).toEqual({ p2: 'DEALER', p0: 'SMALL_BLIND', p1: 'BIG_BLIND' });
    expect(dealt.gameState.currentTurnPlayerId).toBe('p2');
  });

  it('between hands: the button stays with the last dealer and New Hand moves it to their new left', () => {
    // Hand 1: p0 deals, p1 SB, p2 BB, p3 first to act; everyone folds to the big blind.
    let room = started([10_000, 10_000, 10_000, 10_000]);
    room = play(room, ['p3', 'FOLD'], ['p0', 'FOLD'], ['p1', 'FOLD']);
    expect(room.gameState.stage).toBe('SHOWDOWN');
    // Dan (p3) really sits between p0 and p1.
    const out = run(room, 'p0', arrange('p0', 'p3', 'p1', 'p2'));
    expect(order(out)).toEqual(['p0', 'p3', 'p1', 'p2']);
    expect(out.gameState.dealerSeat).toBe(out.players.p0!.joinedAt);
    expect(out.undo ?? null).toBeNull();
    const next = run(out, 'p0', { type: 'newHand' });
    expect(roles(next)).toEqual({ p3: 'DEALER', p1: 'SMALL_BLIND', p2: 'BIG_BLIND' });
    expect(next.gameState.currentTurnPlayerId).toBe('p0');
    // The chips are the hand's: p2 won the blinds (100 + 200) and posts 200 again; p1 posts 100.
    expect(Object.fromEntries(Object.values(next.players).map((p) => [p.id, p.stack]))).toEqual({
      p0: 10_000,
      p1: 9_800,
      p2: 9_900,
      p3: 10_000,
    });
  });

  it('between hands after the dealer left: the button goes to whoever sat on their left, however the host lists the circle', () => {
    // Hand 2: p1 deals, p2 SB, p3 BB. p1 goes home; p3 wins. Clockwise the table is p0, p2, p3.
    let r = started([10_000, 10_000, 10_000, 10_000]);
    r = play(r, ['p3', 'FOLD'], ['p0', 'FOLD'], ['p1', 'FOLD']);
    r = run(r, 'p0', { type: 'newHand' });
    expect(roles(r)).toEqual({ p1: 'DEALER', p2: 'SMALL_BLIND', p3: 'BIG_BLIND' });
    r = run(r, 'p1', { type: 'leave' });
    r = play(r, ['p0', 'FOLD'], ['p2', 'FOLD']);
    const next = { p2: 'DEALER', p3: 'SMALL_BLIND', p0: 'BIG_BLIND' };
    expect(roles(run(r, 'p0', { type: 'newHand' }))).toEqual(next);
    // The same circle listed from p2 or from p3: the same next deal (it went to p3 when listed from p2).
    for (const circle of [
      ['p2', 'p3', 'p0'],
      ['p3', 'p0', 'p2'],
    ]) {
      const same = run(r, 'p0', arrange(...circle));
      expect(order(same)).toEqual(circle);
      expect(roles(run(same, 'p0', { type: 'newHand' }))).toEqual(next);
    }
    // Another order: p2, who sat on the departed dealer's left, still deals; the blinds follow the new
    // order after him.
    const moved = run(r, 'p0', arrange('p0', 'p3', 'p2'));
    expect(roles(run(moved, 'p0', { type: 'newHand' }))).toEqual({
      p2: 'DEALER',
      p0: 'SMALL_BLIND',
      p3: 'BIG_BLIND',
    });
    // Arranged twice (a host putting a slip right): still p2. The seat kept for the departed dealer is
    // no seated player's, so the second arrangement does not take the player before it for the dealer.
    const twice = run(run(r, 'p0', arrange('p2', 'p3', 'p0')), 'p0', arrange('p0', 'p3', 'p2'));
    expect(order(twice)).toEqual(['p0', 'p3', 'p2']);
    expect(roles(run(twice, 'p0', { type: 'newHand' }))).toEqual({
      p2: 'DEALER',
      p0: 'SMALL_BLIND',
      p3: 'BIG_BLIND',
    });
  });

  it('the same order changes nothing and logs nothing (the room is returned as it was)', () => {
    const room = lobby([10_000, 10_000, 10_000]);
    const res = runWithEvents(room, 'p0', arrange('p0', 'p1', 'p2'));
    expect(res.room).toBe(room);
    expect(res.events).toEqual([]);
  });

  it('the same order with a stranger waiting between two seats: the stranger moves behind the table', () => {
    // p0 hosts; p1 asks to join, then p2 joins and is approved: p1 waits between p0 and p2. The host
    // confirms the table as it is: approved later, p1 sits after it, not between two players the host
    // placed (the engine returned the room unchanged before: the fuzz audit of session 35).
    let room = lobby([10_000]);
    room = run(room, 'p1', { type: 'join', name: 'P1', startingChips: 5_000 }, 2_000);
    room = run(room, 'p2', { type: 'join', name: 'P2', startingChips: 5_000 }, 2_001);
    room = run(room, 'p0', { type: 'approve', playerId: 'p2' });
    const { room: out, events } = runWithEvents(room, 'p0', arrange('p0', 'p2'));
    expect(events).toEqual([{ type: 'seatsArranged', playerIds: ['p0', 'p2'], names: ['P0', 'P2'] }]);
    expect(order(run(out!, 'p0', { type: 'approve', playerId: 'p1' }))).toEqual(['p0', 'p2', 'p1']);
    // Once behind the table, the same order again changes nothing.
    expect(runWithEvents(out!, 'p0', arrange('p0', 'p2')).room).toBe(out);
  });

  it('a stranger waiting for approval moves behind the table: approved, they sit after the arranged players', () => {
    // p0, p1 seated; p2 asks to join; p3 joins and is approved. The host puts p3 between p0 and p1.
    let room = lobby([10_000, 10_000]);
    room = run(room, 'p2', { type: 'join', name: 'P2', startingChips: 5_000 }, 2_000);
    room = run(room, 'p3', { type: 'join', name: 'P3', startingChips: 5_000 }, 2_001);
    room = run(room, 'p0', { type: 'approve', playerId: 'p3' });
    expect(refuse(room, 'p0', arrange('p0', 'p3', 'p1', 'p2'))).toBe(MSG.seatsPlayersChanged);
    const out = run(room, 'p0', arrange('p0', 'p3', 'p1'));
    expect(out.players.p2!.joinedAt).toBeGreaterThan(out.players.p1!.joinedAt);
    expect(order(run(out, 'p0', { type: 'approve', playerId: 'p2' }))).toEqual(['p0', 'p3', 'p1', 'p2']);
    // A newcomer sits after everyone, the stranger still waiting included.
    const late = run(out, 'p4', { type: 'join', name: 'P4', startingChips: 5_000 }, 2_002);
    expect(late.players.p4!.joinedAt).toBeGreaterThan(late.players.p2!.joinedAt);
    const both = run(run(late, 'p0', { type: 'approve', playerId: 'p4' }), 'p0', {
      type: 'approve',
      playerId: 'p2',
    });
    expect(order(both)).toEqual(['p0', 'p3', 'p1', 'p2', 'p4']);
  });

  it('refuses anyone but the host, a hand being played, a pot not yet awarded, an ended game', () => {
    const room = started([10_000, 10_000, 10_000]);
    expect(refuse(lobby([10_000, 10_000]), 'p1', arrange('p1', 'p0'))).toBe(MSG.onlyHostSeats);
    expect(refuse(room, 'p1', arrange('p1', 'p0', 'p2'))).toBe(MSG.onlyHostSeats);
    expect(refuse(room, 'nobody', arrange('p1', 'p0', 'p2'))).toBe(MSG.onlyHostSeats);
    // Pre-flop, and every later street: the turn order follows the seats.
    expect(refuse(room, 'p0', arrange('p1', 'p0', 'p2'))).toBe(MSG.seatsBetweenHands);
    const flop = play(room, ['p0', 'CALL'], ['p1', 'CALL'], ['p2', 'CALL'], 'advance');
    expect(refuse(flop, 'p0', arrange('p1', 'p0', 'p2'))).toBe(MSG.seatsBetweenHands);
    // At the showdown with the pot still to award.
    const showdown = play(flop, ['p1', 'ALL_IN'], ['p2', 'ALL_IN'], ['p0', 'ALL_IN']);
    expect(showdown.gameState.stage).toBe('SHOWDOWN');
    expect(refuse(showdown, 'p0', arrange('p1', 'p0', 'p2'))).toBe(MSG.seatsBetweenHands);
    const ended = run(room, 'p0', { type: 'endGame' });
    expect(refuse(ended, 'p0', arrange('p1', 'p0', 'p2'))).toBe(MSG.gameEnded);
  });

  it('refuses a list that is not exactly the players at the table, and changes nothing', () => {
    const room = lobby([10_000, 10_000, 10_000]);
    for (const ids of [
      [],
      ['p0', 'p1'],
      ['p0', 'p1', 'p2', 'p2'],
      ['p0', 'p1', 'p1'],
      ['p0', 'p1', 'p9'],
      ['p0', 'p1', 'constructor'],
      ['p0', 'p1', 'p2', 'p9'],
    ])
      expect(refuse(room, 'p0', arrange(...ids))).toBe(MSG.seatsPlayersChanged);
  });
});

const sitOut = (away: boolean, playerId?: string): Command =>
  playerId === undefined ? { type: 'sitOut', away } : { type: 'sitOut', away, playerId };

describe('sitOut: a player steps away and is dealt out until back', () => {
  it('from the next hand: the hand on the table is untouched; the next deal skips them, blinds included', () => {
    // Hand 1: p0 deals, p1 SB 100, p2 BB 200, p3 to act. p3 says they are stepping out.
    let room = started([10_000, 10_000, 10_000, 10_000]);
    const { room: out, events } = runWithEvents(room, 'p3', sitOut(true), 7_000);
    expect(events).toEqual([{ type: 'sitOutChanged', playerId: 'p3', name: 'P3', away: true }]);
    expect(out!.players.p3!.away).toBe(true);
    expect(out!.gameState).toEqual(room.gameState);
    expect({ ...out!.players.p3, away: undefined }).toEqual({ ...room.players.p3, away: undefined });
    // Still their turn: they fold on the way out; p0 and p1 fold too, p2 takes the blinds.
    room = play(out!, ['p3', 'FOLD'], ['p0', 'FOLD'], ['p1', 'FOLD']);
    // Hand 2 without p3: the button moves from p0 to p1, p2 posts the small blind, p0 the big one.
    let next = run(room, 'p0', { type: 'newHand' });
    expect(roles(next)).toEqual({ p1: 'DEALER', p2: 'SMALL_BLIND', p0: 'BIG_BLIND' });
    expect(next.players.p3).toMatchObject({
      isActive: false,
      role: 'PLAYER',
      stack: 10_000,
      currentRoundBet: 0,
    });
    expect(next.gameState.currentTurnPlayerId).toBe('p1');
    // Back mid-hand: dealt in from the next hand, where the button moves on to p2.
    next = run(next, 'p3', sitOut(false));
    expect(next.players.p3!.away).toBeUndefined();
    expect(next.players.p3!.isActive).toBe(false);
    next = play(next, ['p1', 'FOLD'], ['p2', 'FOLD']);
    const third = run(next, 'p0', { type: 'newHand' });
    expect(roles(third)).toEqual({ p2: 'DEALER', p3: 'SMALL_BLIND', p0: 'BIG_BLIND' });
    expect(third.players.p3).toMatchObject({ isActive: true, currentRoundBet: 100 });
  });

  it('the host sits another player out and brings them back; nobody else can', () => {
    const room = started([10_000, 10_000, 10_000]);
    expect(refuse(room, 'p1', sitOut(true, 'p2'))).toBe(MSG.onlyHostSitOut);
    const { room: out, events } = runWithEvents(room, 'p0', sitOut(true, 'p2'));
    expect(events).toEqual([{ type: 'sitOutChanged', playerId: 'p2', name: 'P2', away: true, byHost: true }]);
    // A player naming themself is not the host's power.
    const back = runWithEvents(out!, 'p2', sitOut(false, 'p2'));
    expect(back.events).toEqual([{ type: 'sitOutChanged', playerId: 'p2', name: 'P2', away: false }]);
    // The host can sit out themself: still the host, just not dealt in.
    expect(run(room, 'p0', sitOut(true)).players.p0!.away).toBe(true);
  });

  it('asking for what already is changes nothing', () => {
    const room = started([10_000, 10_000]);
    expect(runWithEvents(room, 'p1', sitOut(false))).toEqual({ room, events: [] });
    const away = run(room, 'p1', sitOut(true));
    expect(runWithEvents(away, 'p0', sitOut(true, 'p1'))).toEqual({ room: away, events: [] });
  });

  it('New Hand needs two players with chips who are not sitting out', () => {
    // Heads-up; p1 sits out: nobody to play against.
    let room = play(started([10_000, 10_000, 10_000]), ['p0', 'FOLD'], ['p1', 'FOLD']);
    room = run(room, 'p1', sitOut(true));
    room = run(room, 'p0', sitOut(true, 'p2'));
    expect(refuse(room, 'p0', { type: 'newHand' })).toBe(MSG.needTwoIn);
    // With p2 back it is heads-up: the button moves from p0 (the last dealer) past p1, who sits out,
    // to p2 (dealer and small blind); p0 posts the big blind.
    room = run(room, 'p0', sitOut(false, 'p2'));
    expect(roles(run(room, 'p0', { type: 'newHand' }))).toEqual({
      p2: 'DEALER_SMALL_BLIND',
      p0: 'BIG_BLIND',
    });
    // Without chips it is the spec's message, as before.
    const broke = play(started([10_000, 10_000]), ['p0', 'ALL_IN'], ['p1', 'CALL']);
    const paid = run(broke, 'p0', { type: 'declareWinners', winnerIds: ['p1'] });
    expect(refuse(paid, 'p0', { type: 'newHand' })).toBe(MSG.needTwoFunded);
  });

  it('refuses the lobby, an ended game, a stranger waiting and a player not in the room', () => {
    expect(refuse(lobby([10_000, 10_000]), 'p1', sitOut(true))).toBe(MSG.sitOutNotPlaying);
    expect(refuse(lobby([10_000, 10_000]), 'p0', sitOut(true, 'p1'))).toBe(MSG.sitOutNotPlaying);
    let room = started([10_000, 10_000]);
    room = run(room, 'p5', { type: 'join', name: 'P5', startingChips: 5_000 });
    expect(refuse(room, 'p5', sitOut(true))).toBe(MSG.notInGame);
    expect(refuse(room, 'p0', sitOut(true, 'p5'))).toBe(MSG.playerNotFound);
    expect(refuse(room, 'p0', sitOut(true, 'constructor'))).toBe(MSG.playerNotFound);
    expect(refuse(room, 'nobody', sitOut(true))).toBe(MSG.notInGame);
    expect(refuse(run(room, 'p0', { type: 'endGame' }), 'p1', sitOut(true))).toBe(MSG.gameEnded);
  });
});

describe('arrangeSeats: rules a mutant survived (mutation testing)', () => {
  it('between hands the button follows the last dealer to a new seat: New Hand deals from their new left', () => {
    // Hand 1: p0 deals, p1 SB, p2 BB; p0 and p1 fold, p2 takes the blinds.
    const room = play(started([10_000, 10_000, 10_000]), ['p0', 'FOLD'], ['p1', 'FOLD']);
    // p0 really sits between p1 and p2: p0 moves from the first seat to the second.
    const out = run(room, 'p0', arrange('p1', 'p0', 'p2'));
    expect(order(out)).toEqual(['p1', 'p0', 'p2']);
    expect(out.gameState.dealerSeat).toBe(out.players.p0!.joinedAt);
    expect(out.gameState.dealerSeat).not.toBe(room.gameState.dealerSeat);
    // The button moves from p0 to p2 on their left; then p1 (round the table) and p0 post the blinds.
    const next = run(out, 'p0', { type: 'newHand' });
    expect(roles(next)).toEqual({ p2: 'DEALER', p1: 'SMALL_BLIND', p0: 'BIG_BLIND' });
    expect(next.gameState.dealerId).toBe('p2');
    expect(next.gameState.currentTurnPlayerId).toBe('p2');
    expect(Object.fromEntries(Object.values(next.players).map((p) => [p.id, p.stack]))).toEqual({
      p0: 9_800,
      p1: 9_800,
      p2: 10_100,
    });
  });

  it('a last dealer who sat in the last seat and left: the button wraps to the first player, however the host lists them', () => {
    // Three hands folded to the big blind: the button goes p0, p1, p2; p2 (the last seat) deals hand 3.
    let r = started([10_000, 10_000, 10_000]);
    r = play(r, ['p0', 'FOLD'], ['p1', 'FOLD']);
    r = play(run(r, 'p0', { type: 'newHand' }), ['p1', 'FOLD'], ['p2', 'FOLD']);
    r = play(run(r, 'p0', { type: 'newHand' }), ['p2', 'FOLD'], ['p0', 'FOLD']);
    expect(r.gameState.dealerId).toBe('p2');
    // p2 goes home between hands. On their left sat p0 (round the table from the last seat).
    r = run(r, 'p2', { type: 'leave' });
    const next = { p0: 'DEALER_SMALL_BLIND', p1: 'BIG_BLIND' };
    expect(roles(run(r, 'p0', { type: 'newHand' }))).toEqual(next);
    // The host lists the two the other way round: p0 still deals.
    const swapped = run(r, 'p0', arrange('p1', 'p0'));
    expect(order(swapped)).toEqual(['p1', 'p0']);
    expect(roles(run(swapped, 'p0', { type: 'newHand' }))).toEqual(next);
  });
});
