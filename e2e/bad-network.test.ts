/**
 * Phones on bad networks: weak home Wi-Fi, mobile data in a basement.
 *
 * How the links are made. Chromium's own throttling (DevTools' Network.emulateNetworkConditions, per
 * phone through a CDP session) delays and slows HTTP, and the WebSocket's opening handshake, but in
 * this Chromium (156) not the WebSocket's frames: with 2 s of latency a fetch took 2.26 s and the
 * WebSocket's handshake 2.05 s, but a Socket.IO connect packet's round trip on the open socket took
 * 59 ms (measured with a bare WebSocket to /socket.io/). So each phone also opens the app through its
 * own small TCP proxy here in the test process (`Link`; Socket.IO's URL is the page's origin, so the
 * proxy serves the whole origin): on a WebSocket connection it delays every chunk by half the round
 * trip each way plus its time at the link's speed, in order; and it can stall, holding every chunk
 * of every connection (HTTP too) until the stall ends, without dropping anything.
 *
 * Profiles (README's numbers; `bad-network` in the report): Ann, the host, on slow 3G (400 ms round
 * trip, 400 kbit/s); Bob on a bad link (3 s round trip, 400 kbit/s) whose link also stalls for 15 s
 * once, on his turn.
 *
 * The night, heads-up, $50.00 each, blinds $1.00 / $2.00 (Ann dealer and small blind):
 * - first load: each phone's landing is usable (Start a Game can be tapped) within its budget
 *   (8 s on slow 3G, 15 s on the bad link; measured ~3.7 s and ~9 s);
 * - Ann creates the room; Bob joins right after his page loaded, while his first connection is still
 *   coming up; Ann approves him and starts;
 * - pre-flop: Ann calls $1.00; Bob checks while his link stalls for 15 s: his phone says "Slow
 *   connection, still sending. No need to tap again." under the greyed buttons, never "No connection"
 *   nor "Reconnecting…", and the check is applied once when the stall ends (pot $4.00, $48.00 each);
 * - flop: Bob raises (Min Raise, $2.00), Ann calls; turn and river checked; Ann awards Bob the $8.00
 *   pot (Declare Winner) and ends the game: "Ann owes Bob $4.00" on both phones.
 * Throughout: each phone opened exactly one WebSocket, as the connection itself (not an upgrade of an
 * HTTP long-polling session), and never closed it (no reconnection, no "Reconnecting…" flapping); no
 * uncaught exception, unhandled rejection or console error.
 *
 * What it caught (each fails this suite when reverted, src/web/README.md "Bad networks"):
 * - the 10 s answer timeout closed a live connection that stalled (the check failed with "No
 *   connection", the phone reconnected, the check landed anyway);
 * - Socket.IO's polling-then-upgrade start: on the 3 s link the upgrade outlasted the server's 10 s
 *   upgradeTimeout and the server dropped the phone ~13 s after it connected (seen in 3 of 4
 *   exploratory runs with a request in flight during the upgrade; timing-dependent, so the suite
 *   checks the cause: no WebSocket opened as an upgrade);
 * - no feedback for a tap whose answer takes seconds.
 * ~75 s.
 */
import { connect, createServer, type Server, type Socket } from 'node:net';
import type { Page } from 'playwright-core';
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
  button,
  dialog,
  hostControls,
  pot,
  reconnecting,
  seat,
  stage,
  waitingLine,
  yourTurn,
} from './screen';

/** A phone's network: round trip, speed, and a stall that may be under way. */
interface Profile {
  rttMs: number;
  bytesPerSecond: number;
}
const SLOW_3G: Profile = { rttMs: 400, bytesPerSecond: 50_000 };
const BAD_LINK: Profile = { rttMs: 3_000, bytesPerSecond: 50_000 };
const STALL_MS = 15_000;
const SLOW = 'Slow connection, still sending. No need to tap again.';

/**
 * A TCP proxy in front of the server for one phone. WebSocket connections (an upgrade request) get
 * the profile's latency and speed on every chunk after the handshake (Chromium's throttling covers
 * the handshake and HTTP); every connection is held while `stallUntil` is in the future.
 */
class Link {
  stallUntil = 0;
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();
  constructor(private readonly profile: Profile) {}

