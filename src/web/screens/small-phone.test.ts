/**
 * The table on small and sideways phones (the small-phone review): the turn's buttons stick on a phone
 * turned sideways, Cancel and Confirm Raise stay on screen with the keyboard up, and the winner's seat
 * says what they won. Layout by the real stylesheet at happy-dom's viewport size (its media queries follow it); e2e/reflow.test.ts measures the real thing.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { createElement } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Command } from '../../engine/types';
import type { Ack } from '../../shared/protocol';
import { actNow, lobby, snapshot, started, step } from '../test/rooms';
import { buttonNames, seatRow, showTable } from '../test/table';
import { Table } from './Table';

const ok: Ack<null> = { ok: true, data: null };

afterEach(() => {
  cleanup();
  for (const el of document.head.querySelectorAll('style[data-test]')) el.remove();
  setViewport(1024, 768);
  vi.useRealTimers();
});

function withStylesheet(): void {
  const style = document.createElement('style');
  style.dataset.test = '';
  style.textContent = readFileSync(join(__dirname, '..', 'styles.css'), 'utf8');
  document.head.appendChild(style);
}

function setViewport(width: number, height: number): void {
  (
    window as unknown as { happyDOM: { setViewport(s: { width: number; height: number }): void } }
  ).happyDOM.setViewport({ width, height });
}

/** Three players, $50.00 each: Ana deals (first to act pre-flop), Ben SB, Cal BB. */
const threeWay = () => started(['Ana', 'Ben', 'Cal']);

describe('the dock on a phone turned sideways (568×320)', () => {
  it('sticks on the player’s own turn, with Fold, Call and Raise; not on a phone that waits', () => {
    setViewport(568, 320);
    withStylesheet();
    showTable(threeWay(), 'ana');
    const dock = document.querySelector('.dock') as HTMLElement;
    expect(getComputedStyle(dock).position).toBe('sticky');
    expect(getComputedStyle(dock).bottom).toBe('0px');
    // One row: the turn line beside the buttons, the stack under "Your Turn" without the separator.
    expect(getComputedStyle(dock).flexDirection).toBe('row');
    expect(getComputedStyle(dock).flexWrap).toBe('wrap');
    expect(getComputedStyle(dock.querySelector('.turn-sep') as HTMLElement).display).toBe('none');
    const actions = screen.getByRole('region', { name: 'Your Turn' });
    expect(buttonNames(actions)).toEqual(['Fold', 'Call $2.00', 'Raise']);
    cleanup();
    showTable(threeWay(), 'cal');
    expect(getComputedStyle(document.querySelector('.dock') as HTMLElement).position).not.toBe('sticky');
  });

  it('still sticks on a phone held upright (320×568), and not on a narrow short screen (large text)', () => {
    setViewport(320, 568);
    withStylesheet();
    showTable(threeWay(), 'ana');
    expect(getComputedStyle(document.querySelector('.dock') as HTMLElement).position).toBe('sticky');
    cleanup();
    // 320 px wide, 400 px tall: narrower than 30em, a bar of three buttons one under the other.
    setViewport(320, 400);
    showTable(threeWay(), 'ana');
    expect(getComputedStyle(document.querySelector('.dock') as HTMLElement).position).not.toBe('sticky');
  });
});

