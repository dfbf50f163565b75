/**
 * Phones that sleep, hide, leave the page and come back, with real Chromium and the real `npm start`.
 *
 * Ann hosts, Bob and Cat join, $50.00 each, blinds $1.00 / $2.00 (Ann D, Bob SB, Cat BB); $150.00 on
 * the table throughout. After every step every phone shows the same stage, pot, stacks, bets and turn,
 * and each phone's stacks plus its pot add up to $150.00.
 *
 * 1. Pre-flop, Ann's turn. Bob's phone sleeps for 5 s; meanwhile Ann calls $2.00, so the turn reaches
 *    Bob while he sleeps. Awake: his turn ("Call $1.00", pot $5.00) without a reload; his call reaches
 *    every phone (pot $6.00, Cat's turn).
 * 2. Ann's tab is hidden (visibilitychange) while Cat checks; shown again, she has the Flop button and
 *    deals the flop (Bob's turn).
 * 3. Ann's phone sleeps 50 s, longer than Socket.IO's heartbeat (pingInterval 25 s + pingTimeout 20 s,
 *    the server's defaults; no setting shortens them): the other phones show her offline. Meanwhile Bob
 *    checks and Cat bets $2.00 (pot $8.00): the turn reaches Ann while she sleeps. Awake: her turn,
 *    "Call $2.00", pot $8.00, no reload; her call reaches every phone (pot $10.00, Bob's turn).
 * 4. Bob, offline, taps "Call $2.00" and stays offline past the 10 s answer timeout: the phone says
 *    "Reconnecting…", the buttons are disabled while it waits, then "No connection right now…". Back
 *    online it is still his turn and nothing was applied (pot $10.00 everywhere); he taps again and the
 *    call is applied once (pot $12.00, Ann 46, Bob 46, Cat 46). The host deals the turn.
 * 5. Bob, offline, taps "Check" and is back online a second later: applied exactly once (Cat's turn).
 * 6. Cat's phone sleeps 50 s on her own turn (the server drops her); the moment it wakes, before the
 *    phone noticed its connection died, she taps "Check": applied exactly once (Ann's turn).
 * 7. Back/forward cache: Bob opens /about while Ann checks and deals the river (Bob's turn), then Cat
 *    goes to about:blank. Bob's Back: the page comes from the cache (pageshow persisted, same
 *    document) with the river and his turn; his check gives Cat the turn while she is away. Cat's
 *    Back: from the cache, her turn, live; her check and Ann's reach every phone (Showdown, $12.00).
 *
 * Sleeping: Chromium's `Page.setWebLifecycleState` 'frozen' is sent, but this headless Chromium (156)
 * ignores it for a page that is visible (timers keep running, no `freeze` event; checked with a bare
 * page), and headless pages cannot be hidden. So the page's JavaScript is also stopped with the
 * debugger (`Debugger.pause`): no timer, no WebSocket message, no heartbeat answer runs until
 * 'active' + `Debugger.resume`, as on a phone whose browser was frozen. A timer on the page proves it:
 * its longest gap covers the sleep. Hidden: `document.visibilityState` overridden and a
 * `visibilitychange` event fired (headless Chromium keeps every page visible). Playwright launches
 * Chromium with `--disable-back-forward-cache`; this suite drops that flag so Back really restores
 * from the cache, as on a phone.
 */
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  chiplessSuite,
  eventually,
  expectContains,
  expectDisabled,
  expectHidden,
  expectText,
  expectVisible,
  type Phone,
  shot,
} from './browser';
import {
  act,
  button,
  expectConserved as expectConservedOn,
  expectHand as expectHandOn,
  expectNoReload,
  type HandState,
  hostControls,
  mark,
  pot,
  reconnecting,
  seat,
  stage,
  startGame,
  waitingLine,
  yourTurn,
} from './screen';

const chipless = chiplessSuite({
  phones: ['Ann', 'Bob', 'Cat'],
  // Playwright's default disables the back/forward cache; a phone's browser has it.
  browser: { ignoreDefaultArgs: ['--disable-back-forward-cache'] },
});
const { phones } = chipless;
let ann: Phone;
let bob: Phone;
let cat: Phone;

/** Longer than the server's heartbeat gives a silent connection (25 s + 20 s, Socket.IO's defaults). */
const LONG_SLEEP_MS = 50_000;
const NO_CONNECTION = 'No connection right now. Please try again in a moment.';

