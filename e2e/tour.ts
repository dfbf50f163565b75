/**
 * Every screen and dialog of the app, visited in one short night by three phones: the host, a guest
 * and a late joiner (left pending), with $9,999.99 buy-ins so every amount is long. `visit` is called
 * on each, with the phone that shows it and the screen's name; it may resize the phone or change its
 * text size, and must leave the page as it found it (the tour goes on from there).
 * Shared by reflow.test.ts (layout at six sizes) and a11y.test.ts (axe-core's WCAG rules).
 */
import type { Phone } from './browser';
import { expectHidden, expectVisible } from './browser';
import { button, dialog, enterRoom, yourTurn } from './screen';

export type Visit = (phone: Phone, screen: string) => Promise<void>;

export async function tourEveryScreen([host, guest, late]: readonly [Phone, Phone, Phone], visit: Visit) {
  const { page } = host;
  await page.goto('/');
  // The page's load event can come before React has drawn the landing: axe once read an empty page
  // (no main landmark, no heading) on a loaded CI machine.
  await expectVisible(page.locator('main.landing h1'));
  await visit(host, 'landing');
  await button(page, 'How to play, FAQ and contact').click();
  await visit(host, 'menu');
  await page.keyboard.press('Escape');
  await button(page, 'Start a Game').click();
  await visit(host, 'create');
  await page.keyboard.press('Escape');
  await button(page, 'Join with Code').click();
  await visit(host, 'join');
  await page.keyboard.press('Escape');

  // The largest buy-in, so every amount on the table and at the end is long ($19,999.98).
  await enterRoom(page, 'Start a Game', { name: host.name, chips: '9999.99' });
  const code = ((await page.locator('.room-code').textContent()) ?? '').trim();
  await enterRoom(guest.page, 'Join with Code', { name: guest.name, code, chips: '9999.99' });
  await enterRoom(late.page, 'Join with Code', { name: late.name, code });
  await visit(host, 'lobby-host-pending');
  await visit(guest, 'lobby-pending');
  await button(page, `Approve ${guest.name}`).click();
  await expectVisible(guest.page.getByText('Waiting for host to start the game'));
  await visit(guest, 'lobby-guest');
  await visit(host, 'lobby-host');
  await button(page, 'Settings').click();
  await visit(host, 'settings');
  await page.keyboard.press('Escape');
  await button(page, 'Arrange Seats').click();
  await visit(host, 'seats');
  await page.keyboard.press('Escape');
  await button(page, 'End game session').click();
  await visit(host, 'end-session');
  await page.keyboard.press('Escape');

  // Hand 1: the host (dealer, small blind) acts first; the late joiner waits for approval.
  await button(page, 'Start Game').click();
  await expectVisible(yourTurn(page));
  await visit(host, 'table-host-turn');
  // The guest's phone at the table too: a check made while its lobby gives way to the table reads a
  // page in between (axe-core found no heading there once).
  await expectVisible(guest.page.getByRole('heading', { level: 1, name: 'Pre-Flop' }));
  await visit(guest, 'table-guest');
  await button(guest.page, 'Leave game').click();
  await visit(guest, 'leave');
  // Sitting out instead, and back (it changes nothing in the hand on the table).
  await button(dialog(guest.page, 'Leave this game?'), 'Sit Out Instead').click();
  // Still in the hand: "You sit out from the next hand" and Stay In.
  await expectVisible(button(guest.page, 'Stay In'));
  await visit(guest, 'table-sitting-out');
  await button(guest.page, 'Stay In').click();
  await expectVisible(button(guest.page, 'Leave game'));
  await guest.page.getByRole('button', { name: 'Stay In' }).waitFor({ state: 'detached' });
  // The host's phone has him back in too, so the remove dialog below is the plain one (a guest sitting
  // out gets "Bring Back Instead" and more text).
  await expectHidden(page.getByText('Sits out next hand'));
  await button(page, 'Leave game').click();
  await visit(host, 'hand-over');
  await page.keyboard.press('Escape');
  await button(page, `Remove ${guest.name}`).click();
  await visit(host, 'remove');
  await page.keyboard.press('Escape');
  await button(yourTurn(page), 'Raise').click();
  await visit(host, 'raise');
  await button(dialog(page, 'Raise'), /^All-In/).click();
  await button(dialog(page, 'Raise'), 'Confirm Raise').click();
  await button(yourTurn(guest.page), 'Call $9,997.99').click();
  await button(page, 'Declare Winner').click();
  await dialog(page, 'Declare Winner').getByRole('checkbox', { name: guest.name }).check();
  // With a winner ticked: the summary of who gets what ("… gets $19,999.98.") above Award.
  await expectVisible(dialog(page, 'Declare Winner').locator('.award-summary'));
  await visit(host, 'winner');
  await button(dialog(page, 'Declare Winner'), 'Award Pot').click();
  await expectVisible(page.getByText("You're Chipless!"));
  await visit(host, 'table-host-chipless');
  // The hand log open, its lines holding the night's longest amounts ("Pot $19,999.98 to …").
  await page.getByText('Hand log').click();
  await expectVisible(page.locator('.hand-log li').first());
  await visit(host, 'hand-log');
  await page.getByText('Hand log').click();
  await expectHidden(page.locator('.hand-log li').first());
  await button(page, 'Arrange Seats').click();
  await visit(host, 'seats-between-hands');
  await page.keyboard.press('Escape');
  await button(page, 'Change Blinds').click();
  await visit(host, 'blinds-at-the-table');
  await page.keyboard.press('Escape');
  // The room's code in the footer, for a friend who arrives late: the invite, its QR code drawn.
  await button(page, `Room ${code}: invite a friend`).click();
  await expectVisible(
    dialog(page, 'Invite a Friend').getByRole('img', { name: `QR code to join room ${code}` }),
  );
  await visit(host, 'invite-at-the-table');
  await page.keyboard.press('Escape');
  // The guest's phone gone (its page closed): the host moves the seat to a new phone, the link drawn.
  await guest.page.goto('about:blank');
  await button(page, `Move ${guest.name} to a New Phone`).click();
  await expectVisible(
    dialog(page, `Move ${guest.name} to a New Phone`).getByRole('img', {
      name: `QR code to move ${guest.name} to a new phone`,
    }),
  );
  await visit(host, 'seat-link');
  await page.keyboard.press('Escape');
  await button(page, 'Undo').click();
  await visit(host, 'undo');
  await page.keyboard.press('Escape');
  await button(page, 'Rebuys').click();
  await visit(host, 'rebuy');
  await page.keyboard.press('Escape');
  await button(page, 'End Game').click();
  await visit(host, 'end-game');
  await button(dialog(page, 'End Game'), 'End Game & Auto-Settle Payouts').click();
  await expectVisible(page.locator('.settlements li'));
  await visit(host, 'game-over');
  await button(page, 'Back to Home').click();
  await visit(host, 'game-over-leave');
  await page.keyboard.press('Escape');
  await page.goto('/about');
  await expectVisible(page.getByRole('heading', { level: 1 }));
  await visit(host, 'about');
  await page.goto('/faq');
  await expectVisible(page.getByRole('heading', { level: 1 }));
  await visit(host, 'faq');
}