describe('large amounts on the dock (a rebuy may be $100,000,000.00)', () => {
  /** Ana (dealer, first to act), Ben (small blind) with $100,000,050.00 each, Cal; Ana raises to `total` cents. */
  const facing = (total: number) => {
    let room = lobby(['Ana', 'Ben', 'Cal']);
    for (const id of ['ana', 'ben'])
      room = step(room, 'ana', { type: 'rebuy', playerId: id, amount: 100_000_000_00 });
    return actNow(step(room, 'ana', { type: 'startGame' }), 'RAISE', total);
  };
  const callAmount = () => document.querySelector('.call-amount') as HTMLElement;

  it('from $100,000.00 the Call button takes half the row, its amount under "Call", smaller; the stack past $999,999.99 smaller too', () => {
    setViewport(320, 568);
    withStylesheet();
    showTable(facing(100_000_000_00), 'ben');
    const actions = screen.getByRole('region', { name: 'Your Turn' });
    // The button's name is whole: "Call" and the amount read as one.
    expect(buttonNames(actions)).toEqual(['Fold', 'Call $99,999,999.00', 'Raise']);
    const row = actions.querySelector('.action-row') as HTMLElement;
    expect(row.className).toBe('action-row long-call');
    expect(getComputedStyle(row).gridTemplateColumns).toBe('minmax(0, 1fr) minmax(0, 2fr) minmax(0, 1fr)');
    expect(getComputedStyle(callAmount()).display).toBe('block');
    expect(document.querySelector('.turn-status')!.className).toBe('turn-status long-stack');
    expect(document.querySelector('.turn-stack')!.textContent).toBe(' · Stack $100,000,049.00');
    cleanup();
    // $100,000.00 is the first; $99,999.99 stays as every call was.
    showTable(facing(100_001_00), 'ben');
    expect(buttonNames(screen.getByRole('region', { name: 'Your Turn' }))).toEqual([
      'Fold',
      'Call $100,000.00',
      'Raise',
    ]);
    expect(document.querySelector('.action-row')!.className).toBe('action-row long-call');
    cleanup();
    showTable(facing(100_000_99), 'ben');
    expect(buttonNames(screen.getByRole('region', { name: 'Your Turn' }))).toEqual([
      'Fold',
      'Call $99,999.99',
      'Raise',
    ]);
    expect(document.querySelector('.action-row')!.className).toBe('action-row');
    expect(getComputedStyle(callAmount()).display).not.toBe('block');
  });
});

describe('the Raise dialog with the keyboard up (320×300)', () => {
  it('keeps Cancel and Confirm Raise at the sheet’s bottom edge, over its padding', async () => {
    setViewport(320, 300);
    withStylesheet();
    // An answer that does not come: the dialog stays, sending.
    const send = vi.fn((_c: Command) => new Promise<Ack<null>>(() => {}));
    render(
      createElement(Table, { snapshot: snapshot(threeWay()), me: 'ana', send, onLeave: async () => ok }),
    );
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Raise' })));
    const dialog = screen.getByRole('dialog', { name: 'Raise' });
    const row = within(dialog).getByRole('button', { name: 'Confirm Raise' }).parentElement as HTMLElement;
    expect(buttonNames(row)).toEqual(['Cancel', 'Confirm Raise']);
    const style = getComputedStyle(row);
    expect(style.position).toBe('sticky');
    // 1.25rem, the sheet's bottom padding (happy-dom's rem: 16 px).
    expect(style.bottom).toBe('calc(-20px - env(safe-area-inset-bottom))');
    // The buttons are the form's end: the slow-connection line, there from the tap on, comes above
    // them, not under them where the sheet scrolls it behind the buttons.
    await act(async () => fireEvent.click(within(row).getByRole('button', { name: 'Confirm Raise' })));
    expect(send).toHaveBeenCalledTimes(1);
    expect(row.nextElementSibling).toBeNull();
    expect(row.previousElementSibling!.getAttribute('role')).toBe('status');
    // Closer together on a short screen, so the amount field shows above the buttons.
    expect(getComputedStyle(dialog.querySelector('.raise-form') as HTMLElement).gap).toBe('0.6rem');
  });
});