beforeAll(() => {
  [ann, bob, cat] = phones as [Phone, Phone, Phone];
});

const alert = (page: Page) => page.getByRole('alert');
const pause = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Every phone's stacks plus pot: the $150.00 Ann, Bob and Cat brought. */
const TABLE = { names: ['Ann', 'Bob', 'Cat'], total: 15_000 };
const expectHand = (state: HandState, seated = phones) => expectHandOn(state, seated, TABLE);
const expectConserved = (p: Phone) => expectConservedOn(p, TABLE.names, TABLE.total);

/**
 * Puts the phone to sleep: the page frozen ('frozen' lifecycle state, and its JavaScript stopped by
 * the debugger, see the header). Returns `wake()`, which resolves once the page runs again and
 * asserts that the page's own timer saw a gap of at least the time it slept.
 */
async function sleep(p: Phone): Promise<{ until(ms: number): Promise<void>; wake(): Promise<number> }> {
  // A timer on the page that records its longest gap: proof that the page did not run meanwhile.
  await p.page.evaluate(() => {
    const w = window as unknown as { sleepGap: number; sleepTimer?: number };
    clearInterval(w.sleepTimer);
    w.sleepGap = 0;
    let last = Date.now();
    w.sleepTimer = window.setInterval(() => {
      const now = Date.now();
      w.sleepGap = Math.max(w.sleepGap, now - last);
      last = now;
    }, 100);
  });
  const cdp = await p.context.newCDPSession(p.page);
  await cdp.send('Debugger.enable');
  await cdp.send('Page.setWebLifecycleState', { state: 'frozen' });
  await cdp.send('Debugger.pause');
  const since = Date.now();
  return {
    /** Waits until the phone has slept `ms` (a timed wait: the sleep is the point). */
    until: (ms: number) => pause(Math.max(0, since + ms - Date.now())),
    wake: async () => {
      const slept = Date.now() - since;
      await cdp.send('Page.setWebLifecycleState', { state: 'active' });
      await cdp.send('Debugger.resume');
      await cdp.send('Debugger.disable');
      await cdp.detach();
      const gap = await p.page.evaluate(() => (window as unknown as { sleepGap: number }).sleepGap);
      expect(gap, `${p.name}'s page ran while asleep`).toBeGreaterThanOrEqual(slept - 1_000);
      return slept;
    },
  };
}

/** Hides or shows the tab: document.visibilityState and a visibilitychange event (see the header). */
async function setHidden(p: Phone, hidden: boolean) {
  await p.page.evaluate((h) => {
    Object.defineProperty(document, 'visibilityState', {
      configurable: true,
      get: () => (h ? 'hidden' : 'visible'),
    });
    Object.defineProperty(document, 'hidden', { configurable: true, get: () => h });
    document.dispatchEvent(new Event('visibilitychange'));
    window.dispatchEvent(new Event(h ? 'blur' : 'focus'));
  }, hidden);
}

