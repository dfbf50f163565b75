/**
 * The host's powers beyond the spec on real phones (Undo, a fold for a player who is away, handing the
 * host role over): Chromium, `npm start`, three phones. Only the host's phone offers them; whatever
 * Undo takes back, every phone shows the table as it was, to the cent.
 *
 * Ann hosts, Bob and Cat play; $50.00 each, blinds $1.00 / $2.00. Total 15000 cents.
 *   Hand 1 (Ann D, Bob SB 100, Cat BB 200; pot 300). Ann calls 200 (pot 500). Bob raises to $6.37
 *   (637: Bob 4363, pot 1037); Cat to act. The host takes it back ("Take back “Bob raises to $6.37”?"):
 *   every phone shows Bob to act again, Bob 4900 with his 100 bet, pot 500, "Call $1.00" on his phone.
 *   Bob calls 100 (pot 600). The host asks to take that back, but Cat checks before the host answers:
 *   the question goes, nothing is undone; asked again, it names Cat's check (cancelled).
 *   Checked down to the showdown; the host awards the 600 to Bob (Bob 5400) by mistake and deals hand
 *   2 before anyone objects. The host takes back the New Hand (every phone at hand 1's showdown, Bob
 *   the winner), then the award: every phone is at the showdown again with the pot of 600, every
 *   stack 4800, nobody the winner; the host awards it to Cat (Cat 5400).
 *   Hand 2 (Bob D, Cat SB 100, Ann BB 200; pot 300): Bob to act, and Bob's phone is gone (its page
 *   closed). The host's phone offers "Fold for Bob" at once; the host folds his hand (every phone:
 *   Bob folded, Cat to act, "Bob folds (by the host)"), then takes it back when Bob is seen coming
 *   back. Bob opens the app again, is to act, and calls $2.00 himself (Bob 4600, pot 500).
 *   The host goes home: Ann hands the host role to Cat (her leave button asks her to), then leaves;
 *   her 200 stays in the pot. Cat, the host now, calls 100 (pot 600), deals the flop and ends the game:
 *   every chip in the pot goes back (Ann's to her results), Ann 4800, Bob 4800, Cat 5400:
 *   "Ann owes Cat $2.00", "Bob owes Cat $2.00".
 */
import { describe, expect, it } from 'vitest';
import {
  chiplessSuite,
  eventually,
  expectContains,
  expectDisabled,
  expectHidden,
  expectText,
  expectValue,
  expectVisible,
  type Phone,
  shot,
} from './browser';
import {
  act,
  button,
  dialog,
  expectHand,
  hostControls,
  pot,
  seat,
  stage,
  startGame,
  yourTurn,
} from './screen';

const NAMES = ['Ann', 'Bob', 'Cat'] as const;
const TOTAL = 15_000;
const chipless = chiplessSuite({ phones: NAMES });
const { phones } = chipless;
const phone = (name: string) => phones.find((p) => p.name === name)!;

/** The host's Undo question, opened from the host controls; returns the dialog. */
async function askUndo(host: Phone) {
  await button(hostControls(host.page), 'Undo').click();
  const ask = dialog(host.page, 'Undo?');
  await expectVisible(ask);
  return ask;
}

/** Neither player's phone offers Undo (checked once the phone shows the current state). */
async function expectNoUndoForPlayers() {
  for (const p of [phone('Bob'), phone('Cat')]) expect(await button(p.page, 'Undo').count()).toBe(0);
}