  async open(targetPort: number): Promise<number> {
    this.server = createServer((client) => {
      const upstream = connect(targetPort, '127.0.0.1');
      this.sockets.add(client).add(upstream);
      let websocket = false;
      const pipe = (from: Socket, to: Socket, up: boolean) => {
        let last = 0;
        let first = true;
        from.on('data', (chunk: Buffer) => {
          if (first && up) websocket = /^upgrade: websocket/im.test(chunk.toString('latin1', 0, 4096));
          const handshake = first;
          first = false;
          const now = Date.now();
          const delay =
            websocket && !handshake
              ? this.profile.rttMs / 2 + (chunk.length / this.profile.bytesPerSecond) * 1000
              : 0;
          // In order: never before the chunk ahead of it, never during a stall.
          const at = Math.max(now + delay, last, this.stallUntil);
          last = at;
          setTimeout(() => {
            if (!to.destroyed) to.write(chunk);
          }, at - now);
        });
        from.on('end', () => setTimeout(() => to.end(), Math.max(0, last - Date.now())));
        from.on('error', () => to.destroy());
      };
      pipe(client, upstream, true);
      pipe(upstream, client, false);
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
    const server = this.server;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    if (!address || typeof address === 'string') throw new Error('proxy has no port');
    return address.port;
  }

  close(): void {
    for (const s of this.sockets) s.destroy();
    this.server?.close();
  }
}

const links: Link[] = [];
// Console errors and unhandled rejections fail the run too (strict); the proxies close at the end.
const chipless = chiplessSuite({
  strict: true,
  afterEnd: () => {
    for (const l of links) l.close();
  },
});
const { phones } = chipless;
let ann: Phone;
let bob: Phone;
let bobLink: Link;
/** Per phone: WebSockets opened and closed. */
const sockets = new Map<string, { opened: number; closed: number }>();
/** Per phone: whether a WebSocket was opened as an upgrade of an HTTP long-polling session (`sid=`). */
const upgrades = new Map<string, boolean>();

async function openOn(name: string, profile: Profile): Promise<{ phone: Phone; link: Link }> {
  const link = new Link(profile);
  links.push(link);
  const port = await link.open(chipless.server.port);
  const phone = await chipless.openPhone(name, `http://127.0.0.1:${port}`);
  const cdp = await phone.context.newCDPSession(phone.page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: profile.rttMs,
    downloadThroughput: profile.bytesPerSecond,
    uploadThroughput: profile.bytesPerSecond,
  });
  const count = { opened: 0, closed: 0 };
  sockets.set(name, count);
  upgrades.set(name, false);
  phone.page.on('websocket', (ws) => {
    count.opened += 1;
    if (/[?&]sid=/.test(ws.url())) upgrades.set(name, true);
    ws.on('close', () => {
      count.closed += 1;
    });
  });
  return { phone, link };
}

/** Loads `/` and returns the seconds until Start a Game can be tapped. */
async function firstLoad(page: Page): Promise<number> {
  const started = Date.now();
  await page.goto('/', { waitUntil: 'commit' });
  await button(page, 'Start a Game').click({ trial: true, timeout: 60_000 });
  return (Date.now() - started) / 1000;
}

beforeAll(async () => {
  ({ phone: ann } = await openOn('Ann', SLOW_3G));
  ({ phone: bob, link: bobLink } = await openOn('Bob', BAD_LINK));
});

/** Waits (up to `ms`) for `p`'s turn and taps `label` on it; resolves when the turn left the phone. */
async function tap(p: Phone, label: string | RegExp, ms = 20_000) {
  await expectVisible(yourTurn(p.page), ms);
  await button(yourTurn(p.page), label).click();
  await expectHidden(yourTurn(p.page), ms);
}

describe('bad networks: slow 3G, a 3 s link, a 15 s stall', () => {
  chipless.stopAtFirstFailure('bad-network-');

  it('first load, create and join on slow links', async () => {
    const annLoad = await firstLoad(ann.page);
    console.log(`first load to a usable landing: slow 3G ${annLoad.toFixed(1)} s`);
    expect(annLoad).toBeLessThan(8);
    await button(ann.page, 'Start a Game').click();
    const create = ann.page.getByRole('dialog');
    await create.getByLabel('Your Name').fill('Ann');
    await create.getByLabel('Starting Chips').fill('50');
    await button(create, 'Create Room').click();
    await expectVisible(ann.page.getByRole('heading', { name: 'Game Lobby' }));
    const code = squash((await ann.page.locator('.room-code').textContent()) ?? '');

    // Bob joins as soon as his landing can be tapped: his first connection is still coming up.
    const bobLoad = await firstLoad(bob.page);
    console.log(`first load to a usable landing: 3 s link ${bobLoad.toFixed(1)} s`);
    expect(bobLoad).toBeLessThan(15);
    await button(bob.page, 'Join with Code').click();
    const join = bob.page.getByRole('dialog');
    await join.getByLabel('Room Code').fill(code);
    await join.getByLabel('Your Name').fill('Bob');
    await join.getByLabel('Starting Chips').fill('50');
    await button(join, 'Join Room').click();
    await expectVisible(bob.page.getByRole('heading', { name: 'Game Lobby' }), 30_000);

    await button(ann.page, 'Approve Bob').click();
    await expectText(bob.page.locator('.waiting'), 'Waiting for host to start the game');
    await button(ann.page, 'Start Game').click();
    for (const p of phones) await expectText(stage(p.page), 'Pre-Flop');
  });

  it('a check during a 15 s stall: "slow connection" meanwhile, no failure, no reconnection, applied once', async () => {
    await tap(ann, 'Call $1.00');
    await expectVisible(yourTurn(bob.page));
    bobLink.stallUntil = Date.now() + STALL_MS;
    const tapped = Date.now();
    await button(yourTurn(bob.page), 'Check').click();
    await expectText(bob.page.getByRole('status').filter({ hasText: SLOW }), SLOW, 5_000);
    // Past the old 10 s answer timeout, still waiting quietly: no error, no "Reconnecting…".
    while (Date.now() - tapped < 12_000) await new Promise((r) => setTimeout(r, 250));
    await expectVisible(bob.page.getByRole('status').filter({ hasText: SLOW }), 1_000);
    expect(await bob.page.getByRole('alert').count()).toBe(0);
    expect(await reconnecting(bob.page).count()).toBe(0);
    await expectHidden(yourTurn(bob.page), STALL_MS + 10_000);
    console.log(`check through a 15 s stall: ${((Date.now() - tapped) / 1000).toFixed(1)} s`);
    expect(await bob.page.getByRole('alert').count()).toBe(0);
    for (const p of phones) {
      await expectText(pot(p.page), 'Pot $4.00');
      await expectContains(seat(p.page, 'Ann'), ['Stack $48.00']);
      await expectContains(seat(p.page, 'Bob'), ['Stack $48.00']);
    }
    await expectText(waitingLine(bob.page), 'Betting round complete Waiting for the host to deal the flop');
  });

  it('a raise and a call, the turn and river checked, Declare Winner, End Game', async () => {
    await button(hostControls(ann.page), 'Flop').click();
    await expectVisible(yourTurn(bob.page));
    let started = Date.now();
    await button(yourTurn(bob.page), 'Raise').click();
    const raise = dialog(bob.page, 'Raise');
    await button(raise, /^Min Raise/).click();
    await button(raise, 'Confirm Raise').click();
    await expectHidden(raise);
    console.log(
      `raise on the 3 s link, tap to closed dialog: ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
    started = Date.now();
    await tap(ann, 'Call $2.00');
    console.log(`call on slow 3G, tap to update: ${((Date.now() - started) / 1000).toFixed(1)} s`);
    for (const p of phones) await expectText(pot(p.page), 'Pot $8.00');

    for (const street of ['Turn', 'River']) {
      await button(hostControls(ann.page), street).click();
      await tap(bob, 'Check');
      await tap(ann, 'Check');
    }
    for (const p of phones) await expectText(stage(p.page), 'Showdown');
    await button(hostControls(ann.page), 'Declare Winner').click();
    const win = dialog(ann.page, 'Declare Winner');
    await win.getByRole('checkbox', { name: 'Bob' }).check();
    await button(win, 'Award Pot').click();
    await expectHidden(win);
    for (const p of phones) await expectContains(seat(p.page, 'Bob'), ['Stack $54.00', 'Winner']);

    await button(hostControls(ann.page), 'End Game').click();
    await button(dialog(ann.page, 'End Game'), 'End Game & Auto-Settle Payouts').click();
    for (const p of phones) {
      await expectText(p.page.getByRole('heading', { level: 1 }), "Bob Left em' all Chipless!");
      const settlements = p.page.getByRole('region', { name: 'Settlements' }).getByRole('listitem');
      await eventually(async () => {
        expect((await settlements.allInnerTexts()).map(squash)).toEqual(['Ann owes Bob $4.00']);
      });
    }
    // One WebSocket per phone the whole night, never closed: no reconnection, no flapping. Each was
    // the connection itself, not an upgrade of a polling session that the server's 10 s
    // upgradeTimeout can cut on the 3 s link (whether it does depends on what else is in flight).
    expect(Object.fromEntries(sockets)).toEqual({
      Ann: { opened: 1, closed: 0 },
      Bob: { opened: 1, closed: 0 },
    });
    expect(Object.fromEntries(upgrades)).toEqual({ Ann: false, Bob: false });
  });
});
