/**
 * The app served over plain HTTP on the home network, as a host runs it: `npm start` on a laptop, the
 * friends' phones open http://<the laptop's LAN address>:<port>. That origin is not a secure context,
 * so crypto.randomUUID, navigator.clipboard, navigator.wakeLock, navigator.share and service workers
 * are missing. 127.x and localhost count as secure in Chromium, which is why the other suites (on
 * 127.0.0.1) never see this: here the server listens on this machine's non-loopback address
 * (LAN_HOST, else its first non-internal IPv4 address: 192.0.2.2 on eth0 here) and the phones open it
 * there.
 * startChipless (browser.ts) runs `npm start` with HOST set to that address.
 *
 * Ann hosts, Bob and Cat join with $50.00 each; blinds $1.00 / $2.00 (Ann D, Bob SB, Cat BB).
 * - Lobby: the join link names the LAN address; "Copy Link" (no Clipboard API here) copies it with the
 *   fallback and says "Copied!"; no "Share Link" (no Web Share here), so no button that does nothing.
 * - Pre-flop: Ann calls $2.00, Bob calls $1.00, Cat checks (pot $6.00). Flop.
 * - Flop: Bob's phone drops its connection (offline: Socket.IO closes the socket), reads
 *   "Reconnecting…", the others see him offline; back online he is back in his seat and checks. Cat
 *   raises (Min Raise, $2.00), Ann calls, Bob calls: pot $12.00, every stack $46.00.
 * - Turn: Cat reloads her phone (refreshing is safe here) and is back in her seat; all check. River:
 *   all check. Showdown: the host declares Cat the winner ($12.00 → Cat $58.00).
 * - End Game: "Cat Left em' all Chipless!", "Ann owes Cat $4.00", "Bob owes Cat $4.00"; Bob's "Copy
 *   Results" copies them as text with the fallback.
 * Every phone: window.isSecureContext is false, no uncaught exception, no unhandled rejection, no
 * console error; the wake-lock and turn-buzz effects ran on a table without throwing.
 */
import { networkInterfaces } from 'node:os';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  chiplessSuite,
  eventually,
  expectContains,
  expectHidden,
  expectText,
  expectVisible,
  type Phone,
  squash,
} from './browser';
import {
  act,
  button,
  dialog,
  enterRoom,
  expectHand as expectHandOn,
  type HandState,
  hostControls,
  reconnecting,
  seat,
  stage,
  waitingLine,
  yourTurn,
} from './screen';

/** The non-loopback address the phones use (an insecure origin for Chromium). */
const LAN_HOST =
  process.env.LAN_HOST ??
  Object.values(networkInterfaces())
    .flat()
    .find((i) => i?.family === 'IPv4' && !i.internal)?.address ??
  'none';

// Before the server starts (this hook runs first).
beforeAll(() => {
  expect(
    Object.values(networkInterfaces())
      .flat()
      .some((i) => i?.address === LAN_HOST),
    `this machine has no non-loopback IPv4 address ${LAN_HOST} (set LAN_HOST to one)`,
  ).toBe(true);
});

// Console errors and unhandled rejections fail the run too (strict), besides uncaught exceptions.
const chipless = chiplessSuite({ phones: ['Ann', 'Bob', 'Cat'], server: { host: LAN_HOST }, strict: true });
const { phones } = chipless;
let ann: Phone;
let bob: Phone;
let cat: Phone;
/** The WebSocket URLs each phone's page opened (the page's CSP must let ws://LAN_HOST through). */
const sockets = new Map<string, string[]>();

beforeAll(async () => {
  for (const phone of phones) {
    // Before any script of the app: what a copy put on the clipboard (the page cannot read the
    // clipboard back on an insecure origin, but it sees the copy event).
    await phone.context.addInitScript(() => {
      const w = window as unknown as { e2eCopied: string[] };
      w.e2eCopied = [];
      document.addEventListener('copy', () => w.e2eCopied.push(String(document.getSelection())));
    });
    sockets.set(phone.name, []);
    phone.page.on('websocket', (ws) => sockets.get(phone.name)?.push(ws.url()));
  }
  [ann, bob, cat] = phones as [Phone, Phone, Phone];
});

/** Every phone's stacks plus pot: the $150.00 Ann, Bob and Cat brought. */
const TABLE = { names: ['Ann', 'Bob', 'Cat'], total: 15_000 };
const expectHand = (state: HandState) => expectHandOn(state, phones, TABLE);

