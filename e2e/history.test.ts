/**
 * Back and Forward across pages with the back/forward cache on, as on a phone (Playwright turns it off
 * by default; the history audit of session 38 found both of these with it on). "The chat app" the links
 * come from is another origin (localhost, where the server is 127.0.0.1).
 *
 * - Dan had the app open on its landing when he opened the host's join link in the same tab (Chrome on
 *   Android reuses the tab an app opened links in), joined, and swiped Back by reflex: the landing came
 *   back from the cache, offering Start a Game and Join with Code to a seated player.
 * - A page put in the cache kept its connection open: the table saw Dan online for ~45 s after he went
 *   Back to the chat, until the server's heartbeat gave up.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { chiplessSuite, eventually, expectContains, expectVisible, type Phone } from './browser';
import { button, enterRoom, seat, stage } from './screen';

const chipless = chiplessSuite({
  phones: ['Ann', 'Dan'],
  browser: { ignoreDefaultArgs: ['--disable-back-forward-cache'] },
});
const { phones } = chipless;
let ann: Phone;
let dan: Phone;
let code = '';
const chat = () => `${chipless.server.url.replace('127.0.0.1', 'localhost')}/about`;
const restored = (p: Phone) =>
  p.page.evaluate(() => (window as unknown as { e2eRestored: number }).e2eRestored);

beforeAll(async () => {
  [ann, dan] = phones as [Phone, Phone];
  // How many times the page came back from the cache (pageshow with persisted): the test must see the
  // cache at work, or it would pass on pages merely loaded again.
  await dan.context.addInitScript(() => {
    const w = window as unknown as { e2eRestored: number };
    w.e2eRestored = 0;
    window.addEventListener('pageshow', (e) => {
      if (e.persisted) w.e2eRestored++;
    });
  });
  await enterRoom(ann.page, 'Start a Game', { name: 'Ann', chips: '50' });
  code = ((await ann.page.locator('.room-code').textContent()) ?? '').replace(/\s+/g, '');
});

describe('Back and Forward with the back/forward cache on', () => {
  chipless.stopAtFirstFailure('history-');

  it('the join link opened over the landing, then Back: the landing comes back as the lobby Dan is in', async () => {
    await dan.page.goto(chat());
    await dan.page.goto('/');
    await expectVisible(button(dan.page, 'Join with Code'));
    await dan.page.goto(`/?join=${code}`);
    const box = dan.page.getByRole('dialog', { name: 'Join a Game' });
    await expectVisible(box);
    await box.getByLabel('Your Name').fill('Dan');
    await box.getByLabel('Starting Chips').fill('50');
    await button(box, 'Join Room').click();
    await expectVisible(dan.page.getByText('Waiting for the host to approve you'));
    await dan.page.goBack({ waitUntil: 'commit' });
    await expectVisible(dan.page.getByRole('heading', { level: 1, name: 'Game Lobby' }));
    await eventually(async () => expect(await restored(dan)).toBe(1));
    await expectVisible(dan.page.getByText('Waiting for the host to approve you'));
    expect(await button(dan.page, 'Join with Code').count()).toBe(0);
  });

  it('Back to the chat at the table: the others see Dan go at once, and back with Forward', async () => {
    await button(ann.page, 'Approve Dan').click();
    await button(ann.page, 'Start Game').click();
    await expectVisible(stage(dan.page));
    await expectContains(seat(ann.page, 'Dan'), ['online']);
    await dan.page.goBack({ waitUntil: 'commit' });
    expect(new URL(dan.page.url()).host).toBe(new URL(chat()).host);
    // The heartbeat would take ~45 s; the page closes its connection as it is put away.
    await expectContains(seat(ann.page, 'Dan'), ['offline'], 5_000);
    await dan.page.goForward({ waitUntil: 'commit' });
    await eventually(async () => expect(await restored(dan)).toBe(2));
    await expectContains(seat(ann.page, 'Dan'), ['online'], 5_000);
    await expectContains(stage(dan.page), ['Pre-Flop']);
  });
});