describe('the winner’s seat after the award', () => {
  it('says what each winner of a split pot won, the odd cent where the engine put it', () => {
    // Blinds of 1 and 2 cents: Ana (dealer) all-in for $50.00, Ben folds his cent, Cal calls all-in.
    let room = lobby(['Ana', 'Ben', 'Cal']);
    room = step(room, 'ana', { type: 'updateSettings', smallBlind: 1, bigBlind: 2 });
    room = step(room, 'ana', { type: 'startGame' });
    room = actNow(room, 'ALL_IN');
    room = actNow(room, 'FOLD');
    room = actNow(room, 'CALL');
    room = step(room, 'ana', { type: 'declareWinners', winnerIds: ['ana', 'cal'] });
    showTable(room, 'ben');
    expect(seatRow('Ana').querySelector('.seat-numbers')!.textContent).toBe('Stack $50.00Won $50.00Winner');
    expect(seatRow('Cal').querySelector('.seat-numbers')!.textContent).toBe('Stack $50.01Won $50.01Winner');
    expect(seatRow('Ben').querySelector('.seat-won')).toBeNull();
  });

  it('a fold win: the pot as the table showed it, the uncalled raise included, as the overlay says', () => {
    let room = threeWay();
    room = actNow(room, 'RAISE', 600); // Ana to $6.00
    room = actNow(room, 'FOLD'); // Ben ($1.00 in)
    room = actNow(room, 'FOLD'); // Cal ($2.00 in): $5.00 awarded, Ana's uncalled $4.00 back
    showTable(room, 'cal');
    expect(seatRow('Ana').querySelector('.seat-won')!.textContent).toBe('Won $9.00');
    expect(seatRow('Ana').querySelector('.seat-numbers')!.textContent).toBe('Stack $53.00Won $9.00Winner');
  });

  it('a showdown won by the last opponent leaving: the pot the table showed, not the bet returned before it', () => {
    vi.useFakeTimers();
    // Ana $50 (dealer, first to act), Ben $50 (SB), Cal $10 (BB).
    let room = lobby(['Ana', 'Ben', 'Cal'], { chips: { Cal: 1000 } });
    room = step(room, 'ana', { type: 'startGame' });
    room = actNow(room, 'RAISE', 3000); // Ana to $30
    room = actNow(room, 'FOLD'); // Ben, $1.00 in
    room = actNow(room, 'ALL_IN'); // Cal's $10: Ana's uncalled $20 back, a $21.00 showdown
    expect([room.gameState.stage, room.players.ana!.stack]).toEqual(['SHOWDOWN', 4000]);
    const { update } = showTable(room, 'ben');
    room = step(room, 'cal', { type: 'leave' }); // Ana takes the $21.00 pot
    expect(room.players.ana!.stack).toBe(6100);
    update(room);
    expect(seatRow('Ana').querySelector('.seat-won')!.textContent).toBe('Won $21.00');
    // The fold win's overlay says the same.
    act(() => vi.advanceTimersByTime(500));
    expect(document.querySelector('.win-overlay .amount')!.textContent).toBe('$21.00');
  });

  it('is gone once the next hand is dealt', () => {
    let room = threeWay();
    room = actNow(room, 'FOLD');
    room = actNow(room, 'FOLD');
    room = step(room, 'ana', { type: 'newHand' });
    showTable(room, 'ana');
    expect(document.querySelector('.seat-won')).toBeNull();
  });
});

describe('the host’s two seat buttons (remove, and "Move Ben to a New Phone" while his phone is away)', () => {
  const areas = (name: string) => getComputedStyle(seatRow(name)).gridTemplateAreas.replace(/\s+/g, ' ');

  // A seat with both buttons goes to three rows from 20.25em down, one with remove alone from 18em (at
  // 16 px text: 324 and 288 px). happy-dom reads a media query's em from the page's font size (17 px
  // here: 20.25em is 344 px), a browser as the default text size: the sizes below are in happy-dom's ems.
  it('sit beside the name, move left of remove; under it a little sooner than remove alone', () => {
    setViewport(360, 640);
    withStylesheet();
    showTable(threeWay(), 'ana', ['ben']);
    const ben = seatRow('Ben');
    expect(buttonNames(ben)).toEqual(['Move Ben to a New Phone', 'Remove Ben']);
    expect(getComputedStyle(ben.querySelector('.seat-move') as HTMLElement).gridArea).toMatch(/^move\b/);
    expect(areas('Ben')).toContain('"dot name badge move remove"');
    expect(areas('Cal')).toContain('"dot name badge move remove"');
    cleanup();
    // Between 18em and 20.25em: Ben's buttons go under his name (beside a badge and both, the name
    // would be under eight letters wide; styles.css), Cal's seat keeps its one row. 340 px here is a
    // 320 px phone's 20em: "Bartholomew Smithers" broke in four lines there beside both buttons.
    for (const width of [340, 330]) {
      cleanup();
      setViewport(width, 568);
      showTable(threeWay(), 'ana', ['ben']);
      expect(areas('Ben'), `at ${width}`).toContain('". . badge move remove"');
      expect(areas('Cal'), `at ${width}`).toContain('"dot name badge move remove"');
    }
  });
});
