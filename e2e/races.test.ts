/**
 * Races between phones: what a phone shows when another phone (another player, or the host's own
 * second tab) changes the room while this one has a dialog open. Real Chromium, real `npm start`.
 *
 * Ann hosts with two tabs of the same seat (tab 1 `ann.page`, tab 2 `tab2`); Bob, Cat and Dan play;
 * $50.00 each.
 *   Lobby: tab 1 asks "Remove this player from the game?" for Cat while tab 2 removes her: tab 1's
 *   question goes (it would only earn 'Selected player not found'). Cat joins again and is approved.
 *   Tab 1 opens the settings, tab 2 saves $0.25 / $0.50: tab 1's dialog shows them (a Save there no
 *   longer puts $1.00 / $2.00 back). Tab 2 starts the game: tab 1 is at the table, no dialog open.
 *   Hand 1 (Ann D, Bob SB 25, Dan BB 50, Cat first): Cat opens Raise and types an amount; tab 2 removes
 *   her: Cat's phone is home with "You were removed from the game.", no dialog, its buttons work.
 *   Ann calls, Bob calls, Dan checks (pot 150); checked down to the showdown. Tab 1 ticks Bob and Dan
 *   in Declare Winner, Dan leaves from his phone: tab 1 shows Ann and Bob, Bob ticked, "Award Pot";
 *   Bob gets 150 (Ann 4950, Bob 5100; Dan left with 4950).
 *   Between hands tab 1 arranges the seats (Bob, Ann): every phone lists Bob first and logs it. Tab 1
 *   Bob sits out from his leave button: no New Hand in either tab ("Only 1 player is in") until his
 *   "Stay In"; again, and tab 2's open remove dialog, asked before, offers "Bring Back Instead", which
 *   brings him back. Tab 1 opens Arrange Seats again and tab 2 deals: tab 1's dialog goes (the seats change
 *   between hands only).
 *   Hand 2 (heads-up, Bob D/SB, as before: the button goes on from Ann): Bob opens Raise and types an amount; tab 1 opens the End Game
 *   confirmation; tab 2 ends the game. Every phone is on the game-over screen with no dialog: "Bob Left
 *   em' all Chipless!", "Ann owes Bob $0.50" and "Dan owes Bob $0.50"; Bob's Back to Home works.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  chiplessSuite,
  eventually,
  expectContains,
  expectHidden,
  expectText,
  expectValue,
  expectVisible,
  type Phone,
  shot,
  squash,
} from './browser';
import { act, button, dialog, enterRoom, hostControls, seat, stage, yourTurn } from './screen';

const chipless = chiplessSuite({ phones: ['Ann', 'Bob', 'Cat', 'Dan'] });
const { phones } = chipless;
let tab2: Page;
let code = '';

const phone = (name: string) => phones.find((p) => p.name === name)!;
const REMOVE = 'Remove this player from the game?';

/** No dialog on the page, and nothing left inert behind one that went away. */
async function expectNoDialog(page: Page) {
  await expectHidden(page.getByRole('dialog'));
  expect(await page.locator('#root[inert]').count()).toBe(0);
}

/** Removes `name` from the host's tab 2 (the remove button, then the confirmation). */
async function removeFromTab2(name: string) {
  await button(tab2, `Remove ${name}`).click();
  await button(dialog(tab2, REMOVE), 'Remove').click();
  await expectHidden(dialog(tab2, REMOVE));
}

/** Removed while something was open: home, the spec's notice, no dialog, and the landing works. */
async function expectSentHome(p: Phone) {
  await expectText(p.page.locator('.notice p'), 'You were removed from the game.');
  await expectNoDialog(p.page);
  await button(p.page, 'Start a Game').click();
  await expectVisible(dialog(p.page, 'Start a Game'));
  await p.page.keyboard.press('Escape');
  await expectNoDialog(p.page);
}

