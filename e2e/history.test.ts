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
  phones: ['Ann', 'Dan', 'Eve'],
  browser: { ignoreDefaultArgs: ['--disable-back-forward-cache'] },
});
const { phones } = chipless;
let ann: Phone;
let dan: Phone;
let eve: Phone;
let code = '';
const chat = () => `${chipless.server.url.replace('127.0.0.1', 'localhost')}/about`;
const restored = (p: Phone) =>
  p.page.evaluate(() => (window as unknown as { e2eRestored: number }).e2eRestored);

beforeAll(async () => {
  [ann, dan, eve] = phones as [Phone, Phone, Phone];
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
    // The heartbeat would take 20–45 s from the page's freeze; the page closes its connection as it is
    // put away (seen in ~1 s: the presence throttle and a round trip).
    await expectContains(seat(ann.page, 'Dan'), ['offline'], 12_000);
    await dan.page.goForward({ waitUntil: 'commit' });
    await eventually(async () => expect(await restored(dan)).toBe(2));
    await expectContains(seat(ann.page, 'Dan'), ['online']);
    await expectContains(stage(dan.page), ['Pre-Flop']);
  });

  it("the FAQ's Back goes back to the landing's entry: the phone's own Back then leaves the app, and a double tap stays in it", async () => {
    await eve.page.goto(chat());
    await eve.page.goto('/');
    const faq = eve.page.locator('.landing-links').getByRole('link', { name: 'FAQ' });
    const back = eve.page.locator('.back-link');
    // A double tap (a desktop double click; a slow phone's taps a few ms apart land the same way).
    await faq.click();
    await expectVisible(back);
    await back.dblclick();
    await expectVisible(button(eve.page, 'Start a Game'));
    expect(new URL(eve.page.url()).pathname).toBe('/');
    // Once more, one tap: back on the landing, then the phone's Back leaves for the chat, not the FAQ.
    await faq.click();
    await back.click();
    await expectVisible(button(eve.page, 'Start a Game'));
    await eve.page.goBack({ waitUntil: 'commit' });
    await eventually(async () => expect(new URL(eve.page.url()).host).toBe(new URL(chat()).host));
  });
});

describe('a page of the app that cannot load while the phone is offline', () => {
  it('the FAQ tapped offline: the error screen says the page reloads once back online, and it does, into the FAQ', async () => {
    // A phone of its own: nothing of the FAQ's code in its cache (the monkey audit, session 39).
    const fay = await chipless.openPhone('Fay');
    const { page } = fay;
    await page.goto('/');
    await expectVisible(button(page, 'Start a Game'));
    // Gone with the document: tells a reload from the app's own navigation.
    const marked = () => page.evaluate(() => 'e2eMark' in window);
    await page.evaluate(() => Object.assign(window, { e2eMark: true }));
    await fay.context.setOffline(true);
    await page.locator('.landing-links').getByRole('link', { name: 'FAQ' }).click();
    await expectContains(page.getByRole('alert'), [
      'the page reloads by itself once the phone is back online',
    ]);
    expect(await marked()).toBe(true);
    await fay.context.setOffline(false);
    await expectVisible(page.getByRole('heading', { level: 1, name: 'Frequently Asked Questions' }));
    expect(await marked(), 'reloaded').toBe(false);
    expect(new URL(page.url()).pathname).toBe('/faq');
  });
});
