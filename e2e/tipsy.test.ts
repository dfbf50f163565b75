/**
 * Tipsy friends on small touch phones (360×640, hasTouch, isMobile), real browsers, real `npm start`.
 *
 * What a table of friends a few drinks in does to the app: double and triple taps on every action
 * button, taps that land on the button that appears where the tapped one was, a second tab of the same
 * phone, the browser's Back button in a dialog and mid-hand, a reload with a dialog open, a phone off
 * the network on its turn, a late joiner, a player leaving mid-hand, the host ending the game mid-hand,
 * and the size and place of everything tappable. After every step every phone must show the same
 * stage, pot, stacks, bets and turn, and the chips on the table must add up.
 *
 * Taps go through `page.touchscreen.tap(x, y)` at the centre of the button as it was when the first
 * tap landed: a finger does not follow the screen, so a second tap 300 ms later lands on whatever is
 * there by then. Before the app's tap guard (src/web/components/tap-guard.ts) such a tap checked for
 * the host after "Flop", called for him after "New Hand", denied the next player after "Deny Zed",
 * approved Cat after "Approve Bob", and opened "Join a Game" after "Leave Game". Deliberate taps go
 * at a person's pace (`tap`, HUMAN_GAP_MS).
 *
 * Part 1 (Ann hosts, Bob, Cat, later Dan; $50.00 each, Dan $40.00; blinds $1.00 / $2.00). Cents:
 *   Lobby: "Zed" (Dan's phone) asks first, then Bob and Cat; Deny Zed double-tapped, Approve Bob
 *   triple-tapped, Cat approved. Total 15000.
 *   Hand 1 (Ann D, Bob SB, Cat BB): pot 300. Ann calls 200 (pot 500), Bob calls 100 (600), Cat checks.
 *   Flop: Bob checks (two tabs), Cat bets 200 (800), Ann calls (1000), Bob calls 200 while coming back
 *   from 15 s offline (1200): Ann, Bob, Cat 4600. Turn: Dan joins with 4000 and is approved (sits out,
 *   total 19000); Cat leaves (her 400 stay in the pot; 14400 on the table). Bob and Ann check the turn
 *   and the river; the host awards 1200 to Bob: Ann 4600, Bob 5800, Dan 4000.
 *   Hand 2 (Bob D, Dan SB 100, Ann BB 200): Bob calls 200 (pot 500). The host ends the game: every
 *   bet goes back. Nets: Ann −400, Bob +800, Cat −400 (left with 4600), Dan 0. Settlements
 *   "Ann owes Bob $4.00" and "Cat owes Bob $4.00".
 *
 * Part 2, heads-up (Hal hosts, Gus; $50.00 each): the host's double taps on "Flop" and "New Hand" when
 * the host is the first to act next. Hand 1: Hal (D/SB) calls, checks to the river, Gus wins 400
 * (Hal 4800, Gus 5200). Hand 2 (Gus D/SB): Gus calls, Hal checks; Hal double-taps "Flop" and must still
 * have his turn; checked down, Hal wins 400 (5000 each). Hand 3 (Hal D/SB): Hal double-taps "New Hand"
 * and must still have his turn with "Call $1.00".
 */
import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  chiplessSuite,
  eventually,
  expectContains,
  expectHidden,
  expectText,
  expectVisible,
  type Phone,
  shot,
  squash,
} from './browser';
import { button, dialog, enterRoom, hostControls, seat, yourTurn } from './screen';

const SMALL_PHONE = { width: 360, height: 640 };
const NO_CONNECTION = 'No connection right now. Please try again in a moment.';

const chipless = chiplessSuite({ viewport: SMALL_PHONE });

/** Opens a phone at 360×640; each describe opens its own. */
const phone = (name: string): Promise<Phone> => chipless.openPhone(name);

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

// ---------------------------------------------------------------------------------------------
// Taps
// ---------------------------------------------------------------------------------------------

/** The centre of the locator on screen (scrolled into view first). */
async function centreOf(locator: Locator): Promise<{ x: number; y: number }> {
  await locator.waitFor({ state: 'visible' });
  await locator.scrollIntoViewIfNeeded();
  const box = await locator.boundingBox();
  if (!box) throw new Error(`${String(locator)} has no box`);
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
}

/**
 * A person's taps on one phone, when the second is meant, are at least this far apart: the server
 * answers, the screen changes, they see it and reach for the new control. The app takes a faster
 * tap at the same spot on another control for the second tap of a fumbled double tap and drops it
 * (src/web/components/tap-guard.ts, GHOST_MS 400), so the tests tap no faster than people.
 */
const HUMAN_GAP_MS = 450;
const lastTapAt = new WeakMap<Page, number>();

async function humanPace(page: Page) {
  const since = Date.now() - (lastTapAt.get(page) ?? 0);
  if (since < HUMAN_GAP_MS) await pause(HUMAN_GAP_MS - since);
}

/** One deliberate tap on `locator`, at a person's pace. */
async function tap(locator: Locator) {
  const page = locator.page();
  await humanPace(page);
  await locator.tap();
  lastTapAt.set(page, Date.now());
}

/**
 * `times` taps of a finger at the spot where `locator` is when the first one lands, `gapMs` apart (a
 * fumbling double or triple tap): later taps hit whatever is at that spot by then.
 */