describe('plain HTTP on the home network (not a secure context)', () => {
  chipless.stopAtFirstFailure('plain-http-');

  it('the phones open the LAN address: an insecure origin without the secure-only APIs', async () => {
    for (const p of phones) {
      await p.page.goto('/');
      await expectVisible(button(p.page, 'Start a Game'));
      expect(
        await p.page.evaluate(() => ({
          origin: location.origin,
          secure: window.isSecureContext,
          randomUUID: typeof globalThis.crypto?.randomUUID,
          clipboard: 'clipboard' in navigator,
          wakeLock: 'wakeLock' in navigator,
          share: 'share' in navigator,
          serviceWorker: 'serviceWorker' in navigator,
        })),
      ).toEqual({
        origin: chipless.server.url,
        secure: false,
        randomUUID: 'undefined',
        clipboard: false,
        wakeLock: false,
        share: false,
        serviceWorker: false,
      });
    }
  });

  it('lobby: the join link names the LAN address, Copy Link copies it, no Share button', async () => {
    await enterRoom(ann.page, 'Start a Game', { name: 'Ann', chips: '50' });
    const code = squash((await ann.page.locator('.room-code').textContent()) ?? '');
    expect(code).toMatch(/^[A-Z0-9]{4,8}$/);
    const joinUrl = `${chipless.server.url}/?join=${code}`;
    await expectText(ann.page.locator('.join-link'), joinUrl.replace('http://', ''));
    expect(await ann.page.locator('.join-link').getAttribute('href')).toBe(joinUrl);
    await expectVisible(ann.page.getByRole('img', { name: new RegExp(code) }));

    // No Web Share on this origin: no Share button. The Clipboard API is missing too, yet the link
    // can be copied (the fallback), and the button says so.
    expect(await button(ann.page, 'Share Link').count()).toBe(0);
    const shareButtons = ann.page.locator('.share-link').getByRole('button');
    expect((await shareButtons.allInnerTexts()).map(squash)).toEqual(['Copy Link']);
    // By position: its name turns into "Copied!".
    const copy = shareButtons.first();
    await copy.click();
    await expectText(copy, 'Copied!');
    expect(await ann.page.evaluate(() => (window as unknown as { e2eCopied: string[] }).e2eCopied)).toEqual([
      joinUrl,
    ]);
    // The page is as it was: focus back on the button, nothing left selected, no helper left over.
    // The button is found by its place, not its words: "Copied!" turns back into "Copy Link" after 2 s,
    // which a slow machine can take between the click and this check.
    expect(
      await copy.evaluate((button) => ({
        focused: document.activeElement === button,
        selection: String(document.getSelection()),
        textareas: document.querySelectorAll('textarea').length,
      })),
    ).toEqual({ focused: true, selection: '', textareas: 0 });
    await expectText(copy, 'Copy Link');

    for (const p of [bob, cat]) {
      await enterRoom(p.page, 'Join with Code', { name: p.name, chips: '50', code });
      await button(ann.page, `Approve ${p.name}`).click();
    }
    for (const p of phones) await expectContains(p.page.locator('#players-title'), ['Players (3/']);
    // Socket.IO moved from long-polling to a WebSocket on the LAN address (not held back by the CSP).
    const wsPrefix = `ws://${new URL(chipless.server.url).host}/socket.io/?`;
    await eventually(async () => {
      for (const p of phones) {
        const url = sockets.get(p.name)?.[0] ?? '';
        expect([url.startsWith(wsPrefix), url.includes('transport=websocket')], `${p.name}: ${url}`).toEqual([
          true,
          true,
        ]);
      }
    });
    await button(ann.page, 'Start Game').click();
  });

  it('pre-flop and the flop, with a dropped connection that comes back', async () => {
    await expectHand({
      stage: 'Pre-Flop',
      pot: 'Pot $3.00',
      seats: { Ann: ['Dealer', 'Stack $50.00'], Bob: ['Stack $49.00', 'Bet $1.00'], Cat: ['Stack $48.00'] },
      turn: ann,
    });
    await act(ann, 'Call $2.00');
    await act(bob, 'Call $1.00');
    await act(cat, 'Check');
    await button(hostControls(ann.page), 'Flop').click();
    const flop = {
      stage: 'Flop',
      pot: 'Pot $6.00',
      seats: { Ann: ['Stack $48.00'], Bob: ['Stack $48.00'], Cat: ['Stack $48.00'] },
      turn: bob,
    };
    await expectHand(flop);

    // Bob's phone loses its network on his turn: Socket.IO closes the socket ('offline' event).
    await bob.context.setOffline(true);
    await expectVisible(reconnecting(bob.page));
    for (const p of [ann, cat]) await expectContains(seat(p.page, 'Bob'), ['offline']);
    await bob.context.setOffline(false);
    await expectHidden(reconnecting(bob.page));
    for (const p of [ann, cat]) await expectContains(seat(p.page, 'Bob'), ['online']);
    await expectHand(flop);
    await act(bob, 'Check');

    // Cat raises with the Min Raise preset: $2.00.
    await button(yourTurn(cat.page), 'Raise').click();
    const box = dialog(cat.page, 'Raise');
    await button(box, /^Min Raise/).click();
    expect(await box.getByLabel('Total Bet Amount').inputValue()).toBe('2.00');
    await button(box, 'Confirm Raise').click();
    await expectHidden(box);
    await act(ann, 'Call $2.00');
    await act(bob, 'Call $2.00');
    for (const p of [bob, cat]) {
      await expectText(waitingLine(p.page), 'Betting round complete Waiting for the host to deal the turn');
    }
    await button(hostControls(ann.page), 'Turn').click();
    await expectHand({
      stage: 'Turn',
      pot: 'Pot $12.00',
      seats: { Ann: ['Stack $46.00'], Bob: ['Stack $46.00'], Cat: ['Stack $46.00'] },
      turn: bob,
    });
  });

  it('turn and river (a reload on the way), showdown, Declare Winner, End Game, settlements', async () => {
    // Refreshing is safe: Cat reloads and is back in her seat.
    await cat.page.reload();
    await expectText(stage(cat.page), 'Turn');
    await expectContains(seat(cat.page, 'Cat'), ['Stack $46.00', '(You)']);
    await act(bob, 'Check');
    await act(cat, 'Check');
    await act(ann, 'Check');
    await button(hostControls(ann.page), 'River').click();
    await expectHand({
      stage: 'River',
      pot: 'Pot $12.00',
      seats: { Ann: ['Stack $46.00'], Bob: ['Stack $46.00'], Cat: ['Stack $46.00'] },
      turn: bob,
    });
    await act(bob, 'Check');
    await act(cat, 'Check');
    await act(ann, 'Check');
    for (const p of phones) await expectText(stage(p.page), 'Showdown');

    await button(hostControls(ann.page), 'Declare Winner').click();
    const win = dialog(ann.page, 'Declare Winner');
    await expectContains(win, ['Pot: $12.00']);
    await win.getByRole('checkbox', { name: 'Cat' }).check();
    await button(win, 'Award Pot').click();
    await expectHidden(win);
    for (const p of phones) {
      await expectContains(seat(p.page, 'Cat'), ['Stack $58.00', 'Winner']);
      await expectContains(seat(p.page, 'Ann'), ['Stack $46.00']);
      await expectContains(seat(p.page, 'Bob'), ['Stack $46.00']);
    }

    await button(hostControls(ann.page), 'End Game').click();
    await button(dialog(ann.page, 'End Game'), 'End Game & Auto-Settle Payouts').click();
    for (const p of phones) {
      await expectText(p.page.getByRole('heading', { level: 1 }), "Cat Left em' all Chipless!");
      const settlements = p.page.getByRole('region', { name: 'Settlements' }).getByRole('listitem');
      await eventually(async () => {
        expect((await settlements.allInnerTexts()).map(squash)).toEqual([
          'Ann owes Cat $4.00',
          'Bob owes Cat $4.00',
        ]);
      });
    }

    // Bob copies the results for the group chat: no Share here either, and the fallback copies the
    // whole text, lines and all.
    expect(await button(bob.page, 'Share Results').count()).toBe(0);
    const copy = bob.page.locator('.share-results').getByRole('button');
    await expectText(copy, 'Copy Results');
    await copy.click();
    await expectText(copy, 'Copied!');
    expect(await bob.page.evaluate(() => (window as unknown as { e2eCopied: string[] }).e2eCopied)).toEqual([
      [
        // The day the game ended on the phone's clock (the browser's time zone is this machine's).
        `Chipless results, ${new Date().toLocaleDateString('en-US', { month: 'short', day: 'numeric', year: 'numeric' })}`,
        "Cat Left em' all Chipless!",
        '',
        'Settlements:',
        'Ann owes Cat $4.00',
        'Bob owes Cat $4.00',
        '',
        'Rankings:',
        '1. Cat: net +$8.00, final chips $58.00',
        '2. Ann: net -$4.00, final chips $46.00',
        '3. Bob: net -$4.00, final chips $46.00',
      ].join('\n'),
    ]);
  });
});
