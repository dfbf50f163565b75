/**
 * Locators for the app's screens, by the roles, labels and texts of src/web (a few display-only lines
 * by their class), shared by the e2e suites.
 */
import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import {
  eventually,
  expectContains,
  expectHidden,
  expectText,
  expectVisible,
  type Phone,
  squash,
} from './browser';

export const dialog = (page: Page, name: string) => page.getByRole('dialog', { name });
/** A button by its accessible name: exactly, for a string. */
export const button = (scope: Page | Locator, name: string | RegExp) =>
  scope.getByRole('button', typeof name === 'string' ? { name, exact: true } : { name });

/** The seat row of a player at the table. */
export const seat = (page: Page, name: string) =>
  page
    .getByRole('list', { name: /^Hand #\d+$/ })
    .getByRole('listitem')
    .filter({ has: page.locator('.player-name', { hasText: name }) });

export const stage = (page: Page) => page.getByRole('heading', { level: 1 });
export const pot = (page: Page) => page.locator('.pot-line .pot');
export const yourTurn = (page: Page) => page.getByRole('region', { name: 'Your Turn' });
export const waitingLine = (page: Page) => page.locator('.waiting-line');
export const hostControls = (page: Page) => page.getByRole('region', { name: 'Host controls' });
/** The "Reconnecting…" line while the phone's socket is down. */
export const reconnecting = (page: Page) => page.getByRole('status').filter({ hasText: 'Reconnecting…' });

/**
 * Opens the home screen and creates or joins a room through its form, as `name`, with `chips` when
 * given (else the form's default) and, for a join, the room `code`; waits for the lobby. `press` is
 * how a control is pressed (a click unless the suite taps at a person's pace).
 */
export async function enterRoom(
  page: Page,
  form: 'Start a Game' | 'Join with Code',
  {
    name,
    chips,
    code,
    press = (l) => l.click(),
  }: {
    name: string;
    chips?: string;
    code?: string;
    press?: (control: Locator) => Promise<void>;
  },
): Promise<void> {
  await page.goto('/');
  await press(button(page, form));
  const box = page.getByRole('dialog');
  if (code) await box.getByLabel('Room Code').fill(code);
  await box.getByLabel('Your Name').fill(name);
  if (chips !== undefined) await box.getByLabel('Starting Chips').fill(chips);
  await press(button(box, form === 'Start a Game' ? 'Create Room' : 'Join Room'));
  await expectVisible(page.getByRole('heading', { name: 'Game Lobby' }));
}

/**
 * A host and guests in one room, $50.00 each (`enterRoom`), every guest approved, the game started;
 * returns the room code.
 */
export async function startGame(host: Phone, guests: readonly Phone[]): Promise<string> {
  await enterRoom(host.page, 'Start a Game', { name: host.name, chips: '50' });
  const code = squash((await host.page.locator('.room-code').textContent()) ?? '');
  for (const p of guests) {
    await enterRoom(p.page, 'Join with Code', { name: p.name, chips: '50', code });
    await button(host.page, `Approve ${p.name}`).click();
  }
  await button(host.page, 'Start Game').click();
  return code;
}

/** Presses a button of `who`'s turn and waits until the turn has left the phone. */
export async function act(who: Phone, label: string): Promise<void> {
  await button(yourTurn(who.page), label).click();
  await expectHidden(yourTurn(who.page));
}

/** What every phone at the table must show: stage, pot, parts of each seat, whose turn it is. */
export interface HandState {
  stage: string;
  pot: string;
  seats: Record<string, string[]>;
  turn: Phone;
}

/** Dollars in "$1,234.56" as cents. */
const cents = (s: string) => Math.round(Number(s.replace(/[$,]/g, '')) * 100);

/** Every stack on `p`'s screen plus its pot come to `total` cents (what was brought to the table). */
export async function expectConserved(p: Phone, names: readonly string[], total: number): Promise<void> {
  await eventually(async () => {
    const potText = squash((await pot(p.page).textContent()) ?? '');
    const stacks: number[] = [];
    for (const name of names) {
      const text = squash((await seat(p.page, name).textContent()) ?? '');
      const m = /Stack\s*(\$[\d,.]+)/.exec(text);
      if (!m) throw new Error(`${p.name}: no stack for ${name} in ${text}`);
      stacks.push(cents(m[1]!));
    }
    const m = /Pot\s*(\$[\d,.]+)/.exec(potText);
    if (!m) throw new Error(`${p.name}: no pot in ${potText}`);
    expect(stacks.reduce((a, b) => a + b, 0) + cents(m[1]!), `${p.name}: stacks + pot`).toBe(total);
  });
}

/**
 * `state` on every phone of `seated`: stage, pot, seats, the turn (its buttons on that phone, the
 * waiting line on the others); and, given `chips`, the stacks of `chips.names` plus the pot adding up
 * to `chips.total` cents on each.
 */
export async function expectHand(
  state: HandState,
  seated: readonly Phone[],
  chips?: { names: readonly string[]; total: number },
): Promise<void> {
  for (const p of seated) {
    await expectText(stage(p.page), state.stage);
    await expectText(pot(p.page), state.pot);
    for (const [name, parts] of Object.entries(state.seats)) await expectContains(seat(p.page, name), parts);
    if (p === state.turn) {
      await expectVisible(yourTurn(p.page));
    } else {
      await expectText(waitingLine(p.page), `${state.turn.name}'s Turn Waiting for their action...`);
      await expectHidden(yourTurn(p.page));
    }
    if (chips) await expectConserved(p, chips.names, chips.total);
  }
}

/** Marks a page's window, so `expectNoReload` can tell the page was never loaded again. */
export async function mark(p: Phone): Promise<void> {
  await p.page.evaluate(() => Object.assign(window, { chiplessE2eMark: true }));
}

/** The page still has the mark `mark` left: it was never loaded again. */
export async function expectNoReload(p: Phone): Promise<void> {
  expect(await p.page.evaluate(() => 'chiplessE2eMark' in window), `${p.name} was reloaded`).toBe(true);
}