describe('phones that sleep, hide and leave the page, mid-hand', () => {
  chipless.stopAtFirstFailure('lifecycle-');

  it('a phone asleep 5 s gets its turn meanwhile: awake, it is its turn, and its tap works', async () => {
    await startGame(ann, [bob, cat]);
    await expectHand({
      stage: 'Pre-Flop',
      pot: 'Pot $3.00',
      seats: { Ann: ['Dealer', 'Stack $50.00'], Bob: ['Stack $49.00', 'Bet $1.00'], Cat: ['Stack $48.00'] },
      turn: ann,
    });
    for (const p of phones) await mark(p);

    const bobSleep = await sleep(bob);
    await act(ann, 'Call $2.00');
    const bobToAct: HandState = {
      stage: 'Pre-Flop',
      pot: 'Pot $5.00',
      seats: {
        Ann: ['Stack $48.00', 'Bet $2.00'],
        Bob: ['Stack $49.00', 'Bet $1.00'],
        Cat: ['Stack $48.00', 'Bet $2.00'],
      },
      turn: bob,
    };
    await expectHand(bobToAct, [ann, cat]);
    await bobSleep.until(5_000);
    expect(await bobSleep.wake()).toBeGreaterThanOrEqual(5_000);
    await expectHand(bobToAct);
    await expectVisible(button(yourTurn(bob.page), 'Call $1.00'));
    await expectNoReload(bob);
    await shot(bob.page, 'lifecycle-1-awake-5s');

    await act(bob, 'Call $1.00');
    await expectHand({
      stage: 'Pre-Flop',
      pot: 'Pot $6.00',
      seats: {
        Ann: ['Stack $48.00', 'Bet $2.00'],
        Bob: ['Stack $48.00', 'Bet $2.00'],
        Cat: ['Stack $48.00', 'Bet $2.00'],
      },
      turn: cat,
    });
  });

  it('a hidden tab shown again is live: the host deals the flop', async () => {
    await setHidden(ann, true);
    expect(await ann.page.evaluate(() => document.visibilityState)).toBe('hidden');
    await act(cat, 'Check');
    for (const p of [bob, cat]) {
      await expectText(waitingLine(p.page), 'Betting round complete Waiting for the host to deal the flop');
    }
    await setHidden(ann, false);
    await button(hostControls(ann.page), 'Flop').click();
    await expectHand({
      stage: 'Flop',
      pot: 'Pot $6.00',
      seats: { Ann: ['Stack $48.00'], Bob: ['Stack $48.00'], Cat: ['Stack $48.00'] },
      turn: bob,
    });
    await expectNoReload(ann);
  });

  it('the host asleep longer than the heartbeat: the others play on, she wakes to her turn and calls', async () => {
    const annSleep = await sleep(ann);
    await act(bob, 'Check');
    await button(yourTurn(cat.page), 'Raise').click();
    const box = cat.page.getByRole('dialog', { name: 'Raise' });
    await button(box, /^Min Raise/).click();
    await button(box, 'Confirm Raise').click();
    await expectHidden(box);
    const annToAct: HandState = {
      stage: 'Flop',
      pot: 'Pot $8.00',
      seats: { Ann: ['Stack $48.00'], Bob: ['Stack $48.00'], Cat: ['Stack $46.00', 'Bet $2.00'] },
      turn: ann,
    };
    await expectHand(annToAct, [bob, cat]);
    // The server gave up on the sleeping phone's connection.
    for (const p of [bob, cat]) await expectContains(seat(p.page, 'Ann'), ['offline'], LONG_SLEEP_MS);
    await annSleep.until(LONG_SLEEP_MS);
    expect(await annSleep.wake()).toBeGreaterThanOrEqual(LONG_SLEEP_MS);
    await expectHand(annToAct);
    await expectVisible(button(yourTurn(ann.page), 'Call $2.00'));
    await expectHidden(reconnecting(ann.page));
    for (const p of [bob, cat]) await expectContains(seat(p.page, 'Ann'), ['online']);
    await expectNoReload(ann);
    await shot(ann.page, 'lifecycle-2-awake-50s');

    await act(ann, 'Call $2.00');
    await expectHand({
      stage: 'Flop',
      pot: 'Pot $10.00',
      seats: {
        Ann: ['Stack $46.00', 'Bet $2.00'],
        Bob: ['Stack $48.00'],
        Cat: ['Stack $46.00', 'Bet $2.00'],
      },
      turn: bob,
    });
  });

  it('a tap offline past the answer timeout clearly fails and is never applied later', async () => {
    const bobCall: HandState = {
      stage: 'Flop',
      pot: 'Pot $10.00',
      seats: {
        Ann: ['Stack $46.00', 'Bet $2.00'],
        Bob: ['Stack $48.00'],
        Cat: ['Stack $46.00', 'Bet $2.00'],
      },
      turn: bob,
    };
    await bob.context.setOffline(true);
    await expectVisible(reconnecting(bob.page));
    const call = button(yourTurn(bob.page), 'Call $2.00');
    await call.click();
    // Waiting for an answer: the buttons are disabled, the banner says why.
    await expectDisabled(call);
    await expectDisabled(button(yourTurn(bob.page), 'Fold'));
    await expectText(alert(bob.page), NO_CONNECTION, 20_000);
    await expectVisible(reconnecting(bob.page));
    await shot(bob.page, 'lifecycle-3-offline-failed');
    await expectHand(bobCall, [ann, cat]);

    await bob.context.setOffline(false);
    await expectHidden(reconnecting(bob.page));
    for (const p of [ann, cat]) await expectContains(seat(p.page, 'Bob'), ['online']);
    await expectHidden(alert(bob.page));
    await expectHand(bobCall);
    // The failed call was not sent on reconnection: tapping again makes exactly one call.
    await act(bob, 'Call $2.00');
    for (const p of [bob, cat]) {
      await expectText(waitingLine(p.page), 'Betting round complete Waiting for the host to deal the turn');
    }
    await expectText(pot(ann.page), 'Pot $12.00');
    for (const p of phones) {
      await expectText(pot(p.page), 'Pot $12.00');
      for (const name of ['Ann', 'Bob', 'Cat']) await expectContains(seat(p.page, name), ['Stack $46.00']);
      await expectConserved(p);
    }
    await button(hostControls(ann.page), 'Turn').click();
    await expectHand({
      stage: 'Turn',
      pot: 'Pot $12.00',
      seats: { Ann: ['Stack $46.00'], Bob: ['Stack $46.00'], Cat: ['Stack $46.00'] },
      turn: bob,
    });
  });

  it('a tap offline for a second is applied exactly once when the phone is back', async () => {
    await bob.context.setOffline(true);
    await expectVisible(reconnecting(bob.page));
    const check = button(yourTurn(bob.page), 'Check');
    await check.click();
    await expectDisabled(check);
    await pause(1_000);
    await bob.context.setOffline(false);
    await expectHidden(reconnecting(bob.page));
    await expectHand({
      stage: 'Turn',
      pot: 'Pot $12.00',
      seats: { Ann: ['Stack $46.00'], Bob: ['Stack $46.00'], Cat: ['Stack $46.00'] },
      turn: cat,
    });
    await expectHidden(alert(bob.page));
  });

  it('a tap the moment a long-asleep phone wakes (its connection dead) is applied exactly once', async () => {
    const catSleep = await sleep(cat);
    for (const p of [ann, bob]) await expectContains(seat(p.page, 'Cat'), ['offline'], LONG_SLEEP_MS);
    await catSleep.until(LONG_SLEEP_MS);
    await catSleep.wake();
    // Her screen still shows her turn from before; she taps at once.
    await button(yourTurn(cat.page), 'Check').click();
    await expectHand({
      stage: 'Turn',
      pot: 'Pot $12.00',
      seats: { Ann: ['Stack $46.00'], Bob: ['Stack $46.00'], Cat: ['Stack $46.00'] },
      turn: ann,
    });
    await expectHidden(alert(cat.page));
    await expectNoReload(cat);
  });

  it('Back from another page: the room comes back from the back/forward cache, live', async () => {
    const shows = (p: Phone) =>
      p.page.evaluate(() => {
        const w = window as unknown as { shows?: boolean[] };
        if (!w.shows) {
          w.shows = [];
          window.addEventListener('pageshow', (e) => w.shows!.push(e.persisted));
        }
        return w.shows;
      });
    await shows(bob);
    await shows(cat);

    await bob.page.goto('/about');
    await expectVisible(bob.page.getByRole('heading', { level: 1 }));
    await act(ann, 'Check');
    await button(hostControls(ann.page), 'River').click();
    const bobRiver: HandState = {
      stage: 'River',
      pot: 'Pot $12.00',
      seats: { Ann: ['Stack $46.00'], Bob: ['Stack $46.00'], Cat: ['Stack $46.00'] },
      turn: bob,
    };
    await expectHand(bobRiver, [ann, cat]);
    // Cat leaves for another site too; Bob's check will give her the turn while she is away.
    await cat.page.goto('about:blank');
    // A restore from the cache fires no load event.
    await bob.page.goBack({ waitUntil: 'commit' });
    await eventually(async () => expect(await shows(bob)).toEqual([true]));
    await expectNoReload(bob);
    await expectHand(bobRiver, [ann, bob]);
    await shot(bob.page, 'lifecycle-4-back');
    await act(bob, 'Check');
    const catRiver: HandState = { ...bobRiver, turn: cat };
    await expectHand(catRiver, [ann, bob]);

    await cat.page.goBack({ waitUntil: 'commit' });
    await eventually(async () => expect(await shows(cat)).toEqual([true]));
    await expectNoReload(cat);
    await expectHand(catRiver);
    await act(cat, 'Check');
    await expectHand({ ...bobRiver, turn: ann });
    await act(ann, 'Check');
    for (const p of phones) {
      await expectText(stage(p.page), 'Showdown');
      await expectText(pot(p.page), 'Pot $12.00');
      await expectConserved(p);
    }
  });
});