async function tapTimes(page: Page, locator: Locator, times: number, gapMs = 300) {
  const { x, y } = await centreOf(locator);
  await humanPace(page);
  // Each tap carries its own time, gapMs after the one before, as a finger's does: on a loaded
  // machine the CDP round trips alone put 400+ ms between taps sent 300 ms apart.
  const cdp = await page.context().newCDPSession(page);
  const t0 = Date.now() / 1000;
  for (let i = 0; i < times; i++) {
    if (i > 0) await pause(gapMs);
    const timestamp = t0 + (i * gapMs) / 1000;
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x, y }], timestamp });
    await cdp.send('Input.dispatchTouchEvent', {
      type: 'touchEnd',
      touchPoints: [],
      timestamp: timestamp + 0.01,
    });
  }
  await cdp.detach();
  lastTapAt.set(page, Date.now());
}

// ---------------------------------------------------------------------------------------------
// What the table shows, read from the DOM
// ---------------------------------------------------------------------------------------------

interface TableView {
  stage: string;
  hand: string;
  pot: number;
  /** name → [stack, bet] in cents. */
  seats: Record<string, [number, number]>;
  /** Whose seat carries the turn marker (null: nobody's). */
  turn: string | null;
  /** Whether this phone shows its own "Your Turn" actions. */
  myTurn: boolean;
  /** The error line in the dock, if any. */
  dockError: string | null;
}

function readTable(page: Page): Promise<TableView> {
  return page.evaluate(() => {
    const cents = (s: string | null | undefined) => {
      const m = /\$([\d,]+\.\d\d)/.exec(s ?? '');
      return m ? Math.round(Number(m[1]!.replace(/,/g, '')) * 100) : Number.NaN;
    };
    const seats: Record<string, [number, number]> = {};
    let turn: string | null = null;
    for (const li of Array.from(document.querySelectorAll('ul.seats > li'))) {
      const name = (li.querySelector('.player-name')?.firstChild?.textContent ?? '').trim();
      const bet = li.querySelector('.seat-bet');
      seats[name] = [cents(li.querySelector('.seat-stack')?.textContent), bet ? cents(bet.textContent) : 0];
      if (li.getAttribute('aria-current') === 'true') turn = name;
    }
    return {
      stage: (document.querySelector('h1.stage')?.textContent ?? '').trim(),
      hand: (document.querySelector('.table-foot span')?.textContent ?? '').trim(),
      pot: cents(document.querySelector('.pot-line .pot .amount')?.textContent),
      seats,
      turn,
      myTurn: !!document.querySelector('section.actions'),
      dockError: document.querySelector('.dock [role="alert"]')?.textContent ?? null,
    };
  });
}

interface Expected {
  stage: string;
  hand?: string;
  pot: number;
  /** name → stack, or [stack, bet]. */
  seats: Record<string, number | [number, number]>;
  turn: string | null;
  /** Chips on the table (stacks + pot) that must be conserved. */
  total: number;
}

/**
 * Every phone (each seated as `name`) shows exactly `want`: the same stage, hand, pot, stacks, bets
 * (0 when not given) and turn, its own actions only on its own turn, no error line; and the stacks
 * plus the pot add up to `want.total`.
 */
async function expectTable(seated: Array<{ name: string; page: Page }>, want: Expected, timeoutMs?: number) {
  const seats: Record<string, [number, number]> = Object.fromEntries(
    Object.entries(want.seats).map(([n, v]) => [n, typeof v === 'number' ? [v, 0] : v]),
  );
  const sum = Object.values(seats).reduce((s, [stack]) => s + stack, 0) + want.pot;
  expect(sum, 'the expected stacks and pot add up to the chips on the table').toBe(want.total);
  await eventually(async () => {
    for (const p of seated) {
      const view = await readTable(p.page);
      const got = {
        stage: view.stage,
        ...(want.hand ? { hand: view.hand } : {}),
        pot: view.pot,
        seats: view.seats,
        turn: view.turn,
        myTurn: view.myTurn,
        dockError: view.dockError,
        chips: Object.values(view.seats).reduce((s, [stack]) => s + stack, 0) + view.pot,
      };
      expect(got, `${p.name}'s phone`).toEqual({
        stage: want.stage,
        ...(want.hand ? { hand: want.hand } : {}),
        pot: want.pot,
        seats,
        turn: want.turn,
        myTurn: want.turn === p.name,
        dockError: null,
        chips: want.total,
      });
    }
  }, timeoutMs);
}

/** Waits until `who` has the turn's actions, then taps `label` once. */
async function act(who: Phone, label: string) {
  await expectVisible(yourTurn(who.page));
  await tap(button(yourTurn(who.page), label));
  await expectHidden(yourTurn(who.page));
}

const openDialogs = (page: Page) => page.getByRole('dialog').count();

/** Creates or joins a room from the phone (as `as`, its owner by default), tapping at a person's pace. */
const enter = (p: Phone, form: 'Start a Game' | 'Join with Code', chips: string, code = '', as = p.name) =>
  enterRoom(p.page, form, { name: as, chips, code, press: tap });

// ---------------------------------------------------------------------------------------------
// Touch targets
// ---------------------------------------------------------------------------------------------

/**
 * Every visible tappable control of the screen (or of its open dialog): at least 44×44 CSS px, not
 * covered by anything (a sticky bar) once scrolled into view, and the page does not scroll sideways.
 * Returns the problems found, one line each.
 */
function touchProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const problems: string[] = [];
    const doc = document.documentElement;
    if (doc.scrollWidth > doc.clientWidth)
      problems.push(`page scrolls sideways by ${doc.scrollWidth - doc.clientWidth}px`);
    const open = document.querySelector<HTMLElement>('[role="dialog"]');
    const root: ParentNode = open ?? document;
    const selector =
      'button, a[href], input:not([type="checkbox"]):not([type="radio"]), select, summary, label.choice, [role="button"]';
    const describe = (el: Element) => {
      const name =
        el.getAttribute('aria-label') ??
        squashText(el.textContent ?? '') ??
        el.getAttribute('placeholder') ??
        '';
      return `${el.tagName.toLowerCase()}${el.className ? `.${String(el.className).split(' ').join('.')}` : ''} "${name}"`;
    };
    function squashText(s: string) {
      const t = s.replace(/\s+/g, ' ').trim();
      return t === '' ? null : t.slice(0, 40);
    }
    const startY = window.scrollY;
    let checked = 0;
    for (const el of Array.from(root.querySelectorAll<HTMLElement>(selector))) {
      if (el.closest('.sr-only')) continue;
      let box = el.getBoundingClientRect();
      if (box.width === 0 && box.height === 0) continue;
      checked++;
      if (box.width < 44 || box.height < 44)
        problems.push(`${describe(el)} is ${Math.round(box.width)}×${Math.round(box.height)}px`);
      el.scrollIntoView({ block: 'center', inline: 'nearest' });
      box = el.getBoundingClientRect();
      const x = Math.min(Math.max(box.left + box.width / 2, 0), doc.clientWidth - 1);
      const y = Math.min(Math.max(box.top + box.height / 2, 0), window.innerHeight - 1);
      const hit = document.elementFromPoint(x, y);
      if (
        !hit ||
        !(hit === el || el.contains(hit) || (el.tagName === 'LABEL' && hit.closest('label') === el))
      ) {
        problems.push(`${describe(el)} is covered at its centre by ${hit ? describe(hit) : 'nothing'}`);
      }
    }
    window.scrollTo(0, startY);
    // A screen not drawn yet (or gone blank) has nothing to find fault with: that is a fault too.
    if (checked === 0) problems.push('no control on screen to check');
    return problems;
  });
}

/**
 * Where the locator falls short of sitting in the bottom half of the screen, wholly on screen, without
 * scrolling (null: it does). Waits for a sheet's slide-in animation to end first.
 */
async function notInBottomHalf(page: Page, locator: Locator, what: string): Promise<string | null> {
  await page.evaluate(() => window.scrollTo(0, 0));
  await pause(400);
  const box = await locator.boundingBox();
  if (!box) return `${what} is not on screen`;
  const top = Math.round(box.y);
  const bottom = Math.round((box.y + box.height) * 10) / 10;
  if (top < SMALL_PHONE.height / 2 || bottom > SMALL_PHONE.height)
    return `${what} spans y ${top}–${bottom} (screen 0–${SMALL_PHONE.height}, bottom half from ${SMALL_PHONE.height / 2})`;
  return null;
}

/** Settles a just-opened sheet (its slide-in animation), then lists the touch problems. */
async function sheetProblems(page: Page): Promise<string[]> {
  await pause(400);
  return touchProblems(page);
}

// =============================================================================================
// Part 1
// =============================================================================================