describe('races between phones', () => {
  chipless.stopAtFirstFailure('races-');

  it("lobby: a removal from the host's other tab closes this tab's question about the same player", async () => {
    const [ann, bob, cat, dan] = ['Ann', 'Bob', 'Cat', 'Dan'].map(phone) as [Phone, Phone, Phone, Phone];
    await enterRoom(ann.page, 'Start a Game', { name: 'Ann', chips: '50' });
    code = squash((await ann.page.locator('.room-code').textContent()) ?? '');
    for (const p of [bob, cat, dan]) {
      await enterRoom(p.page, 'Join with Code', { name: p.name, chips: '50', code });
      await button(ann.page, `Approve ${p.name}`).click();
    }
    tab2 = await ann.context.newPage();
    tab2.on('pageerror', (err) => ann.errors.push(`Ann tab 2: ${err.message}`));
    await tab2.goto('/');
    await expectVisible(tab2.getByRole('heading', { name: 'Game Lobby' }));

    await button(ann.page, 'Remove Cat').click();
    await expectVisible(dialog(ann.page, REMOVE));
    await removeFromTab2('Cat');
    await expectText(cat.page.locator('.notice p'), 'You were removed from the game.');
    await expectNoDialog(ann.page);

    await enterRoom(cat.page, 'Join with Code', { name: 'Cat', chips: '50', code });
    await button(ann.page, 'Approve Cat').click();
    await expectText(ann.page.getByRole('heading', { name: /^Players/ }), 'Players (4/10)');
  });

  it("lobby: blinds saved in the host's other tab show in this tab's open settings; a start from there leaves no dialog", async () => {
    const ann = phone('Ann');
    await button(ann.page, 'Settings').click();
    const mine = dialog(ann.page, 'Game Settings');
    await expectValue(mine.getByLabel('Small Blind'), '1.00');
    await button(tab2, 'Settings').click();
    const other = dialog(tab2, 'Game Settings');
    await other.getByLabel('Small Blind').fill('0.25');
    await other.getByLabel('Big Blind').fill('0.50');
    await button(other, 'Save Settings').click();
    await expectHidden(other);
    await expectValue(mine.getByLabel('Small Blind'), '0.25');
    await expectValue(mine.getByLabel('Big Blind'), '0.50');

    await button(tab2, 'Start Game').click();
    await expectText(stage(ann.page), 'Pre-Flop');
    await expectNoDialog(ann.page);
    for (const p of phones) await expectText(stage(p.page), 'Pre-Flop');
  });

  it('table: a guest removed with the Raise dialog open and an amount typed goes home, no dialog left', async () => {
    const cat = phone('Cat');
    await expectVisible(yourTurn(cat.page));
    await button(yourTurn(cat.page), 'Raise').click();
    const raise = dialog(cat.page, 'Raise');
    await raise.getByLabel('Total Bet Amount').fill('2.00');
    await removeFromTab2('Cat');
    await expectSentHome(cat);
    await expectHidden(seat(tab2, 'Cat'));
  });

  it('table: a ticked winner who leaves is unticked in the open Declare Winner dialog; the pot goes to the one left ticked', async () => {
    const [ann, bob, dan] = ['Ann', 'Bob', 'Dan'].map(phone) as [Phone, Phone, Phone];
    await act(ann, 'Call $0.50');
    await act(bob, 'Call $0.25');
    await act(dan, 'Check');
    for (const next of ['Flop', 'Turn', 'River']) {
      await button(hostControls(ann.page), next).click();
      await expectText(stage(dan.page), next);
      for (const p of [bob, dan, ann]) await act(p, 'Check');
    }
    await expectText(stage(ann.page), 'Showdown');
    await expectText(ann.page.locator('.pot-line .pot'), 'Pot $1.50');

    await button(hostControls(ann.page), 'Declare Winner').click();
    const declare = dialog(ann.page, 'Declare Winner');
    await declare.getByLabel('Bob').check();
    await declare.getByLabel('Dan').check();
    await expectVisible(button(declare, 'Award Split Pot'));

    await dan.page.getByRole('button', { name: 'Leave game' }).click();
    await button(dialog(dan.page, 'Leave this game?'), 'Leave Game').click();
    await expectVisible(button(dan.page, 'Start a Game'));

    await expectHidden(declare.getByLabel('Dan'));
    expect(await declare.getByRole('checkbox').count()).toBe(2);
    expect(await declare.getByLabel('Bob').isChecked()).toBe(true);
    expect(await declare.getByLabel('Ann').isChecked()).toBe(false);
    await button(declare, 'Award Pot').click();
    await expectHidden(declare);
    for (const p of [ann, bob]) {
      await expectContains(seat(p.page, 'Bob'), ['Stack $51.00', 'Winner']);
      await expectContains(seat(p.page, 'Ann'), ['Stack $49.50']);
    }
  });

  it("between hands: the seats arranged in tab 1 show on every phone; a New Hand from tab 2 closes tab 1's Arrange Seats", async () => {
    const [ann, bob] = ['Ann', 'Bob'].map(phone) as [Phone, Phone];
    /** The names on the seats, top to bottom (the seat order). */
    const order = (page: Page) =>
      page
        .getByRole('list', { name: /^Hand #\d+$/ })
        .locator('.player-name')
        .evaluateAll((names) => names.map((n) => n.firstChild?.textContent ?? ''));
    for (const page of [ann.page, tab2, bob.page])
      await eventually(async () => expect(await order(page)).toEqual(['Ann', 'Bob']));
    await button(ann.page.locator('.table-foot'), 'Arrange Seats').click();
    const seats = dialog(ann.page, 'Arrange Seats');
    await expectContains(seats, ['1 Ann Dealer', '2 Bob']);
    await button(seats, 'Move Bob up').click();
    await expectContains(seats, ['1 Bob', '2 Ann Dealer']);
    await shot(ann.page, 'races-arrange-seats', true);
    await button(seats, 'Save Seats').click();
    await expectHidden(seats);
    for (const page of [ann.page, tab2, bob.page]) {
      await eventually(async () => expect(await order(page)).toEqual(['Bob', 'Ann']));
      // The hand log (closed: its lines' text, not what shows).
      await eventually(async () =>
        expect(await page.locator('.hand-log li').allTextContents()).toContain('Seats, clockwise: Bob, Ann'),
      );
    }
    // Bob steps away: the leave button offers sitting out. With only Ann left to deal in there is no
    // New Hand, and both tabs say why; Bob's "Stay In" (he was in the hand just played, so he sits out
    // from the next one) brings it back.
    await button(bob.page, 'Leave game').click();
    await button(dialog(bob.page, 'Leave this game?'), 'Sit Out Instead').click();
    const away = bob.page.getByRole('region', { name: 'You sit out from the next hand' });
    await expectVisible(away);
    for (const page of [ann.page, tab2]) {
      await expectContains(seat(page, 'Bob'), ['Sits out next hand']);
      await expectContains(page.locator('.banner.warning'), ['Only 1 player is in']);
      await expectHidden(button(hostControls(page), 'New Hand'));
    }
    await button(away, 'Stay In').click();
    await expectHidden(away);
    for (const page of [ann.page, tab2]) {
      await expectHidden(page.locator('.banner.warning'));
      await expectVisible(button(hostControls(page), 'New Hand'));
    }
    // Again, and this time the host brings him back (his phone could be what went away): tab 2 has
    // the remove dialog open when Bob sits out, and it changes its offer to Bring Back Instead.
    await button(tab2, 'Remove Bob').click();
    const remove = dialog(tab2, 'Remove this player from the game?');
    await expectVisible(button(remove, 'Sit Out Instead'));
    await button(bob.page, 'Leave game').click();
    await button(dialog(bob.page, 'Leave this game?'), 'Sit Out Instead').click();
    await expectVisible(away);
    await button(remove, 'Bring Back Instead').click();
    await expectHidden(remove);
    await expectHidden(away);
    for (const page of [ann.page, tab2]) {
      await expectHidden(page.locator('.banner.warning'));
      await expectVisible(button(hostControls(page), 'New Hand'));
    }

    // Asked again in tab 1, but tab 2 deals: the moment has passed, and the question goes.
    await button(ann.page.locator('.table-foot'), 'Arrange Seats').click();
    await expectVisible(dialog(ann.page, 'Arrange Seats'));
    await button(hostControls(tab2), 'New Hand').click();
    await expectNoDialog(ann.page);
    await expectHidden(button(ann.page, 'Arrange Seats'));
    // Heads-up the button still goes from Ann (the last dealer) to Bob, now on her right.
    for (const page of [ann.page, bob.page])
      await expectContains(seat(page, 'Bob'), ['Dealer and small blind']);
  });

  it("table: the game ended from the host's other tab while a guest types a raise and this tab asks to end: game over everywhere, no dialog", async () => {
    const [ann, bob] = ['Ann', 'Bob'].map(phone) as [Phone, Phone];
    await expectVisible(yourTurn(bob.page));
    await button(yourTurn(bob.page), 'Raise').click();
    await dialog(bob.page, 'Raise').getByLabel('Total Bet Amount').fill('3.00');
    await button(hostControls(ann.page), 'End Game').click();
    await expectVisible(dialog(ann.page, 'End Game'));

    await button(hostControls(tab2), 'End Game').click();
    await button(dialog(tab2, 'End Game'), 'End Game & Auto-Settle Payouts').click();
    for (const page of [ann.page, tab2, bob.page]) {
      await expectText(page.getByRole('heading', { level: 1 }), "Bob Left em' all Chipless!");
      await expectNoDialog(page);
      await expectText(page.locator('.settlements'), 'Ann owes Bob $0.50 Dan owes Bob $0.50');
    }
    await button(bob.page, 'Back to Home').click();
    // It asks first: this phone will not show the results again.
    await button(dialog(bob.page, 'Leave the results?'), 'Back to Home').click();
    await expectVisible(button(bob.page, 'Start a Game'));
  });
});
