/**
 * Locators for the app's screens, by the roles, labels and texts of src/web (a few display-only lines
 * by their class), shared by the e2e suites.
 */
import type { Locator, Page } from 'playwright-core';
import { expectVisible } from './browser';

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
