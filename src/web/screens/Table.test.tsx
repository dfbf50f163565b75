import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { applyCommand } from '../../engine';
import { HOST_AWAY_MS } from '../../engine/host';
import type { Command, Room } from '../../engine/types';
import type { Ack, RoomSnapshot } from '../../shared/protocol';
import { actNow, lobby, snapshot, started, step } from '../test/rooms';
import { buttonNames, seatRow } from '../test/table';
import { Table } from './Table';

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

const ok: Ack<null> = { ok: true, data: null };

function show(room: Room, me: string) {
  const send = vi.fn(async (_c: Command) => ok);
  const utils = render(<Table snapshot={snapshot(room)} me={me} send={send} onLeave={async () => ok} />);
  return { send, ...utils };
}

/** Three players, $50.00 each (Ben $10.00 when `shortBen`): Ana deals, Ben SB, Cal BB. */
const threeWay = (shortBen = false) =>
  started(['Ana', 'Ben', 'Cal'], shortBen ? { chips: { Ben: 1_000 } } : {});

/** Ben all-in for $10 pre-flop, called by Cal and Ana; on the flop Cal bets $10 and Ana calls; checked down. */
function sidePotShowdown(): Room {
  let room = threeWay(true);
  room = actNow(room, 'CALL'); // Ana $2
  room = actNow(room, 'ALL_IN'); // Ben $10
  room = actNow(room, 'CALL'); // Cal $10
  room = actNow(room, 'CALL'); // Ana $10
  room = step(room, 'ana', { type: 'advanceStage' });
  room = actNow(room, 'RAISE', 1_000); // Cal bets $10
  room = actNow(room, 'CALL'); // Ana
  room = step(room, 'ana', { type: 'advanceStage' });
  room = actNow(room, 'CALL');
  room = actNow(room, 'CALL');
  room = step(room, 'ana', { type: 'advanceStage' });
  room = actNow(room, 'CALL');
  room = actNow(room, 'CALL');
  return room;
}

/** Blinds of 1 and 2 cents: Ana (dealer) all-in for $50.00, Ben folds his 1 cent, Cal calls all-in: $100.01. */
function oddCentShowdown(): Room {
  let room = lobby(['Ana', 'Ben', 'Cal']);
  room = step(room, 'ana', { type: 'updateSettings', smallBlind: 1, bigBlind: 2 });
  room = step(room, 'ana', { type: 'startGame' });
  room = actNow(room, 'ALL_IN');
  room = actNow(room, 'FOLD');
  return actNow(room, 'CALL');
}

