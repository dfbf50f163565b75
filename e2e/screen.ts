/**
 * Locators for the app's screens, by the roles, labels and texts of src/web (a few display-only lines
 * by their class), shared by the e2e suites.
 */
import type { Locator, Page } from 'playwright-core';

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