describe('tipsy friends at one table: Ann hosts, Bob, Cat, and Dan late', () => {
  let ann: Phone;
  let bob: Phone;
  let cat: Phone;
  let dan: Phone;
  let yan: Phone;
  let code = '';

  beforeAll(async () => {
    ann = await phone('Ann');
    bob = await phone('Bob');
    cat = await phone('Cat');
    dan = await phone('Dan');
    yan = await phone('Yan');
  });

  const pendingRegion = () => ann.page.getByRole('region', { name: 'Waiting for Approval' });

  it('lobby: a double tap on "Deny Zed" denies only Zed, not Yan who moves up into his place', async () => {
    await enter(ann, 'Start a Game', '50');
    code = squash((await ann.page.locator('.room-code').textContent()) ?? '');
    // Two strangers ask: Zed (Dan's phone) first, then Yan.
    await enter(dan, 'Join with Code', '25', code, 'Zed');
    await expectContains(pendingRegion(), ['Zed']);
    await enter(yan, 'Join with Code', '25', code);
    await expectContains(pendingRegion(), ['Zed', 'Yan']);
    await shot(ann.page, 'tipsy-01-lobby-pending');

    await tapTimes(ann.page, button(pendingRegion(), 'Deny Zed'), 2);
    await expectVisible(dan.page.getByText('You were removed from the game.'));
    await pause(1000);
    await shot(ann.page, 'tipsy-01-deny-double-tap');
    const yanRemoved = await yan.page.getByText('You were removed from the game.').isVisible();
    const stillPending = await pendingRegion()
      .getByRole('listitem')
      .allInnerTexts()
      .catch(() => [] as string[]);
    expect(
      { yanRemoved, stillPending: stillPending.map((t) => squash(t).replace(/^(online|offline) /, '')) },
      'after a double tap on "Deny Zed"',
    ).toEqual({ yanRemoved: false, stillPending: ['Yan Wants to join with $25.00 chips'] });
  });

  it('lobby: a triple tap on "Approve Bob" approves Bob once and leaves Cat waiting', async () => {
    // Yan goes (denied by the host, if the double tap has not done it already).
    if (await button(pendingRegion(), 'Deny Yan').isVisible()) await tap(button(pendingRegion(), 'Deny Yan'));
    await expectVisible(yan.page.getByText('You were removed from the game.'));
    await enter(bob, 'Join with Code', '50', code);
    await expectContains(pendingRegion(), ['Bob']);
    await enter(cat, 'Join with Code', '50', code);
    await expectContains(pendingRegion(), ['Bob', 'Cat']);
    await tapTimes(ann.page, button(pendingRegion(), 'Approve Bob'), 3);
    await expectText(ann.page.getByRole('heading', { name: /^Players/ }), 'Players (2/10)');
    await pause(800);
    await expectText(bob.page.locator('.waiting'), 'Waiting for host to start the game');
    await expectContains(pendingRegion(), ['Cat', 'Wants to join with $50.00 chips']);
    expect(await ann.page.getByRole('alert').count(), 'no error line on the host phone').toBe(0);
    await expectText(
      cat.page.getByRole('status').filter({ hasText: 'approve' }),
      'Waiting for the host to approve you',
    );
  });

  it('lobby screens at 360×640: every control ≥ 44×44, uncovered, no sideways scroll, Start and Save in the bottom half', async () => {
    // Bob's phone while Cat still waits: the player's lobby.
    const player = await touchProblems(bob.page);
    // Cat: approved now (unless the triple tap on "Approve Bob" has done it already).
    if (await button(pendingRegion(), 'Approve Cat').isVisible())
      await tap(button(pendingRegion(), 'Approve Cat'));
    await expectText(ann.page.getByRole('heading', { name: /^Players/ }), 'Players (3/10)');
    await expectHidden(pendingRegion());
    const host = await touchProblems(ann.page);
    await tap(button(ann.page, 'Settings'));
    const settingsBox = dialog(ann.page, 'Game Settings');
    await expectVisible(settingsBox);
    const settings = await sheetProblems(ann.page);
    const save = await notInBottomHalf(ann.page, button(settingsBox, 'Save Settings'), 'Save Settings');
    await shot(ann.page, 'tipsy-02-settings', true);
    await tap(button(settingsBox, 'Close'));
    await expectHidden(settingsBox);
    const start = await notInBottomHalf(ann.page, button(ann.page, 'Start Game'), 'Start Game');
    expect({ player, host, settings, placement: [save, start].filter(Boolean) }).toEqual({
      player: [],
      host: [],
      settings: [],
      placement: [],
    });
  });

  const seated = () => [ann, bob, cat];

  it('a double tap on "Start Game" starts hand #1 once and opens nothing else', async () => {
    await tapTimes(ann.page, button(ann.page, 'Start Game'), 2);
    await expectTable(seated(), {
      stage: 'Pre-Flop',
      hand: 'Hand #1',
      pot: 300,
      seats: { Ann: 5000, Bob: [4900, 100], Cat: [4800, 200] },
      turn: 'Ann',
      total: 15000,
    });
    await pause(500);
    expect(await openDialogs(ann.page), 'dialogs open on the host phone').toBe(0);
    await shot(ann.page, 'tipsy-02-table-own-turn');
  });

  it('table screens at 360×640: every control ≥ 44×44, uncovered, no sideways scroll, actions in the bottom half', async () => {
    const turn = yourTurn(ann.page);
    const placement: Array<string | null> = [];
    for (const label of ['Fold', 'Call $2.00', 'Raise']) {
      placement.push(await notInBottomHalf(ann.page, button(turn, label), label));
    }
    const host = await touchProblems(ann.page);
    const waiting = await touchProblems(bob.page);
    await tap(button(turn, 'Raise'));
    const raiseBox = dialog(ann.page, 'Raise');
    await expectVisible(raiseBox);
    const raise = await sheetProblems(ann.page);
    placement.push(await notInBottomHalf(ann.page, button(raiseBox, 'Confirm Raise'), 'Confirm Raise'));
    await shot(ann.page, 'tipsy-03-raise-sheet', true);
    await tap(button(raiseBox, 'Cancel'));
    await expectHidden(raiseBox);
    await tap(button(hostControls(ann.page), 'End Game'));
    const end = dialog(ann.page, 'End Game');
    await expectVisible(end);
    const endProblems = await sheetProblems(ann.page);
    placement.push(
      await notInBottomHalf(
        ann.page,
        button(end, 'End Game & Auto-Settle Payouts'),
        'End Game & Auto-Settle Payouts',
      ),
    );
    await tap(button(end, 'Cancel'));
    await expectHidden(end);
    await tap(button(hostControls(ann.page), 'Rebuys'));
    const rebuy = dialog(ann.page, 'Player Rebuy');
    await expectVisible(rebuy);
    const rebuyProblems = await sheetProblems(ann.page);
    placement.push(await notInBottomHalf(ann.page, button(rebuy, 'Add Chips'), 'Add Chips'));
    await tap(button(rebuy, 'Close'));
    await expectHidden(rebuy);
    // Nothing was sent by looking around.
    await expectTable(seated(), {
      stage: 'Pre-Flop',
      pot: 300,
      seats: { Ann: 5000, Bob: [4900, 100], Cat: [4800, 200] },
      turn: 'Ann',
      total: 15000,
    });
    expect({
      host,
      waiting,
      raise,
      end: endProblems,
      rebuy: rebuyProblems,
      placement: placement.filter(Boolean),
    }).toEqual({
      host: [],
      waiting: [],
      raise: [],
      end: [],
      rebuy: [],
      placement: [],
    });
  });

  it('triple taps on "Call" and double taps on "Call" and "Check" act once each, with no error line', async () => {
    await tapTimes(ann.page, button(yourTurn(ann.page), 'Call $2.00'), 3);
    await pause(600);
    await expectTable(seated(), {
      stage: 'Pre-Flop',
      pot: 500,
      seats: { Ann: [4800, 200], Bob: [4900, 100], Cat: [4800, 200] },
      turn: 'Bob',
      total: 15000,
    });
    await tapTimes(bob.page, button(yourTurn(bob.page), 'Call $1.00'), 2);
    await pause(600);
    await expectTable(seated(), {
      stage: 'Pre-Flop',
      pot: 600,
      seats: { Ann: [4800, 200], Bob: [4800, 200], Cat: [4800, 200] },
      turn: 'Cat',
      total: 15000,
    });
    await tapTimes(cat.page, button(yourTurn(cat.page), 'Check'), 2);
    await pause(600);
    await expectTable(seated(), {
      stage: 'Pre-Flop',
      pot: 600,
      seats: { Ann: [4800, 200], Bob: [4800, 200], Cat: [4800, 200] },
      turn: null,
      total: 15000,
    });
    expect(await openDialogs(cat.page)).toBe(0);
    await expectVisible(button(hostControls(ann.page), 'Flop'));
  });

  it('a double tap on "Flop" deals the flop once (Bob first to act)', async () => {
    await tapTimes(ann.page, button(hostControls(ann.page), 'Flop'), 2);
    await pause(600);
    await expectTable(seated(), {
      stage: 'Flop',
      pot: 600,
      seats: { Ann: 4800, Bob: 4800, Cat: 4800 },
      turn: 'Bob',
      total: 15000,
    });
    expect(await openDialogs(ann.page)).toBe(0);
  });

  it("the room link opened in a second tab of Bob's phone: same seat; both tabs tap Check at once, one check", async () => {
    const tab = await bob.context.newPage();
    const errors: string[] = [];
    tab.on('pageerror', (e) => errors.push(e.message));
    await tab.goto(`/?join=${code}`);
    const tabPhone = { name: 'Bob', page: tab };
    const want: Expected = {
      stage: 'Flop',
      pot: 600,
      seats: { Ann: 4800, Bob: 4800, Cat: 4800 },
      turn: 'Bob',
      total: 15000,
    };
    await expectTable([...seated(), tabPhone], want);
    await expectContains(seat(tab, 'Bob'), ['(You)']);
    expect(await openDialogs(tab), 'no join form over the table in the second tab').toBe(0);
    await eventually(async () => expect(new URL(tab.url()).search).toBe(''));

    // Both tabs tap Check at the same moment (the stale one crosses the other).
    const [a, b] = await Promise.all([
      centreOf(button(yourTurn(bob.page), 'Check')),
      centreOf(button(yourTurn(tab), 'Check')),
    ]);
    await Promise.all([bob.page.touchscreen.tap(a.x, a.y), tab.touchscreen.tap(b.x, b.y)]);
    await expectTable([...seated(), tabPhone], { ...want, turn: 'Cat' });
    await tab.close();
    // Closing the second tab does not make Bob look gone.
    await pause(1500);
    for (const p of [ann, cat]) await expectContains(seat(p.page, 'Bob'), ['online']);
    expect(errors).toEqual([]);
  });

  it('a double tap on "Confirm Raise" bets once', async () => {
    await tap(button(yourTurn(cat.page), 'Raise'));
    const box = dialog(cat.page, 'Raise');
    await expectVisible(box);
    await tap(button(box, /^Min Raise/));
    await tapTimes(cat.page, button(box, 'Confirm Raise'), 2);
    await expectHidden(box);
    await pause(600);
    await expectTable(seated(), {
      stage: 'Flop',
      pot: 800,
      seats: { Ann: 4800, Bob: 4800, Cat: [4600, 200] },
      turn: 'Ann',
      total: 15000,
    });
    expect(await openDialogs(cat.page)).toBe(0);
  });

  const annToAct: Expected = {
    stage: 'Flop',
    pot: 800,
    seats: { Ann: 4800, Bob: 4800, Cat: [4600, 200] },
    turn: 'Ann',
    total: 15000,
  };

  /** If Ann's phone left the app (Back), brings it back (Forward, else the address again). */
  async function bringAnnBack() {
    if (
      new URL(ann.page.url()).origin === chipless.server.url &&
      (await ann.page.locator('h1.stage').count()) > 0
    )
      return;
    await ann.page.goForward().catch(() => null);
    if (new URL(ann.page.url()).origin !== chipless.server.url) await ann.page.goto('/');
  }

  // Back does not close a dialog: dialogs push no history entry (a decision, src/web/README.md), so
  // Back leaves the page like any other Back. What matters at the table: nothing is sent, and Forward
  // (or opening the app again) brings Ann back to her seat and her turn, with no dialog left open.
  it("the browser's Back with the Raise dialog open sends nothing; Forward brings Ann back to her turn, no dialog", async () => {
    await tap(button(yourTurn(ann.page), 'Raise'));
    await expectVisible(dialog(ann.page, 'Raise'));
    await ann.page.goBack({ timeout: 5_000 }).catch(() => null);
    await shot(ann.page, 'tipsy-03-back-in-raise-dialog').catch(() => {});
    expect(ann.page.url()).not.toBe(`${chipless.server.url}/`);
    await bringAnnBack();
    await expectTable(seated(), annToAct);
    expect(await openDialogs(ann.page)).toBe(0);
  });

  it('Back then Forward mid-hand: Ann comes back to the same seat, the same hand and her turn', async () => {
    await bringAnnBack();
    await ann.page.goBack({ timeout: 10_000 }).catch(() => null);
    await ann.page.goForward({ timeout: 10_000 }).catch(() => null);
    if (new URL(ann.page.url()).origin !== chipless.server.url) await ann.page.goto('/');
    await expectTable(seated(), annToAct);
    await expectContains(seat(ann.page, 'Ann'), ['(You)', 'Dealer']);
  });

  it('a reload with the Raise dialog (amount typed) or the End Game dialog open sends nothing', async () => {
    await tap(button(yourTurn(ann.page), 'Raise'));
    const box = dialog(ann.page, 'Raise');
    // On a touch screen the dialog opens without the caret in the amount: its on-screen keyboard
    // would cover the presets and Confirm Raise.
    await expectVisible(box);
    expect(await ann.page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Close');
    await box.getByLabel('Total Bet Amount').fill('10');
    await ann.page.reload();
    await expectTable(seated(), annToAct);
    expect(await openDialogs(ann.page)).toBe(0);
    await tap(button(hostControls(ann.page), 'End Game'));
    await expectVisible(dialog(ann.page, 'End Game'));
    await ann.page.reload();
    await expectTable(seated(), annToAct);
    expect(await openDialogs(ann.page)).toBe(0);
    await act(ann, 'Call $2.00');
    await expectTable(seated(), {
      stage: 'Flop',
      pot: 1000,
      seats: { Ann: [4600, 200], Bob: 4800, Cat: [4600, 200] },
      turn: 'Bob',
      total: 15000,
    });
  });

  it('Bob offline for 15 s on his turn, tapping Call meanwhile: back online he reads the table right and calls once', async () => {
    const reconnecting = bob.page.getByRole('status').filter({ hasText: 'Reconnecting…' });
    const callButton = button(yourTurn(bob.page), 'Call $2.00');
    await expectVisible(callButton);
    await bob.context.setOffline(true);
    await expectVisible(reconnecting);
    for (const p of [ann, cat]) await expectContains(seat(p.page, 'Bob'), ['offline']);
    // He taps Call while his phone has no network: nothing may reach the others.
    await tap(callButton);
    await pause(15_000);
    await shot(bob.page, 'tipsy-04-offline-tap');
    const offlineError = await bob.page
      .locator('.dock [role="alert"]')
      .textContent()
      .catch(() => null);
    await expectTable([ann, cat], {
      stage: 'Flop',
      pot: 1000,
      seats: { Ann: [4600, 200], Bob: 4800, Cat: [4600, 200] },
      turn: 'Bob',
      total: 15000,
    });
    await bob.context.setOffline(false);
    await expectHidden(reconnecting, 30_000);
    // Back: either his call was held and sent on reconnection, or it was refused and he taps again.
    await eventually(async () => {
      const view = await readTable(bob.page);
      expect(view.myTurn || view.pot === 1200).toBe(true);
    }, 30_000);
    if ((await readTable(bob.page)).myTurn) {
      await expectText(bob.page.locator('.to-call'), 'To call $2.00');
      await act(bob, 'Call $2.00');
    }
    await expectTable(seated(), {
      stage: 'Flop',
      pot: 1200,
      seats: { Ann: [4600, 200], Bob: [4600, 200], Cat: [4600, 200] },
      turn: null,
      total: 15000,
    });
    for (const p of [ann, cat]) await expectContains(seat(p.page, 'Bob'), ['online']);
    // While offline his tap must have said something (not a button that silently did nothing).
    expect(offlineError, 'the error line under his buttons after the tap offline').toBe(NO_CONNECTION);
  });

  it('a late joiner mid-hand: a triple tap on "Approve Dan" seats him once, dealt in from the next hand', async () => {
    await tap(button(hostControls(ann.page), 'Turn'));
    await expectTable(seated(), {
      stage: 'Turn',
      pot: 1200,
      seats: { Ann: 4600, Bob: 4600, Cat: 4600 },
      turn: 'Bob',
      total: 15000,
    });
    await tap(button(dan.page, 'Join with Code'));
    const join = dialog(dan.page, 'Join a Game');
    await join.getByLabel('Room Code').fill(code);
    await join.getByLabel('Your Name').fill('Dan');
    await join.getByLabel('Starting Chips').fill('40');
    await tap(button(join, 'Join Room'));
    const pending = ann.page.getByRole('region', { name: 'Waiting for Approval' });
    await expectContains(pending, ['Dan', 'Wants to join with $40.00 chips']);
    await expectVisible(
      dan.page.getByText('You will be dealt in when the host approves you and a new hand starts.'),
    );
    await shot(ann.page, 'tipsy-05-late-joiner');
    await tapTimes(ann.page, button(pending, 'Approve Dan'), 3);
    await expectHidden(pending);
    await pause(800);
    const four = [...seated(), dan];
    await expectTable(four, {
      stage: 'Turn',
      pot: 1200,
      seats: { Ann: 4600, Bob: 4600, Cat: 4600, Dan: 4000 },
      turn: 'Bob',
      total: 19000,
    });
    for (const p of four) await expectContains(seat(p.page, 'Dan'), ['Joins next hand']);
    expect(await ann.page.getByRole('alert').count(), 'no error line on the host phone').toBe(0);
    expect(await openDialogs(ann.page), 'no dialog opened by the extra taps').toBe(0);
  });

  it('Cat leaves mid-hand (double tap on "Leave Game"): her bet stays in the pot, the hand goes on', async () => {
    await tap(button(cat.page, 'Leave game'));
    const confirm = dialog(cat.page, 'Leave this game?');
    await expectVisible(confirm);
    await tapTimes(cat.page, button(confirm, 'Leave Game'), 2);
    await expectVisible(cat.page.getByRole('heading', { level: 1, name: 'Chipless' }));
    await expectTable([ann, bob, dan], {
      stage: 'Turn',
      pot: 1200,
      seats: { Ann: 4600, Bob: 4600, Dan: 4000 },
      turn: 'Bob',
      total: 14400,
    });
    await pause(600);
    await shot(cat.page, 'tipsy-09-after-leaving');
    const opened = await cat.page
      .getByRole('dialog')
      .evaluateAll((ds) =>
        ds.map((d) => d.getAttribute('aria-labelledby') && d.querySelector('h2')?.textContent),
      );
    expect(opened, 'dialogs the second tap opened on the landing').toEqual([]);
    // Her results are hers once the host ends the game; until then the home screen says so.
    await tap(button(cat.page, "Last Game's Results"));
    // The screen's one status with words: the connection's live region is there too, empty.
    const still = cat.page.getByRole('status').filter({ hasText: 'This game is still going' });
    await expectContains(still, [
      'This game is still going. Its results will be here once the host ends it.',
    ]);
    await expectVisible(button(cat.page, "Last Game's Results"));
  });

  it('to the showdown; a triple tap on "Award Pot" awards the pot once', async () => {
    const three = [ann, bob, dan];
    await act(bob, 'Check');
    await act(ann, 'Check');
    await tap(button(hostControls(ann.page), 'River'));
    await act(bob, 'Check');
    await act(ann, 'Check');
    await expectTable(three, {
      stage: 'Showdown',
      pot: 1200,
      seats: { Ann: 4600, Bob: 4600, Dan: 4000 },
      turn: null,
      total: 14400,
    });
    await tap(button(hostControls(ann.page), 'Declare Winner'));
    const win = dialog(ann.page, 'Declare Winner');
    await expectVisible(win);
    const winProblems = await sheetProblems(ann.page);
    // A finger taps the row's name, not the 24 px box: the label forwards the tap to its checkbox.
    await tap(win.locator('label.choice', { hasText: 'Bob' }));
    await eventually(async () => {
      expect(await win.getByRole('checkbox', { name: 'Bob' }).isChecked()).toBe(true);
    });
    const award = await notInBottomHalf(ann.page, button(win, 'Award Pot'), 'Award Pot');
    await tapTimes(ann.page, button(win, 'Award Pot'), 3);
    await expectHidden(win);
    await pause(800);
    await expectTable(three, {
      stage: 'Showdown',
      pot: 0,
      seats: { Ann: 4600, Bob: 5800, Dan: 4000 },
      turn: null,
      total: 14400,
    });
    expect(await openDialogs(ann.page)).toBe(0);
    const newHand = await notInBottomHalf(ann.page, button(hostControls(ann.page), 'New Hand'), 'New Hand');
    expect({ winProblems, placement: [award, newHand].filter(Boolean) }).toEqual({
      winProblems: [],
      placement: [],
    });
  });

  it('a double tap on "New Hand" deals hand #2 once; the host ends the game mid-hand, every bet goes back', async () => {
    const three = [ann, bob, dan];
    await tapTimes(ann.page, button(hostControls(ann.page), 'New Hand'), 2);
    await pause(600);
    await expectTable(three, {
      stage: 'Pre-Flop',
      hand: 'Hand #2',
      pot: 300,
      seats: { Ann: [4400, 200], Bob: 5800, Dan: [3900, 100] },
      turn: 'Bob',
      total: 14400,
    });
    await expectContains(seat(bob.page, 'Bob'), ['Dealer']);
    await act(bob, 'Call $2.00');
    await expectTable(three, {
      stage: 'Pre-Flop',
      pot: 500,
      seats: { Ann: [4400, 200], Bob: [5600, 200], Dan: [3900, 100] },
      turn: 'Dan',
      total: 14400,
    });
    await tap(button(hostControls(ann.page), 'End Game'));
    const end = dialog(ann.page, 'End Game');
    await expectVisible(end);
    await tapTimes(ann.page, button(end, 'End Game & Auto-Settle Payouts'), 2);
    for (const p of three) {
      const { page } = p;
      await expectText(page.getByRole('heading', { level: 1 }), "Bob Left em' all Chipless!");
      const settlements = page.getByRole('region', { name: 'Settlements' }).getByRole('listitem');
      await eventually(async () => {
        expect((await settlements.allInnerTexts()).map(squash).sort()).toEqual([
          'Ann owes Bob $4.00',
          'Cat owes Bob $4.00',
        ]);
      });
      const rows = (
        await page.getByRole('region', { name: 'Rankings' }).getByRole('listitem').allInnerTexts()
      ).map(squash);
      expect(rows).toHaveLength(4);
      // By final chips: Bob 58.00, Ann and Cat 46.00 (either order), Dan 40.00.
      expect(rows[0]).toMatch(/^1 Bob.*Final chips \$58\.00.*\+\$8\.00$/);
      expect(
        rows
          .slice(1, 3)
          .map((r) => r.replace(/\(You\)|Left/g, '').replace(/\s+/g, ' '))
          .sort(),
      ).toEqual([
        expect.stringMatching(/^[23] Ann Final chips \$46\.00.*-\$4\.00$/),
        expect.stringMatching(/^[23] Cat.*Final chips \$46\.00.*-\$4\.00$/),
      ]);
      expect(rows[3]).toMatch(/^4 Dan.*Final chips \$40\.00.*\$0\.00$/);
      expect(await touchProblems(page), `${p.name}'s results`).toEqual([]);
    }
    // The second tap did not throw the host out of the results.
    await pause(500);
    await expectText(ann.page.getByRole('heading', { level: 1 }), "Bob Left em' all Chipless!");
    await shot(ann.page, 'tipsy-06-game-over');
    // Cat, who left during the game, opens its results from her home screen: she is named in them.
    await tap(button(cat.page, "Last Game's Results"));
    await expectText(cat.page.getByRole('heading', { level: 1 }), "Bob Left em' all Chipless!");
    const catRows = cat.page.getByRole('region', { name: 'Rankings' }).getByRole('listitem');
    await expectContains(catRows.filter({ hasText: 'Cat' }), [
      '(You)',
      '(left)',
      'Final chips $46.00',
      '-$4.00',
    ]);
    await expectText(
      cat.page.getByRole('region', { name: 'Settlements' }).getByRole('listitem').filter({ hasText: 'Cat' }),
      'Cat owes Bob $4.00',
    );
    await tap(button(cat.page, 'Back to Home'));
    await tap(button(dialog(cat.page, 'Leave the results?'), 'Back to Home'));
    await expectVisible(button(cat.page, "Last Game's Results"));
  });
});

// =============================================================================================
// Part 2: heads-up, the host's double taps when the host acts first next
// =============================================================================================

describe('heads-up: the host double-taps a deal button and the second tap lands on the new turn', () => {
  let hal: Phone;
  let gus: Phone;
  const both = () => [hal, gus];

  beforeAll(async () => {
    hal = await phone('Hal');
    gus = await phone('Gus');
  });

  /** Checks (or advances, on the host's phone) until the showdown, then awards the pot to `winner`. */
  async function checkDownAndAward(winner: string) {
    for (let i = 0; i < 20; i++) {
      const view = await readTable(hal.page);
      if (view.stage === 'Showdown') break;
      if (view.turn) {
        const who = view.turn === 'Hal' ? hal : gus;
        await act(who, 'Check');
      } else {
        const next = hostControls(hal.page).getByRole('button', { name: /^(Flop|Turn|River|Showdown)$/ });
        await tap(next);
      }
      await eventually(async () => {
        expect(await readTable(hal.page)).not.toEqual(view);
      });
    }
    await tap(button(hostControls(hal.page), 'Declare Winner'));
    const win = dialog(hal.page, 'Declare Winner');
    await win.getByRole('checkbox', { name: winner }).check();
    await tap(button(win, 'Award Pot'));
    await expectHidden(win);
  }

  it('hand 1: Hal calls, checked down, Gus wins', async () => {
    await enter(hal, 'Start a Game', '50');
    const code = squash((await hal.page.locator('.room-code').textContent()) ?? '');
    await enter(gus, 'Join with Code', '50', code);
    await tap(button(hal.page, 'Approve Gus'));
    await tap(button(hal.page, 'Start Game'));
    await expectTable(both(), {
      stage: 'Pre-Flop',
      hand: 'Hand #1',
      pot: 300,
      seats: { Hal: [4900, 100], Gus: [4800, 200] },
      turn: 'Hal',
      total: 10000,
    });
    await act(hal, 'Call $1.00');
    await checkDownAndAward('Gus');
    await expectTable(both(), {
      stage: 'Showdown',
      pot: 0,
      seats: { Hal: 4800, Gus: 5200 },
      turn: null,
      total: 10000,
    });
  });

  it('hand 2: a double tap on "Flop" must not also check for Hal, who is first to act on the flop', async () => {
    await tap(button(hostControls(hal.page), 'New Hand'));
    await expectTable(both(), {
      stage: 'Pre-Flop',
      hand: 'Hand #2',
      pot: 300,
      seats: { Hal: [4600, 200], Gus: [5100, 100] },
      turn: 'Gus',
      total: 10000,
    });
    await act(gus, 'Call $1.00');
    await act(hal, 'Check');
    await expectVisible(button(hostControls(hal.page), 'Flop'));
    await tapTimes(hal.page, button(hostControls(hal.page), 'Flop'), 2);
    await pause(800);
    await shot(hal.page, 'tipsy-07-double-tap-flop');
    try {
      await expectTable(
        both(),
        { stage: 'Flop', pot: 400, seats: { Hal: 4600, Gus: 5000 }, turn: 'Hal', total: 10000 },
        5_000,
      );
    } finally {
      await checkDownAndAward('Hal');
      await expectTable(both(), {
        stage: 'Showdown',
        pot: 0,
        seats: { Hal: 5000, Gus: 5000 },
        turn: null,
        total: 10000,
      });
    }
  });

  it('hand 3: a double tap on "New Hand" must not also call for Hal, who is first to act pre-flop', async () => {
    await tapTimes(hal.page, button(hostControls(hal.page), 'New Hand'), 2);
    await pause(800);
    await shot(hal.page, 'tipsy-08-double-tap-new-hand');
    await expectTable(
      both(),
      {
        stage: 'Pre-Flop',
        hand: 'Hand #3',
        pot: 300,
        seats: { Hal: [4900, 100], Gus: [4800, 200] },
        turn: 'Hal',
        total: 10000,
      },
      5_000,
    );
    await expectVisible(button(yourTurn(hal.page), 'Call $1.00'));
  });
});
