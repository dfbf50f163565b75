/**
 * A tap on a stale screen is not applied to a table the player never saw (the session-32 audit's one
 * wrong-money finding). Ann hosts, Bob and Cat join with $50; blinds $1/$2. On the flop Bob, first to
 * act, loses his connection. The host checks for him ("Check for Bob"), Cat bets $5 and Ann calls: Bob
 * now faces $5. His phone still shows his turn with Check, and he taps it; the phone is back a second
 * later and sends the tap it held. Before, the server took it as a call of $5.00 ('Bob calls $5.00', his
 * stack $48.00 → $43.00): an action carried no word of what its player saw. Now it carries what the
 * screen showed (the engine's Facing) and is refused; Bob reads the table as it is, still his turn,
 * 'Call $5.00', and decides again.
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
import {
  act,
  button,
  dialog,
  expectHand,
  hostControls,
  pot,
  reconnecting,
  seat,
  startGame,
  yourTurn,
} from './screen';

const chipless = chiplessSuite({ phones: ['Ann', 'Bob', 'Cat'] });
const { phones } = chipless;

describe('a Check tapped offline, sent once the phone is back, after the table moved on', () => {
  chipless.stopAtFirstFailure('stale-tap-');

  it('is refused: Bob still faces $5.00 with his $48.00, and calls it when he means to', async () => {
    const [ann, bob, cat] = phones as [Phone, Phone, Phone];
    await startGame(ann, [bob, cat]);
    await act(ann, 'Call $2.00');
    await act(bob, 'Call $1.00');
    await act(cat, 'Check');
    await button(hostControls(ann.page), 'Flop').click();
    const flop = { stage: 'Flop', pot: 'Pot $6.00' };
    await expectHand({ ...flop, seats: { Bob: ['Stack $48.00'] }, turn: bob }, phones);

    await bob.context.setOffline(true);
    await expectVisible(reconnecting(bob.page));
    await button(ann.page, 'Check for Bob').click();
    await button(dialog(ann.page, 'Check for Bob?'), 'Check for Bob').click();
    await button(yourTurn(cat.page), 'Raise').click();
    const raise = dialog(cat.page, 'Raise');
    await raise.getByLabel('Total Bet Amount').fill('5');
    await button(raise, 'Confirm Raise').click();
    await act(ann, 'Call $5.00');
    await expectHand(
      { stage: 'Flop', pot: 'Pot $16.00', seats: { Bob: ['Stack $48.00'], Cat: ['Bet $5.00'] }, turn: bob },
      [ann, cat],
    );

    // Bob's phone, offline, still shows the flop as it was: his turn, nothing to call.
    await expectText(bob.page.locator('.to-call'), 'To call $0.00');
    await button(yourTurn(bob.page), 'Check').click();
    await bob.page.waitForTimeout(1_000);
    await bob.context.setOffline(false);
    await expectHidden(reconnecting(bob.page));

    // The held tap reached the server and was refused: nothing moved, and Bob sees what he faces.
    await expectVisible(button(yourTurn(bob.page), 'Call $5.00'));
    await expectHand(
      { stage: 'Flop', pot: 'Pot $16.00', seats: { Bob: ['Stack $48.00'] }, turn: bob },
      phones,
    );
    for (const p of phones)
      expect(await p.page.locator('.hand-log').textContent(), p.name).not.toContain('Bob calls $5.00');
    await act(bob, 'Call $5.00');
    await expectVisible(button(hostControls(ann.page), 'Turn'));
    for (const p of phones) {
      await expectText(pot(p.page), 'Pot $21.00');
      await expectContains(seat(p.page, 'Bob'), ['Stack $43.00']);
    }
  });
});
