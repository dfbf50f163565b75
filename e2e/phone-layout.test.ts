/**
 * One-handed use on a small phone (360×640): two players with the longest names the app takes (20
 * wide characters, told apart only by their last one). The screen must never scroll sideways, the
 * turn's buttons must be reachable (on screen, at least 44 px tall), and every name must be readable
 * where the host picks the winner. The raise dialog is also tried on the smallest phone (320×568),
 * with an error in it.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { chiplessSuite, expectHidden, expectText, expectVisible, type Phone } from './browser';
import { button, enterRoom } from './screen';

const SMALL_PHONE = { width: 360, height: 640 };
const SMALLEST_PHONE = { width: 320, height: 568 };
const NO_CONNECTION = 'No connection right now. Please try again in a moment.';
const HOST = 'WWWWWWWWWWWWWWWWWWW1';
const GUEST = 'WWWWWWWWWWWWWWWWWWW2';

const { phones } = chiplessSuite({ phones: [HOST, GUEST], viewport: SMALL_PHONE });

/** How far the page reaches past the viewport's right edge (0: it does not scroll sideways). */
const sidewaysOverflow = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

/**
 * How many elements the selector found, and those whose box does not lie within the viewport's width
 * or whose text is cut. The count is asserted too: a selector that finds nothing would otherwise pass.
 */
const fitsAcross = (page: Page, selector: string) =>
  page.locator(selector).evaluateAll((els) => ({
    found: els.length,
    misfits: els
      .filter((el) => {
        const box = el.getBoundingClientRect();
        return !(
          box.left >= 0 &&
          box.right <= document.documentElement.clientWidth &&
          el.scrollWidth <= el.clientWidth
        );
      })
      .map((el) => `${el.tagName.toLowerCase()}.${el.className} "${el.textContent}"`),
  }));

/** The buttons are on screen (not below the fold) and at least 44 px tall. */
async function expectReachable(page: Page, labels: string[]) {
  const turn = page.getByRole('region', { name: 'Your Turn' });
  await expectVisible(turn);
  for (const label of labels) {
    const box = await button(turn, label).boundingBox();
    expect(box, label).not.toBeNull();
    expect(box!.height, label).toBeGreaterThanOrEqual(44);
    expect(box!.y + box!.height, label).toBeLessThanOrEqual(SMALL_PHONE.height);
  }
}

describe('a small phone, the longest names', () => {
  it('nothing scrolls sideways, turns are reachable, the winner dialog and the settlements show whole names', async () => {
    const [host, guest] = phones as [Phone, Phone];
    await enterRoom(host.page, 'Start a Game', { name: HOST });
    const code = ((await host.page.locator('.room-code').textContent()) ?? '').trim();
    await enterRoom(guest.page, 'Join with Code', { name: GUEST, code });
    await button(host.page, `Approve ${GUEST}`).click();
    await button(host.page, 'Start Game').click();

    // Hand 1: heads-up the host (dealer, small blind) acts first; the guest reads "{host}'s Turn".
    await expectReachable(host.page, ['Fold', 'Call $1.00', 'Raise']);
    await expectText(guest.page.locator('.waiting-line'), `${HOST}'s Turn Waiting for their action...`);
    for (const phone of phones) expect(await sidewaysOverflow(phone.page), phone.name).toBe(0);

    // The host folds: "{guest} wins!" plays on every phone, within the screen. Guest $51, host $49.
    await button(host.page, 'Fold').click();
    for (const phone of phones) {
      await expectVisible(phone.page.locator('.win-overlay'));
      expect(await fitsAcross(phone.page, '.win-card, .win-title'), phone.name).toEqual({
        found: 2,
        misfits: [],
      });
    }

    // Hand 2: the guest deals and goes all-in ($49.00, capped by the host's stack); the host calls.
    await button(host.page, 'New Hand').click();
    // On the smallest phone (320×568), a raise that fails for want of a connection says so with
    // Confirm still on screen: the three-line 'No connection…' once pushed it 114 px below the edge.
    await guest.page.setViewportSize(SMALLEST_PHONE);
    await button(guest.page.getByRole('region', { name: 'Your Turn' }), 'Raise').click();
    const raise = guest.page.getByRole('dialog', { name: 'Raise' });
    await guest.context.setOffline(true);
    await button(raise, 'Confirm Raise').click();
    await expectText(raise.getByRole('alert'), NO_CONNECTION, 20_000);
    for (const part of [raise.getByRole('alert'), button(raise, 'Confirm Raise')]) {
      const box = await part.boundingBox();
      expect(box).not.toBeNull();
      expect(box!.y).toBeGreaterThanOrEqual(0);
      expect(box!.y + box!.height).toBeLessThanOrEqual(SMALLEST_PHONE.height);
    }
    await guest.context.setOffline(false);
    await expectHidden(raise.getByRole('alert'));
    await guest.page.setViewportSize(SMALL_PHONE);
    await button(raise, /^All-In/).click();
    await button(raise, 'Confirm Raise').click();
    await expectReachable(host.page, ['Fold', 'Call $47.00']);
    await button(host.page, 'Call $47.00').click();

    // The host declares the winner among two names that differ in the last letter.
    await button(host.page, 'Declare Winner').click();
    const winner = host.page.getByRole('dialog', { name: 'Declare Winner' });
    await expectVisible(winner);
    // Two names to pick from: each label and the name in it.
    expect(await fitsAcross(host.page, '.choice, .choice > span')).toEqual({ found: 4, misfits: [] });
    await winner.getByRole('checkbox', { name: GUEST }).check();
    await button(winner, 'Award Pot').click();

    // Game over: who pays whom, with the amount on screen.
    await button(host.page, 'End Game').click();
    await button(
      host.page.getByRole('dialog', { name: 'End Game' }),
      'End Game & Auto-Settle Payouts',
    ).click();
    for (const phone of phones) {
      await expectText(phone.page.locator('.settlements li'), `${HOST} owes ${GUEST} $50.00`);
      expect(
        await fitsAcross(phone.page, '.game-over-head h1, .settlements li, .settlements .amount'),
        phone.name,
      ).toEqual({ found: 3, misfits: [] });
      expect(await sidewaysOverflow(phone.page), phone.name).toBe(0);
    }
  });
});