describe('Table', () => {
  it('shows the stage, the community cards, the pot, the amount to call and the badges', () => {
    show(threeWay(), 'ana');
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Pre-Flop');
    expect(screen.getByRole('img', { name: '0 of 5 community cards dealt' })).toBeTruthy();
    expect(document.querySelector('.pot')!.textContent).toBe('Pot$3.00');
    expect(document.querySelector('.to-call')!.textContent).toBe('To call$2.00');
    expect(seatRow('Ana').textContent).toBe('onlineAnaHost(You)DDealerStack $50.00To act');
    expect(seatRow('Ben').textContent).toBe('onlineBenSBSmall blindStack $49.00Bet $1.00');
    expect(seatRow('Cal').textContent).toBe('onlineCalBBBig blindStack $48.00Bet $2.00');
    expect(seatRow('Ana').getAttribute('aria-current')).toBe('true');
    expect(document.querySelector('.table-foot')!.textContent).toBe(
      'Hand #1Blinds $1.00 / $2.00Change BlindsRoom ABCDE',
    );
  });

  it('shows 3, 4 and 5 community cards on the flop, the turn and the river (SPEC section 2)', () => {
    const cardsAt = (room: Room) => {
      show(room, 'ben');
      const out = [
        screen.getByRole('heading', { level: 1 }).textContent,
        screen.getByRole('img', { name: /community cards dealt$/ }).getAttribute('aria-label'),
        document.querySelectorAll('.card-slot.dealt').length,
      ];
      cleanup();
      return out;
    };
    const round = (room: Room) => actNow(actNow(actNow(room, 'CALL'), 'CALL'), 'CALL');
    const flop = step(round(threeWay()), 'ana', { type: 'advanceStage' });
    expect(cardsAt(flop)).toEqual(['Flop', '3 of 5 community cards dealt', 3]);
    const turn = step(round(flop), 'ana', { type: 'advanceStage' });
    expect(cardsAt(turn)).toEqual(['Turn', '4 of 5 community cards dealt', 4]);
    const river = step(round(turn), 'ana', { type: 'advanceStage' });
    expect(cardsAt(river)).toEqual(['River', '5 of 5 community cards dealt', 5]);
  });

  it('heads-up the dealer is also the small blind: D/SB', () => {
    show(started(['Ana', 'Ben']), 'ben');
    expect(seatRow('Ana').querySelector('.badge')!.textContent).toBe('D/SBDealer and small blind');
  });

  it("on my turn: Fold, 'Call {amount}' and Raise; the call is sent as CALL", async () => {
    const { send } = show(threeWay(), 'ana');
    const actions = screen.getByRole('region', { name: 'Your Turn' });
    expect(
      within(actions)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['Fold', 'Call $2.00', 'Raise']);
    await act(async () => fireEvent.click(within(actions).getByRole('button', { name: 'Call $2.00' })));
    // With what Ana's screen shows her facing: refused if the table moved on meanwhile.
    expect(send).toHaveBeenCalledWith({
      type: 'act',
      action: 'CALL',
      facing: { handNumber: 1, stage: 'PRE_FLOP', toCall: 200 },
    });
    fireEvent.click(within(actions).getByRole('button', { name: 'Raise' }));
    expect(screen.getByRole('dialog', { name: 'Raise' })).toBeTruthy();
  });

  it("offers Check when nothing is owed (the big blind's option)", () => {
    let room = threeWay();
    room = actNow(room, 'CALL');
    room = actNow(room, 'CALL');
    show(room, 'cal');
    expect(screen.getByRole('button', { name: 'Check' })).toBeTruthy();
  });

  it("others see whose turn it is: '{player}'s Turn / Waiting for their action...'", () => {
    show(threeWay(), 'ben');
    expect(screen.queryByRole('region', { name: 'Your Turn' })).toBeNull();
    expect(screen.getByRole('status').textContent).toBe("Ana's Turn Waiting for their action...");
  });

  it("a turn held by nobody at the table reads the spec's fallback: 'Waiting for Player / To act'", () => {
    // The engine always names a seated player while betting is open; a snapshot naming nobody it knows
    // (a stored room of an older build) still says what the table waits for.
    const room = threeWay();
    show({ ...room, gameState: { ...room.gameState, currentTurnPlayerId: 'gone' } }, 'ben');
    expect(document.querySelector('.waiting-line')!.textContent).toBe('Waiting for Player To act');
  });

  it("host: a latecomer's request shows above the seats, where the host sees it at the top of the table", async () => {
    const room = step(threeWay(), 'dee', { type: 'join', name: 'Dee', startingChips: 5_000 });
    const { send } = show(room, 'ana');
    const card = screen.getByRole('region', { name: 'Waiting for Approval' });
    const seats = screen.getByRole('list', { name: 'Hand #1' });
    expect(card.compareDocumentPosition(seats) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(card.textContent).toContain('Wants to join with $50.00');
    await act(async () => fireEvent.click(within(card).getByRole('button', { name: 'Approve Dee' })));
    expect(send).toHaveBeenCalledWith({ type: 'approve', playerId: 'dee' });
    cleanup();
    show(room, 'ben');
    expect(screen.queryByRole('region', { name: 'Waiting for Approval' })).toBeNull();
  });

  it('host: the stage-advance button carries the next stage name', async () => {
    let room = threeWay();
    room = actNow(room, 'CALL');
    room = actNow(room, 'CALL');
    room = actNow(room, 'CALL');
    expect(room.gameState.canAdvanceStage).toBe(true);
    const { send } = show(room, 'ana');
    const controls = screen.getByRole('region', { name: 'Host controls' });
    expect(buttonNames(controls)).toEqual(['Flop', 'Undo', 'Rebuys', 'End Game']);
    await act(async () => fireEvent.click(within(controls).getByRole('button', { name: 'Flop' })));
    expect(send).toHaveBeenCalledWith({ type: 'advanceStage' });
  });

  it('non-host: waits for the host to deal the next stage', () => {
    let room = threeWay();
    room = actNow(room, 'CALL');
    room = actNow(room, 'CALL');
    room = actNow(room, 'CALL');
    show(room, 'ben');
    expect(screen.queryByRole('region', { name: 'Host controls' })).toBeNull();
    expect(screen.getByText('Waiting for the host to deal the flop')).toBeTruthy();
  });

  it('side pots: "N Pots", the showdown banner, and the winner chosen pot by pot (byPot)', async () => {
    const room = sidePotShowdown();
    expect(room.gameState.stage).toBe('SHOWDOWN');
    const { send } = show(room, 'ana');
    expect(screen.getByRole('img', { name: '5 of 5 community cards dealt' })).toBeTruthy();
    expect(document.querySelector('.pot')!.textContent).toBe('2 Pots$50.00');
    expect(document.querySelector('.pot-list')!.textContent).toBe('Main pot $30.00Side pot 1 $20.00');
    expect(document.querySelector('.banner.showdown')!.textContent).toBe('Host can now declare the winner');

    fireEvent.click(screen.getByRole('button', { name: 'Declare Winner' }));
    const dialog = screen.getByRole('dialog', { name: 'Declare Winner' });
    const main = within(dialog).getByRole('group', { name: 'Main pot: $30.00' });
    const side = within(dialog).getByRole('group', { name: 'Side pot 1: $20.00' });
    expect(
      within(main)
        .getAllByRole('checkbox')
        .map((c) => c.parentElement!.textContent),
    ).toEqual(['Ana', 'Ben', 'Cal']);
    expect(
      within(side)
        .getAllByRole('checkbox')
        .map((c) => c.parentElement!.textContent),
    ).toEqual(['Ana', 'Cal']);
    const award = within(dialog).getByRole('button', { name: 'Award Pot' });
    expect(award).toHaveProperty('disabled', true);

    expect(dialog.querySelector('.award-summary')).toBeNull();
    fireEvent.click(within(main).getByLabelText('Ben'));
    fireEvent.click(within(side).getByLabelText('Ana'));
    fireEvent.click(within(side).getByLabelText('Cal'));
    // Who gets what, as the engine will award it, in seat order.
    expect(dialog.querySelector('.award-summary')!.textContent).toBe(
      'Ana gets $10.00, Ben gets $30.00, Cal gets $10.00.',
    );
    const split = within(dialog).getByRole('button', { name: 'Award Split Pot' });
    await act(async () => fireEvent.click(split));
    expect(send).toHaveBeenCalledWith({
      type: 'declareWinners',
      winnerIds: ['ben', 'ana', 'cal'],
      byPot: { main: ['ben'], 'side-1': ['ana', 'cal'] },
    });
  });

  it('side pots: the main pot’s winner is ticked for the side pots they are in; another tick there replaces it', async () => {
    const { send } = show(sidePotShowdown(), 'ana');
    fireEvent.click(screen.getByRole('button', { name: 'Declare Winner' }));
    const dialog = screen.getByRole('dialog', { name: 'Declare Winner' });
    expect(
      within(dialog).getByText(
        "Choose the winners of each pot. A pot's winner is ticked for the side pots they are in too.",
      ),
    ).toBeTruthy();
    const main = within(dialog).getByRole('group', { name: 'Main pot: $30.00' });
    const side = within(dialog).getByRole('group', { name: 'Side pot 1: $20.00' });
    const ticks = (group: HTMLElement) =>
      within(group)
        .getAllByRole('checkbox')
        .filter((c) => (c as HTMLInputElement).checked)
        .map((c) => c.parentElement!.textContent);
    // Cal has the best hand: one tick wins him both pots.
    fireEvent.click(within(main).getByLabelText('Cal'));
    expect([ticks(main), ticks(side)]).toEqual([['Cal'], ['Cal']]);
    const summary = () => dialog.querySelector('.award-summary')?.textContent;
    expect(summary()).toBe('Cal gets $50.00.');
    expect(within(dialog).getByRole('button', { name: 'Award Pot' })).toHaveProperty('disabled', false);
    // Ana won the side pot after all: her tick replaces the suggestion (no split nobody asked for)...
    fireEvent.click(within(side).getByLabelText('Ana'));
    expect([ticks(main), ticks(side)]).toEqual([['Cal'], ['Ana']]);
    expect(summary()).toBe('Ana gets $20.00, Cal gets $30.00.');
    // ...and Cal ticked again there now splits it, as ticks do once the host has chosen.
    fireEvent.click(within(side).getByLabelText('Cal'));
    expect(ticks(side)).toEqual(['Ana', 'Cal']);
    fireEvent.click(within(side).getByLabelText('Ana'));
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Award Pot' })));
    expect(send).toHaveBeenCalledWith({
      type: 'declareWinners',
      winnerIds: ['cal'],
      byPot: { main: ['cal'], 'side-1': ['cal'] },
    });
  });

  it('side pots: a short all-in winning the main pot suggests nothing for the side pot they are not in', () => {
    show(sidePotShowdown(), 'ana');
    fireEvent.click(screen.getByRole('button', { name: 'Declare Winner' }));
    const dialog = screen.getByRole('dialog', { name: 'Declare Winner' });
    const main = within(dialog).getByRole('group', { name: 'Main pot: $30.00' });
    const side = within(dialog).getByRole('group', { name: 'Side pot 1: $20.00' });
    fireEvent.click(within(main).getByLabelText('Ben'));
    expect(
      within(side)
        .getAllByRole('checkbox')
        .some((c) => (c as HTMLInputElement).checked),
    ).toBe(false);
    // Not every pot has a winner: no summary yet.
    expect(dialog.querySelector('.award-summary')).toBeNull();
    expect(within(dialog).getByRole('button', { name: 'Award Pot' })).toHaveProperty('disabled', true);
  });

  it('an all-in showdown on the flop or the turn says which board cards are still to deal', () => {
    let room = threeWay();
    for (let i = 0; i < 3; i++) room = actNow(room, 'CALL');
    room = step(room, 'ana', { type: 'advanceStage' }); // Flop: Ben first
    room = actNow(room, 'ALL_IN'); // Ben
    room = actNow(room, 'CALL'); // Cal
    room = actNow(room, 'FOLD'); // Ana
    expect(room.gameState.stage).toBe('SHOWDOWN');
    show(room, 'cal');
    expect(document.querySelector('.banner.showdown')!.textContent).toBe(
      'All Players All-InDeal the turn and the river first.Host can now declare the winner',
    );
  });

  it('Declare Winner: a split names each share before the tap, the odd cent where the engine puts it', () => {
    const room = oddCentShowdown();
    show(room, 'ana');
    fireEvent.click(screen.getByRole('button', { name: 'Declare Winner' }));
    const dialog = screen.getByRole('dialog', { name: 'Declare Winner' });
    const summary = () => dialog.querySelector('.award-summary')?.textContent;
    expect(summary()).toBeUndefined();
    fireEvent.click(within(dialog).getByLabelText('Ana'));
    expect(summary()).toBe('Ana gets $100.01.');
    fireEvent.click(within(dialog).getByLabelText('Cal'));
    // The odd cent to the first winner left of the dealer (Ana deals: Cal), as the award will give it.
    expect(summary()).toBe('Ana gets $50.00, Cal gets $50.01.');
    expect(dialog.querySelector('.award-summary .nowrap')!.textContent).toBe('$50.00');
  });

  it("a split pot's hand-log line names each share, odd cent and all", () => {
    let room = oddCentShowdown();
    room = step(room, 'ana', { type: 'declareWinners', winnerIds: ['ana', 'cal'] });
    show(room, 'ben');
    const lines = Array.from(document.querySelectorAll('.hand-log li')).map((li) => li.textContent);
    // The odd cent to the first winner left of the dealer (Ana deals: Cal).
    expect(lines).toContain('Pot $100.01 to Cal $50.01, Ana $50.00');
    // Each amount in a span that never breaks inside (styles.css .nowrap; e2e/reflow.test.ts), the
    // words around them plain text.
    const pot = Array.from(document.querySelectorAll('.hand-log li')).find((li) =>
      li.textContent.startsWith('Pot $100.01'),
    )!;
    expect(Array.from(pot.querySelectorAll('.nowrap')).map((s) => s.textContent)).toEqual([
      '$100.01',
      '$50.01',
      '$50.00',
    ]);
  });

  it('all-in showdown: "All Players All-In" banner, one pot, winners picked together', async () => {
    let room = threeWay();
    room = actNow(room, 'ALL_IN'); // Ana $50
    room = actNow(room, 'FOLD'); // Ben
    room = actNow(room, 'CALL'); // Cal all-in for $50
    expect(room.gameState.autoAdvancedReason).toBe('ALL_REMAINING_ALL_IN');
    const { send } = show(room, 'ana');
    // All in before the flop: the header shows five cards for the showdown, the table has none yet.
    expect(document.querySelector('.banner.showdown')!.textContent).toBe(
      'All Players All-InDeal the flop, the turn and the river first.Host can now declare the winner',
    );
    fireEvent.click(screen.getByRole('button', { name: 'Declare Winner' }));
    const dialog = screen.getByRole('dialog', { name: 'Declare Winner' });
    expect(within(dialog).getByRole('group', { name: 'Pot: $101.00' })).toBeTruthy();
    fireEvent.click(within(dialog).getByLabelText('Cal'));
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Award Pot' })));
    expect(send).toHaveBeenCalledWith({ type: 'declareWinners', winnerIds: ['cal'] });
  });

  it("'You're Chipless!' waits for the showdown with an empty pot: not while all-in, nor before the award", () => {
    let room = threeWay();
    room = actNow(room, 'ALL_IN'); // Ana: $0.00 behind, the hand goes on
    show(room, 'ana');
    expect(document.querySelector('.banner.chipless')).toBeNull();
    cleanup();
    room = actNow(room, 'FOLD'); // Ben
    room = actNow(room, 'CALL'); // Cal all-in too: the showdown, its pot not yet awarded
    expect(room.gameState.stage).toBe('SHOWDOWN');
    show(room, 'cal');
    expect(document.querySelector('.banner.chipless')).toBeNull();
    cleanup();
    room = step(room, 'ana', { type: 'declareWinners', winnerIds: ['ana'] });
    show(room, 'cal');
    expect(document.querySelector('.banner.chipless')!.textContent).toBe(
      "You're Chipless!Ask the host for a rebuy to get back in.",
    );
  });

  it('"Betting Complete" when an all-in capped the betting or the last player responded', () => {
    // Ana (D/SB) holds $1.00: her small blind puts her all-in, Ben's big blind covers it, nobody can bet.
    let room = started(['Ana', 'Ben'], { chips: { Ana: 100 } });
    expect(room.gameState.autoAdvancedReason).toBe('BETTING_CAPPED_BY_ALL_IN');
    show(room, 'ana');
    expect(document.querySelector('.banner.showdown')!.textContent).toBe(
      'Betting CompleteDeal the flop, the turn and the river first.Host can now declare the winner',
    );
    cleanup();
    // Ben's $10.00 all-in called by Ana, who has chips left and nobody to bet against.
    room = started(['Ana', 'Ben'], { chips: { Ben: 1_000 } });
    room = actNow(room, 'CALL'); // Ana
    room = actNow(room, 'ALL_IN'); // Ben
    room = actNow(room, 'CALL'); // Ana
    expect(room.gameState.autoAdvancedReason).toBe('LAST_PLAYER_RESPONDED');
    show(room, 'ben');
    expect(document.querySelector('.banner.showdown')!.textContent).toBe(
      'Betting CompleteDeal the flop, the turn and the river first.Host can now declare the winner',
    );
  });

  it("after the award: New Hand for the host, and 'You're Chipless!' for a busted player", () => {
    let room = threeWay();
    room = actNow(room, 'ALL_IN');
    room = actNow(room, 'FOLD');
    room = actNow(room, 'CALL');
    room = step(room, 'ana', { type: 'declareWinners', winnerIds: ['ana'] });
    show(room, 'cal');
    expect(document.querySelector('.banner.chipless')!.textContent).toBe(
      "You're Chipless!Ask the host for a rebuy to get back in.",
    );
    expect(seatRow('Ana').textContent).toContain('Winner');
    cleanup();
    show(room, 'ana');
    expect(screen.getByRole('button', { name: 'New Hand' })).toBeTruthy();
    expect(document.querySelector('.banner.chipless')).toBeNull();
  });

  it("warns 'Only 1 player has money' when nobody else can play a hand", () => {
    let room = started(['Ana', 'Ben']);
    room = actNow(room, 'ALL_IN'); // Ana (D/SB)
    room = actNow(room, 'CALL'); // Ben
    room = step(room, 'ana', { type: 'declareWinners', winnerIds: ['ben'] });
    show(room, 'ana');
    expect(document.querySelector('.banner.warning')!.textContent).toBe(
      'Only 1 player has moneyRebuy or End Game to continue',
    );
    expect(document.querySelector('.banner.chipless')!.textContent).toBe(
      "You're Chipless!You still manage the game as the host, and you can rebuy yourself.",
    );
    expect(screen.queryByRole('button', { name: 'New Hand' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Rebuys' })).toBeTruthy();
    // Ben, the one with money, is not told a new hand is coming: the banner says what is needed.
    cleanup();
    show(room, 'ben');
    expect(document.querySelector('.banner.warning')!.textContent).toBe(
      'Only 1 player has moneyRebuy or End Game to continue',
    );
    expect(document.querySelector('.waiting-line')!.textContent).toBe('Showdown');
  });

  it('plays the winner animation 500 ms after everyone else folded, for about 3 s', () => {
    vi.useFakeTimers();
    let room = threeWay();
    room = actNow(room, 'RAISE', 600);
    room = actNow(room, 'FOLD');
    const { rerender } = show(room, 'ben');
    room = actNow(room, 'FOLD');
    rerender(<Table snapshot={snapshot(room)} me="ben" send={async () => ok} onLeave={async () => ok} />);
    expect(screen.queryByText('Ana wins!')).toBeNull();
    act(() => vi.advanceTimersByTime(499));
    expect(screen.queryByText('Ana wins!')).toBeNull();
    act(() => vi.advanceTimersByTime(1));
    expect(screen.getByText('Ana wins!')).toBeTruthy();
    expect(screen.getByText('All other players folded.')).toBeTruthy();
    act(() => vi.advanceTimersByTime(2_999));
    expect(screen.getByText('Ana wins!')).toBeTruthy();
    act(() => vi.advanceTimersByTime(1));
    expect(screen.queryByText('Ana wins!')).toBeNull();
  });

  it('ends the winner animation when the next hand is dealt before its 3 s are up', () => {
    // A quick host deals while "Ana wins!" shows: the overlay used to stay over the next hands
    // (its end timer was cleared with the hand, and nothing hid it), e2e/long-night.test.ts.
    vi.useFakeTimers();
    let room = threeWay();
    room = actNow(room, 'RAISE', 600);
    room = actNow(room, 'FOLD');
    const { rerender } = show(room, 'ben');
    room = actNow(room, 'FOLD');
    const view = (r: Room) => (
      <Table snapshot={snapshot(r)} me="ben" send={async () => ok} onLeave={async () => ok} />
    );
    rerender(view(room));
    act(() => vi.advanceTimersByTime(1_000));
    expect(screen.getByText('Ana wins!')).toBeTruthy();
    rerender(view(step(room, 'ana', { type: 'newHand' })));
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Pre-Flop');
    expect(screen.queryByText('Ana wins!')).toBeNull();
    act(() => vi.advanceTimersByTime(10_000));
    expect(screen.queryByText('Ana wins!')).toBeNull();
    expect(document.querySelector('.win-overlay')).toBeNull();
  });

  it('does not replay the winner animation when the table opens on a finished hand (a reload)', () => {
    vi.useFakeTimers();
    let room = threeWay();
    room = actNow(room, 'RAISE', 600);
    room = actNow(room, 'FOLD');
    room = actNow(room, 'FOLD');
    show(room, 'ben');
    act(() => vi.advanceTimersByTime(1_000));
    expect(screen.queryByText('Ana wins!')).toBeNull();
  });

  it('keeps a hand log of the engine events', () => {
    let room = threeWay();
    room = actNow(room, 'RAISE', 600);
    room = actNow(room, 'FOLD');
    room = actNow(room, 'FOLD');
    show(room, 'ben');
    const log = screen.getByText('Hand log').closest('details')!;
    const lines = within(log)
      .getAllByRole('listitem')
      .map((li) => li.textContent);
    expect(lines.slice(0, 7)).toEqual([
      'Hand #1 complete',
      'Showdown',
      'Pot $5.00 to Ana',
      '$4.00 returned to Ana',
      'Cal folds',
      'Ben folds',
      'Ana raises to $6.00',
    ]);
    expect(lines).toContain('Ben posts small blind $1.00');
    expect(lines).toContain('Cal posts big blind $2.00');
  });

  it('Fold when a check is free asks first; facing a bet it folds at once', async () => {
    // Pre-flop, Ana and Ben call: Cal, the big blind, can check.
    const room = actNow(actNow(threeWay(), 'CALL'), 'CALL');
    const { send } = show(room, 'cal');
    expect(screen.getByRole('button', { name: 'Check' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Fold' }));
    const ask = screen.getByRole('dialog', { name: 'Fold instead of checking?' });
    expect(within(ask).getByText('Checking is free and keeps you in the hand.')).toBeTruthy();
    expect(send).not.toHaveBeenCalled();
    fireEvent.click(within(ask).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(send).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole('button', { name: 'Fold' }));
    await act(async () => {
      fireEvent.click(
        within(screen.getByRole('dialog', { name: 'Fold instead of checking?' })).getByRole('button', {
          name: 'Fold',
        }),
      );
    });
    const free = { handNumber: 1, stage: 'PRE_FLOP', toCall: 0 };
    expect(send.mock.calls).toEqual([[{ type: 'act', action: 'FOLD', facing: free }]]);
    expect(screen.queryByRole('dialog')).toBeNull();
    // The question also offers what the thumb meant: Check, in one tap.
    send.mockClear();
    fireEvent.click(screen.getByRole('button', { name: 'Fold' }));
    const again = screen.getByRole('dialog', { name: 'Fold instead of checking?' });
    expect(
      within(again)
        .getAllByRole('button')
        .map((b) => b.textContent)
        .filter((text) => text !== ''),
    ).toEqual(['Fold', 'Check', 'Cancel']);
    await act(async () => {
      fireEvent.click(within(again).getByRole('button', { name: 'Check' }));
    });
    expect(send.mock.calls).toEqual([[{ type: 'act', action: 'CALL', facing: free }]]);
    expect(screen.queryByRole('dialog')).toBeNull();
    cleanup();

    // Ana, first to act, faces the big blind: no question.
    const facing = show(threeWay(), 'ana');
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Fold' }));
    });
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(facing.send.mock.calls).toEqual([
      [{ type: 'act', action: 'FOLD', facing: { handNumber: 1, stage: 'PRE_FLOP', toCall: 200 } }],
    ]);
  });

  it('a turn dialog closes when what the player faces changes under it (a phone back online): its Check never calls', async () => {
    // Checked to the flop; Ben, first to act, has nothing to call and opens "Fold instead of checking?"
    // and then the raise dialog. Meanwhile the host checks for him, Cal bets $5.00 and Ana calls.
    let room = threeWay();
    for (let i = 0; i < 3; i++) room = actNow(room, 'CALL');
    room = step(room, 'ana', { type: 'advanceStage' });
    const later = actNow(
      actNow(step(room, 'ana', { type: 'actFor', playerId: 'ben', action: 'CHECK' }), 'RAISE', 500),
      'CALL',
    );
    expect(later.gameState.currentTurnPlayerId).toBe('ben');
    for (const opens of ['Fold', 'Raise']) {
      const { send, rerender } = show(room, 'ben');
      fireEvent.click(screen.getByRole('button', { name: opens }));
      expect(screen.getByRole('dialog')).toBeTruthy();
      rerender(
        <Table snapshot={{ ...snapshot(later), version: 9 }} me="ben" send={send} onLeave={async () => ok} />,
      );
      expect(screen.queryByRole('dialog')).toBeNull();
      expect(screen.getByRole('button', { name: 'Call $5.00' })).toBeTruthy();
      expect(send).not.toHaveBeenCalled();
      cleanup();
    }
  });

  it('host: rebuy dialog adds chips to the chosen player', async () => {
    const { send } = show(threeWay(), 'ana');
    fireEvent.click(screen.getByRole('button', { name: 'Rebuys' }));
    const dialog = screen.getByRole('dialog', { name: 'Player Rebuy' });
    const amount = within(dialog).getByLabelText('Rebuy Amount') as HTMLInputElement;
    expect(amount.placeholder).toBe('25.00');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add Chips' }));
    expect(within(dialog).getByRole('alert').textContent).toBe('Selected player not found');
    fireEvent.change(within(dialog).getByLabelText('Player'), { target: { value: 'ben' } });
    fireEvent.change(amount, { target: { value: '0' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add Chips' }));
    expect(within(dialog).getByRole('alert').textContent).toBe('Please enter a valid positive amount');
    fireEvent.change(amount, { target: { value: '25' } });
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Add Chips' })));
    expect(send).toHaveBeenCalledWith({ type: 'rebuy', playerId: 'ben', amount: 2500 });
  });

  it('host: removes a seated player during the hand, after asking (spec section 4: at any time)', async () => {
    const { send } = show(threeWay(), 'ana');
    // The host's own seat has no remove button; every other seat has one.
    expect(within(seatRow('Ana')).queryByRole('button')).toBeNull();
    expect(within(seatRow('Cal')).getByRole('button', { name: 'Remove Cal' })).toBeTruthy();
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Remove Ben' })));
    const dialog = screen.getByRole('dialog', { name: 'Remove this player from the game?' });
    expect(dialog.querySelector('.modal-text')?.textContent).toBe(
      'Ben. Removing them folds their hand: the $1.00 they have bet stays in the pot. Only stepping away for a while? Sit them out: they keep their seat and chips.',
    );
    expect(send).not.toHaveBeenCalled();
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Remove' })));
    expect(send).toHaveBeenCalledWith({ type: 'remove', playerId: 'ben' });
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('non-host: no remove buttons on the seats', () => {
    show(threeWay(), 'ben');
    expect(screen.queryByRole('button', { name: /^Remove / })).toBeNull();
  });

  it('host: End Game asks first, then ends and settles', async () => {
    const { send } = show(threeWay(), 'ana');
    fireEvent.click(screen.getByRole('button', { name: 'End Game' }));
    const dialog = screen.getByRole('dialog', { name: 'End Game' });
    expect(dialog.textContent).toContain(
      'Are you sure you want to end the game? This will show final results and payouts for all players.',
    );
    await act(async () =>
      fireEvent.click(within(dialog).getByRole('button', { name: 'End Game & Auto-Settle Payouts' })),
    );
    expect(send).toHaveBeenCalledWith({ type: 'endGame' });
  });
});

describe("Table: the host's undo", () => {
  const view = (room: Room, me: string, send: (c: Command) => Promise<Ack<unknown>>) => (
    <Table snapshot={snapshot(room)} me={me} send={send} onLeave={async () => ok} />
  );
  const undoButton = () => screen.queryByRole('button', { name: 'Undo' });
  /** The hand log's newest `n` lines, each as [text, class]. */
  const newestLogLines = (n: number) =>
    within(screen.getByText('Hand log').closest('details')!)
      .getAllByRole('listitem')
      .slice(0, n)
      .map((li) => [li.textContent, li.className]);

  it("the host's Undo works after a player's action and is greyed in a fresh game, in the same place", () => {
    const fresh = threeWay();
    expect(fresh.undo ?? null).toBeNull();
    const { rerender } = show(fresh, 'ana');
    // Nothing to undo: greyed where it will be, so Rebuys beside it never moves under the thumb.
    let controls = screen.getByRole('region', { name: 'Host controls' });
    expect(buttonNames(controls)).toEqual(['Undo', 'Rebuys', 'End Game']);
    expect(undoButton()!.hasAttribute('disabled')).toBe(true);
    expect(undoButton()!.title).toBe('Nothing to undo');
    fireEvent.click(undoButton()!);
    expect(screen.queryByRole('dialog')).toBeNull();
    // Ana calls on her own phone; Ben raises: the host's dock offers to take Ben's raise back.
    const raised = actNow(actNow(fresh, 'CALL'), 'RAISE', 600);
    rerender(view(raised, 'ana', async () => ok));
    controls = screen.getByRole('region', { name: 'Host controls' });
    expect(buttonNames(controls)).toEqual(['Undo', 'Rebuys', 'End Game']);
    expect(undoButton()!.hasAttribute('disabled')).toBe(false);
    expect(undoButton()!.title).toBe('Undo');
    expect(within(controls).getByRole('button', { name: 'Undo' }).getAttribute('aria-haspopup')).toBe(
      'dialog',
    );
  });

  it('a player never sees Undo, not even the one whose action it would take back', () => {
    const raised = actNow(actNow(threeWay(), 'CALL'), 'RAISE', 600);
    expect(raised.undo).not.toBeNull();
    for (const me of ['ben', 'cal']) {
      show(raised, me);
      expect(undoButton()).toBeNull();
      cleanup();
    }
  });

  it("asks 'Undo?' naming the move, and sends the undo with the room's current seq", async () => {
    const raised = actNow(actNow(threeWay(), 'CALL'), 'RAISE', 600);
    const raiseSeq = raised.log.find((e) => e.type === 'playerActed' && e.action === 'RAISE')!.seq;
    expect(raised.undo!.seq).toBe(raiseSeq);
    const { send } = show(raised, 'ana');
    fireEvent.click(undoButton()!);
    const ask = screen.getByRole('dialog', { name: 'Undo?' });
    expect(within(ask).getByText('Take back “Ben raises to $6.00”?')).toBeTruthy();
    expect(send).not.toHaveBeenCalled();
    fireEvent.click(within(ask).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(send).not.toHaveBeenCalled();

    fireEvent.click(undoButton()!);
    await act(async () =>
      fireEvent.click(
        within(screen.getByRole('dialog', { name: 'Undo?' })).getByRole('button', { name: 'Undo' }),
      ),
    );
    expect(send.mock.calls).toEqual([[{ type: 'undo', seq: raiseSeq }]]);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('after the undo: the player to act again, the stack back to the cent, no Undo until the next move, the log says so', () => {
    const called = actNow(threeWay(), 'CALL');
    const raised = actNow(called, 'RAISE', 650);
    const back = step(raised, 'ana', { type: 'undo', seq: raised.undo!.seq });
    show(back, 'ana');
    expect(seatRow('Ben').textContent).toBe('onlineBenSBSmall blindStack $49.00Bet $1.00To act');
    expect(document.querySelector('.pot')!.textContent).toBe('Pot$5.00');
    expect(undoButton()!.hasAttribute('disabled')).toBe(true);
    expect(newestLogLines(3)).toEqual([
      ['Undone by the host: Ben raises to $6.50', ''],
      ['Ben raises to $6.50 (taken back)', 'taken-back'],
      ['Ana calls $2.00', ''],
    ]);
  });

  it('a wrong award seen as the next hand is dealt: Undo takes back the New Hand, then offers the award', async () => {
    // Checked down three ways; the host gives the $6.00 to Ben, deals hand 2, and is told it was Cal's.
    let room = threeWay();
    for (let round = 0; round < 4; round++) {
      if (round > 0) room = step(room, 'ana', { type: 'advanceStage' });
      for (let i = 0; i < 3; i++) room = actNow(room, 'CALL');
    }
    room = step(room, 'ana', { type: 'declareWinners', winnerIds: ['ben'] });
    const dealt = step(room, 'ana', { type: 'newHand' });
    const back = step(dealt, 'ana', { type: 'undo', seq: dealt.undo!.seq });
    const { send } = show(back, 'ana');
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Showdown');
    fireEvent.click(undoButton()!);
    const ask = screen.getByRole('dialog', { name: 'Undo?' });
    expect(within(ask).getByText('Take back “Pot $6.00 to Ben”?')).toBeTruthy();
    await act(async () => fireEvent.click(within(ask).getByRole('button', { name: 'Undo' })));
    expect(send.mock.calls).toEqual([[{ type: 'undo', seq: room.undo!.seq }]]);
    // And once the award is taken back too, both undo lines stay as they are; the award is struck.
    cleanup();
    show(step(back, 'ana', { type: 'undo', seq: back.undo!.seq }), 'ana');
    expect(newestLogLines(3)).toEqual([
      ['Undone by the host: Pot $6.00 to Ben', ''],
      ['Undone by the host: Hand #2', ''],
      ['Ana posts big blind $2.00 (taken back)', 'taken-back'],
    ]);
  });

  it('an award of several pots: the undo question, its notice and its log line name every pot', async () => {
    // Ana all-in for $10.00, Ben for $20.00, Cal calls: a main pot of $30.00 and a side pot of $20.00.
    let room = started(['Ana', 'Ben', 'Cal'], { chips: { Ana: 1_000, Ben: 2_000 } });
    room = actNow(actNow(actNow(room, 'ALL_IN'), 'ALL_IN'), 'CALL');
    const awarded = step(room, 'ana', { type: 'declareWinners', winnerIds: ['cal'] });
    const both = 'Pot $30.00 to Cal; Side pot 1 $20.00 to Cal';
    const { rerender } = show(awarded, 'ana');
    fireEvent.click(undoButton()!);
    const ask = screen.getByRole('dialog', { name: 'Undo?' });
    expect(within(ask).getByText(`Take back “${both}”?`)).toBeTruthy();
    fireEvent.click(within(ask).getByRole('button', { name: 'Cancel' }));
    rerender(view(step(awarded, 'ana', { type: 'undo', seq: awarded.undo!.seq }), 'ana', async () => ok));
    expect(document.querySelector('.table-notice')!.textContent).toBe(`Undone by the host: ${both}`);
    expect(newestLogLines(4)).toEqual([
      [`Undone by the host: ${both}`, ''],
      ['Hand #1 complete (taken back)', 'taken-back'],
      ['Side pot 1 $20.00 to Cal (taken back)', 'taken-back'],
      ['Pot $30.00 to Cal (taken back)', 'taken-back'],
    ]);
  });

  it("a join while the undo point stands is not taken back with it: the latecomer's line is not struck", () => {
    const raised = actNow(actNow(threeWay(), 'CALL'), 'RAISE', 600);
    const joined = step(raised, 'dee', { type: 'join', name: 'Dee', startingChips: 5_000 });
    expect(joined.undo!.seq).toBe(raised.undo!.seq);
    show(step(joined, 'ana', { type: 'undo', seq: joined.undo!.seq }), 'ana');
    expect(newestLogLines(3)).toEqual([
      ['Undone by the host: Ben raises to $6.00', ''],
      ['Dee asks to join with $50.00', ''],
      ['Ben raises to $6.00 (taken back)', 'taken-back'],
    ]);
  });

  it('the winner animation of a fold the host took back goes at once; a fold made again plays it with its own pot', () => {
    vi.useFakeTimers();
    let room = threeWay();
    room = actNow(room, 'RAISE', 600); // Ana
    room = actNow(room, 'FOLD'); // Ben
    const { rerender } = show(room, 'ben');
    // Cal: Ana takes the $5.00 pot and $4.00 of her raise comes back: the $9.00 every screen showed.
    expect(document.querySelector('.pot-line .pot .amount')!.textContent).toBe('$9.00');
    const fold = actNow(room, 'FOLD');
    rerender(view(fold, 'ben', async () => ok));
    act(() => vi.advanceTimersByTime(500));
    expect(screen.getByText('Ana wins!')).toBeTruthy();
    expect(document.querySelector('.win-card .amount')!.textContent).toBe('$9.00');

    const undone = step(fold, 'ana', { type: 'undo', seq: fold.undo!.seq });
    rerender(view(undone, 'ben', async () => ok));
    expect(document.querySelector('.win-overlay')).toBeNull();
    act(() => vi.advanceTimersByTime(10_000));
    expect(document.querySelector('.win-overlay')).toBeNull();
    expect(screen.getByRole('status').textContent).toBe("Cal's Turn Waiting for their action...");

    // Cal folds again: one award in this hand counts, the taken-back one does not.
    rerender(view(actNow(undone, 'FOLD'), 'ben', async () => ok));
    act(() => vi.advanceTimersByTime(500));
    expect(screen.getByText('Ana wins!')).toBeTruthy();
    expect(document.querySelector('.win-card .amount')!.textContent).toBe('$9.00');
  });

  it("every phone says what the host's undo took back, for 6 s; a reload does not say it again", () => {
    vi.useFakeTimers();
    const raised = actNow(threeWay(), 'RAISE', 600); // Ana
    const { rerender } = show(raised, 'cal');
    const undone = step(raised, 'ana', { type: 'undo', seq: raised.undo!.seq });
    rerender(view(undone, 'cal', async () => ok));
    const live = () => screen.getByRole('status').textContent;
    expect(live()).toBe("Undone by the host: Ana raises to $6.00Ana's Turn Waiting for their action...");
    act(() => vi.advanceTimersByTime(5_900));
    expect(document.querySelector('.table-notice')).not.toBeNull();
    act(() => vi.advanceTimersByTime(100));
    expect(live()).toBe("Ana's Turn Waiting for their action...");
    // The table opened after the undo (a reload): nothing to tell.
    cleanup();
    show(undone, 'ben');
    expect(document.querySelector('.table-notice')).toBeNull();
  });

  it('the undo notice goes as soon as the table plays on: the same raise made again is not told as undone', () => {
    vi.useFakeTimers();
    const raised = actNow(threeWay(), 'RAISE', 600); // Ana
    const { rerender } = show(raised, 'cal');
    const undone = step(raised, 'ana', { type: 'undo', seq: raised.undo!.seq });
    rerender(view(undone, 'cal', async () => ok));
    expect(document.querySelector('.table-notice')!.textContent).toBe(
      'Undone by the host: Ana raises to $6.00',
    );
    // A join request is not play: the notice stays.
    const joined = step(undone, 'dee', { type: 'join', name: 'Dee', startingChips: 5_000 });
    rerender(view(joined, 'cal', async () => ok));
    expect(document.querySelector('.table-notice')).not.toBeNull();
    act(() => vi.advanceTimersByTime(1_000));
    rerender(view(actNow(joined, 'RAISE', 600), 'cal', async () => ok));
    expect(document.querySelector('.table-notice')).toBeNull();
    expect(screen.getByRole('status').textContent).toBe("Ben's Turn Waiting for their action...");
  });

  it('undoing New Hand brings the last hand back without playing its winner animation again', () => {
    vi.useFakeTimers();
    let room = threeWay();
    room = actNow(room, 'RAISE', 600);
    room = actNow(room, 'FOLD');
    const { rerender } = show(room, 'ben');
    const won = actNow(room, 'FOLD');
    rerender(view(won, 'ben', async () => ok));
    act(() => vi.advanceTimersByTime(500));
    expect(screen.getByText('Ana wins!')).toBeTruthy();
    act(() => vi.advanceTimersByTime(3_000));
    expect(screen.queryByText('Ana wins!')).toBeNull();

    const dealt = step(won, 'ana', { type: 'newHand' });
    rerender(view(dealt, 'ben', async () => ok));
    rerender(view(step(dealt, 'ana', { type: 'undo', seq: dealt.undo!.seq }), 'ben', async () => ok));
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Showdown');
    act(() => vi.advanceTimersByTime(1_000));
    expect(document.querySelector('.win-overlay')).toBeNull();
    act(() => vi.advanceTimersByTime(10_000));
    expect(document.querySelector('.win-overlay')).toBeNull();
  });
});

const at = (room: Room, version: number): RoomSnapshot => ({ ...snapshot(room), version });
const noConnection: Ack<null> = {
  ok: false,
  error: 'No connection right now. Please try again in a moment.',
};

describe('Table: errors of an earlier press', () => {
  it('an action error goes once the game has moved on (the command went through after all)', async () => {
    const room = started(['Ana', 'Ben', 'Cal']);
    const send = vi.fn(async (_c: Command) => noConnection);
    const { rerender } = render(
      <Table snapshot={at(room, 4)} me="ana" send={send} onLeave={async () => ok} />,
    );
    const actions = screen.getByRole('region', { name: 'Your Turn' });
    await act(async () => fireEvent.click(within(actions).getByRole('button', { name: 'Call $2.00' })));
    expect(screen.getByRole('alert').textContent).toBe(
      'No connection right now. Please try again in a moment.',
    );
    // The call was applied: the next snapshot shows Ben to act.
    rerender(<Table snapshot={at(actNow(room, 'CALL'), 5)} me="ana" send={send} onLeave={async () => ok} />);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it("a host command's error goes once the game has moved on", async () => {
    let room = started(['Ana', 'Ben', 'Cal']);
    room = actNow(room, 'CALL');
    room = actNow(room, 'CALL');
    room = actNow(room, 'CALL');
    const send = vi.fn(async (_c: Command) => noConnection);
    const { rerender } = render(
      <Table snapshot={at(room, 7)} me="ana" send={send} onLeave={async () => ok} />,
    );
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Flop' })));
    expect(screen.getByRole('alert').textContent).toBe(
      'No connection right now. Please try again in a moment.',
    );
    rerender(
      <Table
        snapshot={at(step(room, 'ana', { type: 'advanceStage' }), 8)}
        me="ana"
        send={send}
        onLeave={async () => ok}
      />,
    );
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('an error stays while nothing has changed', async () => {
    const room = started(['Ana', 'Ben', 'Cal']);
    const send = vi.fn(async (_c: Command) => ({ ok: false, error: 'It is not your turn' }) as Ack<null>);
    const { rerender } = render(
      <Table snapshot={at(room, 4)} me="ana" send={send} onLeave={async () => ok} />,
    );
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Fold' })));
    rerender(
      <Table
        snapshot={{ ...at(room, 4), presence: { ana: true, ben: false, cal: true } }}
        me="ana"
        send={send}
        onLeave={async () => ok}
      />,
    );
    expect(screen.getByRole('alert').textContent).toBe('It is not your turn');
  });
});

describe('Table: screen readers and keyboards', () => {
  const view = (room: Room, me: string, version: number) => (
    <Table snapshot={at(room, version)} me={me} send={async () => ok} onLeave={async () => ok} />
  );

  it('announces the turn change in one live region that stays on the screen, "Your Turn" included', () => {
    const room = started(['Ana', 'Ben', 'Cal']);
    const { rerender } = render(view(room, 'ben', 4));
    const live = screen.getByRole('status');
    expect(live.textContent).toBe("Ana's Turn Waiting for their action...");
    // Ana calls: Ben's turn. The same region (present before the change) now says so.
    const bensTurn = actNow(room, 'CALL');
    rerender(view(bensTurn, 'ben', 5));
    expect(screen.getByRole('status')).toBe(live);
    // Read out: the turn; shown beside it (hidden from screen readers, which have the seats): the stack.
    expect(live.textContent).toBe('Your Turn · Stack $49.00');
    expect(live.querySelector('.turn-stack')!.getAttribute('aria-hidden')).toBe('true');
    expect(screen.getByRole('region', { name: 'Your Turn' })).toBeTruthy();
    // Ben calls: Cal's turn, in the same region again.
    rerender(view(actNow(bensTurn, 'CALL'), 'ben', 6));
    expect(screen.getByRole('status')).toBe(live);
    expect(live.textContent).toBe("Cal's Turn Waiting for their action...");
  });

  it('a pressed action button that goes away with the turn leaves focus on the stage heading, not the page', async () => {
    const room = started(['Ana', 'Ben', 'Cal']);
    const { rerender } = render(view(room, 'ana', 4));
    const call = screen.getByRole('button', { name: 'Call $2.00' });
    call.focus();
    await act(async () => fireEvent.click(call));
    rerender(view(actNow(room, 'CALL'), 'ana', 5));
    expect(screen.queryByRole('region', { name: 'Your Turn' })).toBeNull();
    expect(document.activeElement).toBe(screen.getByRole('heading', { level: 1, name: 'Pre-Flop' }));
  });

  it('a dialog whose opener is gone when it closes (Raise after the turn moved on) leaves focus on the stage heading', () => {
    const room = started(['Ana', 'Ben', 'Cal']);
    const { rerender } = render(view(room, 'ana', 4));
    const raise = screen.getByRole('button', { name: 'Raise' });
    raise.focus();
    fireEvent.click(raise);
    expect(document.activeElement).toBe(screen.getByLabelText('Total Bet Amount'));
    // The turn moves on (a second tab, a timeout): the dialog closes itself along with the Raise button.
    rerender(view(actNow(room, 'CALL'), 'ana', 5));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(screen.getByRole('heading', { level: 1, name: 'Pre-Flop' }));
  });
});

describe('Table: a player told what was done for them while away', () => {
  const view = (room: Room, me: string) => (
    <Table snapshot={snapshot(room)} me={me} send={async () => ok} onLeave={async () => ok} />
  );
  const notice = () => document.querySelector('.table-notice')?.textContent ?? null;

  /** Renders `before` on `me`'s phone, then `after` (a snapshot arriving): the notice it shows. */
  function told(before: Room, after: Room, me: string): string | null {
    cleanup();
    const { rerender } = render(view(before, me));
    rerender(view(after, me));
    return notice();
  }

  it("the host's fold for Ben is told on Ben's phone, for 6 s, and on nobody else's", () => {
    vi.useFakeTimers();
    const bensTurn = actNow(threeWay(), 'CALL'); // Ana calls; Ben (small blind) owes $0.50
    const folded = step(bensTurn, 'ana', { type: 'actFor', playerId: 'ben', action: 'FOLD' });
    expect(told(bensTurn, folded, 'cal')).toBeNull();
    expect(told(bensTurn, folded, 'ana')).toBeNull();
    expect(told(bensTurn, folded, 'ben')).toBe('The host folded for you');
    act(() => vi.advanceTimersByTime(6_000));
    expect(notice()).toBeNull();
    // Ben's phone opened after it (a reload): nothing to tell.
    cleanup();
    render(view(folded, 'ben'));
    expect(notice()).toBeNull();
  });

  it('a fold for Ben in a hand already over is not told when his phone is back hands later', () => {
    const bensTurn = actNow(threeWay(), 'CALL');
    let later = step(bensTurn, 'ana', { type: 'actFor', playerId: 'ben', action: 'FOLD' });
    later = actNow(later, 'FOLD'); // Cal folds: Ana wins the hand
    later = step(later, 'ana', { type: 'newHand' });
    expect(later.gameState.handNumber).toBe(2);
    expect(told(bensTurn, later, 'ben')).toBeNull();
  });

  it('an older notice is not told again when a newer one stops counting (a new hand)', () => {
    vi.useFakeTimers();
    const raised = actNow(threeWay(), 'RAISE', 600); // Ana
    const undone = step(raised, 'ana', { type: 'undo', seq: raised.undo!.seq });
    const bensTurn = actNow(undone, 'CALL'); // Ana calls
    cleanup();
    const { rerender } = render(view(bensTurn, 'ben')); // the undo was told before: on the log already
    const folded = step(bensTurn, 'ana', { type: 'actFor', playerId: 'ben', action: 'FOLD' });
    rerender(view(folded, 'ben'));
    expect(notice()).toBe('The host folded for you');
    act(() => vi.advanceTimersByTime(6_000));
    const next = step(actNow(folded, 'FOLD'), 'ana', { type: 'newHand' });
    rerender(view(next, 'ben'));
    expect(notice()).toBeNull();
  });

  it("the host's check for Cal is told on Cal's phone", () => {
    const calsOption = actNow(actNow(threeWay(), 'CALL'), 'CALL'); // Ana and Ben call; Cal (big blind) may check
    const checked = step(calsOption, 'ana', { type: 'actFor', playerId: 'cal', action: 'CHECK' });
    expect(told(calsOption, checked, 'cal')).toBe('The host checked for you');
  });

  it('the host role taken over from an away host is told on that host’s phone; a hand-over on the new host’s', () => {
    const room = threeWay();
    const res = applyCommand(room, 'ben', { type: 'claimHost' }, room.lastActivity + HOST_AWAY_MS);
    if (!res.ok || !res.room) throw new Error('claimHost refused');
    expect(told(room, res.room, 'ana')).toBe('Ben took over as host while you were away');
    expect(told(room, res.room, 'ben')).toBeNull();
    expect(told(room, res.room, 'cal')).toBeNull();
    const handed = step(room, 'ana', { type: 'makeHost', playerId: 'cal' });
    expect(told(room, handed, 'cal')).toBe('Ana made you the host');
    expect(told(room, handed, 'ana')).toBeNull();
  });

  it("the host sitting Ben out, and bringing him back, is told on Ben's phone", () => {
    const room = threeWay();
    const out = step(room, 'ana', { type: 'sitOut', away: true, playerId: 'ben' });
    expect(told(room, out, 'ben')).toBe('The host sat you out from the next hand');
    expect(told(room, out, 'cal')).toBeNull();
    const back = step(out, 'ana', { type: 'sitOut', away: false, playerId: 'ben' });
    expect(told(out, back, 'ben')).toBe('The host brought you back in');
  });
});