describe("the host's undo", () => {
  chipless.stopAtFirstFailure('undo-');

  it('a raise taken back: every phone shows the raiser to act again, the stack back to the cent', async () => {
    const [ann, bob, cat] = NAMES.map(phone) as [Phone, Phone, Phone];
    await startGame(ann, [bob, cat]);
    for (const p of phones) await expectText(stage(p.page), 'Pre-Flop');
    // A fresh game has nothing to undo: Undo greyed in its place.
    await expectVisible(yourTurn(ann.page));
    await expectDisabled(button(hostControls(ann.page), 'Undo'));
    await shot(ann.page, 'undo-00-nothing-to-undo');

    await act(ann, 'Call $2.00');
    await expectVisible(yourTurn(bob.page));
    await button(yourTurn(bob.page), 'Raise').click();
    const raise = dialog(bob.page, 'Raise');
    await raise.getByLabel('Total Bet Amount').fill('6.37');
    await expectValue(raise.getByLabel('Total Bet Amount'), '6.37');
    await button(raise, 'Confirm Raise').click();
    await expectHidden(raise);
    await expectHand(
      {
        stage: 'Pre-Flop',
        pot: 'Pot $10.37',
        seats: { Ann: ['Stack $48.00'], Bob: ['Stack $43.63', 'Bet $6.37'], Cat: ['Stack $48.00'] },
        turn: cat,
      },
      phones,
      { names: NAMES, total: TOTAL },
    );
    await expectNoUndoForPlayers();

    await shot(ann.page, 'undo-01-host-dock');
    const ask = await askUndo(ann);
    await expectText(ask.locator('.modal-text'), 'Take back “Bob raises to $6.37”?');
    await shot(ann.page, 'undo-02-question', true);
    await button(ask, 'Undo').click();
    await expectHidden(ask);
    // Every phone is told, for 6 s, at the top of its dock.
    for (const p of phones)
      await expectText(p.page.locator('.dock .table-notice'), 'Undone by the host: Bob raises to $6.37');

    await expectHand(
      {
        stage: 'Pre-Flop',
        pot: 'Pot $5.00',
        seats: {
          Ann: ['Stack $48.00', 'Bet $2.00'],
          Bob: ['Stack $49.00', 'Bet $1.00', 'To act'],
          Cat: ['Stack $48.00', 'Bet $2.00'],
        },
        turn: bob,
      },
      phones,
      { names: NAMES, total: TOTAL },
    );
    await expectVisible(button(yourTurn(bob.page), 'Call $1.00'));
    // Nothing more to undo until the next move; the log says what was taken back.
    await expectDisabled(button(hostControls(ann.page), 'Undo'));
    await cat.page.getByText('Hand log').click();
    await expectText(cat.page.locator('.hand-log li').first(), 'Undone by the host: Bob raises to $6.37');
    await expectText(cat.page.locator('.hand-log li.taken-back'), 'Bob raises to $6.37 (taken back)');
    await expectNoUndoForPlayers();
  });

  it('the question goes when a player acts before the host answers; nothing is undone', async () => {
    const [ann, bob, cat] = NAMES.map(phone) as [Phone, Phone, Phone];
    await act(bob, 'Call $1.00');
    await expectVisible(yourTurn(cat.page));
    const ask = await askUndo(ann);
    await expectText(ask.locator('.modal-text'), 'Take back “Bob calls $1.00”?');
    await act(cat, 'Check');
    await expectHidden(ask);
    for (const p of phones) {
      await expectText(pot(p.page), 'Pot $6.00');
      await expectContains(seat(p.page, 'Bob'), ['Stack $48.00', 'Bet $2.00']);
    }
    const again = await askUndo(ann);
    await expectText(again.locator('.modal-text'), 'Take back “Cat checks”?');
    await button(again, 'Cancel').click();
    await expectHidden(again);
    await expectVisible(button(hostControls(ann.page), 'Flop'));
  });

  it('a pot awarded to the wrong player, the next hand dealt, both taken back: every phone at the showdown again, then the right award', async () => {
    const [ann, bob, cat] = NAMES.map(phone) as [Phone, Phone, Phone];
    for (const next of ['Flop', 'Turn', 'River']) {
      await button(hostControls(ann.page), next).click();
      for (const p of phones) await expectText(stage(p.page), next);
      for (const p of [bob, cat, ann]) await act(p, 'Check');
    }
    for (const p of phones) await expectText(stage(p.page), 'Showdown');

    const award = async (winner: string) => {
      await button(hostControls(ann.page), 'Declare Winner').click();
      const box = dialog(ann.page, 'Declare Winner');
      await box.getByRole('checkbox', { name: winner }).check();
      await button(box, 'Award Pot').click();
      await expectHidden(box);
    };
    await award('Bob');
    for (const p of phones) {
      await expectText(pot(p.page), 'Pot $0.00');
      await expectContains(seat(p.page, 'Bob'), ['Stack $54.00', 'Winner']);
    }
    // The host deals on before anyone says it was Cat's: the New Hand is taken back first.
    await button(hostControls(ann.page), 'New Hand').click();
    for (const p of phones) await expectContains(p.page.locator('.table-foot'), ['Hand #2']);
    const dealt = await askUndo(ann);
    await expectText(dealt.locator('.modal-text'), 'Take back “Hand #2”?');
    await button(dealt, 'Undo').click();
    await expectHidden(dealt);
    for (const p of phones) {
      await expectText(stage(p.page), 'Showdown');
      await expectContains(p.page.locator('.table-foot'), ['Hand #1']);
      await expectContains(seat(p.page, 'Bob'), ['Stack $54.00', 'Winner']);
    }

    const ask = await askUndo(ann);
    await expectText(ask.locator('.modal-text'), 'Take back “Pot $6.00 to Bob”?');
    await button(ask, 'Undo').click();
    await expectHidden(ask);
    for (const p of phones) {
      await expectText(stage(p.page), 'Showdown');
      await expectText(pot(p.page), 'Pot $6.00');
      await expectContains(p.page.locator('.banner.showdown'), ['Host can now declare the winner']);
      for (const name of NAMES) {
        await expectContains(seat(p.page, name), ['Stack $48.00']);
        expect(await seat(p.page, name).locator('.winner-tag').count()).toBe(0);
      }
    }
    await expectNoUndoForPlayers();

    await award('Cat');
    for (const p of phones) {
      await expectText(pot(p.page), 'Pot $0.00');
      await expectContains(seat(p.page, 'Cat'), ['Stack $54.00', 'Winner']);
      await expectContains(seat(p.page, 'Bob'), ['Stack $48.00']);
      await expectContains(seat(p.page, 'Ann'), ['Stack $48.00']);
    }
  });

  it('a player whose phone is gone: the host folds for him, takes it back, and he plays on when he is back', async () => {
    const [ann, bob, cat] = NAMES.map(phone) as [Phone, Phone, Phone];
    await button(hostControls(ann.page), 'New Hand').click();
    await expectVisible(yourTurn(bob.page));
    expect(await button(hostControls(ann.page), 'Fold for Bob').count()).toBe(0);
    await bob.page.close();
    await expectContains(seat(ann.page, 'Bob'), ['offline']);

    await button(hostControls(ann.page), 'Fold for Bob').click();
    const ask = dialog(ann.page, "Fold Bob's hand?");
    await expectContains(ask.locator('.modal-text'), ['Bob has $2.00 to call']);
    await shot(ann.page, 'undo-04-fold-for-away', true);
    await button(ask, 'Fold for Bob').click();
    await expectHidden(ask);
    for (const p of [ann, cat]) {
      await expectContains(seat(p.page, 'Bob'), ['Stack $48.00', 'Folded']);
      await expectVisible(p === cat ? yourTurn(cat.page) : seat(ann.page, 'Cat').locator('.turn-tag'));
      // Opened, not toggled: Cat's log is open since the first step.
      await p.page.locator('details.hand-log').evaluate((d) => {
        (d as HTMLDetailsElement).open = true;
      });
      await expectText(p.page.locator('.hand-log li').first(), 'Bob folds (by the host)');
    }

    // Bob is seen coming back: the host takes the fold back before Cat acts.
    const undo = await askUndo(ann);
    await expectText(undo.locator('.modal-text'), 'Take back “Bob folds (by the host)”?');
    await button(undo, 'Undo').click();
    await expectHidden(undo);
    bob.page = await bob.context.newPage();
    bob.page.on('pageerror', (err) => bob.errors.push(`Bob: ${err.message}`));
    await bob.page.goto('/');
    await expectHand(
      {
        stage: 'Pre-Flop',
        pot: 'Pot $3.00',
        seats: {
          Ann: ['Stack $46.00', 'Bet $2.00'],
          Bob: ['Stack $48.00', 'To act'],
          Cat: ['Stack $53.00', 'Bet $1.00'],
        },
        turn: bob,
      },
      phones,
      { names: NAMES, total: TOTAL },
    );
    await act(bob, 'Call $2.00');
    for (const p of phones) {
      await expectText(pot(p.page), 'Pot $5.00');
      await expectContains(seat(p.page, 'Bob'), ['Stack $46.00', 'Bet $2.00']);
    }
  });

  it('the host goes home: hands the host role to Cat and leaves; Cat runs the table and ends the night', async () => {
    const [ann, bob, cat] = NAMES.map(phone) as [Phone, Phone, Phone];
    await button(ann.page, 'Leave game').click();
    const ask = dialog(ann.page, 'Leave this game?');
    await expectContains(ask, ["Leaving for good? You're the host: make someone else the host first"]);
    await ask.getByRole('radio', { name: 'Cat' }).check();
    await shot(ann.page, 'undo-05-hand-over', true);
    await button(ask, 'Make Cat the Host').click();
    // The role moved: Cat's phone has the host's controls, and Ann is asked what every player is asked.
    await expectContains(ask, [
      'Your chips at this moment stay in the final results. You can see them from the home screen once the host ends the game.',
    ]);
    for (const p of phones) await expectContains(seat(p.page, 'Cat'), ['Host']);
    await expectVisible(hostControls(cat.page));
    expect(await hostControls(ann.page).count()).toBe(0);
    await button(ask, 'Leave Game').click();
    await expectVisible(button(ann.page, 'Start a Game'));

    // Ann's big blind stays in the pot; Cat (small blind, to act) calls $1.00 and, as the host, deals.
    // Her leave's broadcast may reach them after her own page is home: waited for, not counted at once.
    for (const p of [bob, cat])
      await eventually(async () => expect(await seat(p.page, 'Ann').count()).toBe(0));
    await act(cat, 'Call $1.00');
    await button(hostControls(cat.page), 'Flop').click();
    for (const p of [bob, cat]) {
      await expectText(stage(p.page), 'Flop');
      await expectText(pot(p.page), 'Pot $6.00');
    }
    // Ended mid-hand, every chip in the pot goes back to whoever put it in (Ann's $2.00 to her results):
    // Ann 4800 (-200, left), Bob 4800 (-200), Cat 5400 (+400).
    await button(hostControls(cat.page), 'End Game').click();
    await button(dialog(cat.page, 'End Game'), 'End Game & Auto-Settle Payouts').click();
    for (const p of [bob, cat]) {
      const lines = p.page.locator('.settlements li');
      await expectVisible(lines.first());
      expect((await lines.allInnerTexts()).map((l) => l.replace(/\s+/g, ' ').trim()).sort()).toEqual([
        'Ann owes Cat $2.00',
        'Bob owes Cat $2.00',
      ]);
    }
  });
});
