/**
 * A phone goes flat at the table (session 40, the engine's seatLink): Chromium, `npm start`, three
 * phones and a borrowed one. Ann hosts, Bob and Cal play, $50.00 each, blinds $1.00 / $2.00 (the
 * lobby's defaults). Hand 1: Ann deals and calls; Bob (small blind) is to act when his phone dies (its
 * page gone). Ann's phone offers "Move Bob to a New Phone" on Bob's seat; its link, opened on Dee's
 * phone (a browser of its own, as a friend's private tab is), makes that phone Bob: his seat, his
 * $49.00, his turn. He calls from there, and every phone sees it. Cal's log says a link was made, and
 * that the seat moved; the same link opened on a third phone then takes nothing (it works once).
 */
import { describe, expect, it } from 'vitest';
import {
  chiplessSuite,
  expectContains,
  expectHidden,
  expectText,
  expectVisible,
  type Phone,
} from './browser';
import { act, button, dialog, hostControls, seat, startGame, yourTurn } from './screen';

const chipless = chiplessSuite({ phones: ['Ann', 'Bob', 'Cal'] });
const { phones } = chipless;

describe('moving a seat to a new phone', () => {
  it("the host's link makes a borrowed phone Bob: his seat, his chips, his turn", async () => {
    const [ann, bob, cal] = phones as [Phone, Phone, Phone];
    await startGame(ann, [bob, cal]);
    await act(ann, 'Call $2.00');
    await expectVisible(yourTurn(bob.page));
    // No button while Bob's phone is at the table.
    await expectHidden(button(ann.page, 'Move Bob to a New Phone'));

    // Bob's phone dies.
    await bob.page.goto('about:blank');
    await expectContains(seat(ann.page, 'Bob'), ['offline']);
    await button(ann.page, 'Move Bob to a New Phone').click();
    const box = dialog(ann.page, 'Move Bob to a New Phone');
    await expectText(
      box.getByRole('status'),
      "Open this link on Bob's new phone, or scan the code. Bob's seat and chips move to it. The link works once, for 15 minutes.",
    );
    await expectVisible(box.getByRole('img', { name: 'QR code to move Bob to a new phone' }));
    const shown = ((await box.locator('.join-link').textContent()) ?? '').trim();
    expect(shown).toMatch(/\/\?seat=[A-Z0-9]{5}\./);
    const link = `${new URL(chipless.server.url).protocol}//${shown}`;

    // Cal's log tells the table.
    await cal.page.getByText('Hand log').click();
    await expectVisible(
      cal.page.locator('.hand-log li', { hasText: 'Host made a link to move Bob to a new phone' }),
    );

    // Dee lends Bob her phone (a private tab): the link opens Bob's seat there.
    const dee = await chipless.openPhone('Dee');
    await dee.page.goto(link);
    await expectContains(seat(dee.page, 'Bob'), ['(You)', '$49.00']);
    await expectVisible(yourTurn(dee.page));
    expect(new URL(dee.page.url()).search).toBe('');
    // Ann's dialog sees the seat connected again; the link is gone from it.
    await expectText(box.getByRole('status'), "Bob's seat is connected again. Nothing more to do.");
    await expectHidden(box.locator('.join-link'));
    await button(box, 'Done').click();
    await expectContains(seat(ann.page, 'Bob'), ['online']);
    await expectHidden(button(ann.page, 'Move Bob to a New Phone'));
    await expectVisible(cal.page.locator('.hand-log li', { hasText: "Bob's seat moved to a new phone" }));
    // The link works once: a photo of its QR code, opened on another phone, takes nothing.
    const eve = await chipless.openPhone('Eve');
    await eve.page.goto(link);
    await expectVisible(
      eve.page.getByText(
        'This link no longer works: the seat has a phone again. Ask the host for a new one if the seat is yours.',
      ),
    );
    await expectVisible(button(eve.page, 'Start a Game'));

    // Bob calls from Dee's phone; every phone sees it, and a reload keeps him Bob.
    await act(dee, 'Call $1.00');
    for (const p of [ann, cal, dee]) await expectContains(seat(p.page, 'Bob'), ['$48.00']);
    await dee.page.reload();
    await expectContains(seat(dee.page, 'Bob'), ['(You)', '$48.00']);
    await expectVisible(yourTurn(cal.page));

    // The night ends; Dee's phone sees Bob's results, then, back home, it is Dee's own again: it starts
    // a game of its own (Bob's credentials there were for Ann's game only), and Bob's results are not
    // offered to it.
    await button(hostControls(ann.page), 'End Game').click();
    await button(dialog(ann.page, 'End Game'), 'End Game & Auto-Settle Payouts').click();
    await expectVisible(dee.page.getByText('No settlements needed.'));
    await button(dee.page, 'Back to Home').click();
    const leaving = dialog(dee.page, 'Leave the results?');
    await expectContains(leaving, ['This phone held the seat for this game only']);
    await button(leaving, 'Back to Home').click();
    await expectVisible(button(dee.page, 'Start a Game'));
    await expectHidden(dee.page.getByRole('button', { name: /Last Game/ }));
    // In the same page, no reload (a load would start as its own player anyway: client.ts).
    await button(dee.page, 'Start a Game').click();
    const create = dialog(dee.page, 'Start a Game');
    await create.getByLabel('Your Name').fill('Dee');
    await button(create, 'Create Room').click();
    await expectVisible(dee.page.getByRole('heading', { name: 'Game Lobby' }));
    await expectContains(dee.page.getByRole('listitem').filter({ hasText: 'Dee' }), ['(You)']);
  });
});
