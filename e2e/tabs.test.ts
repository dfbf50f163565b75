/**
 * One phone, several rooms and tabs (the tabs audit): the pages of one browser context share local
 * storage as a phone's tabs do, so they are one player with one remembered room.
 *
 * - Bob taps the join link twice on a phone new to the app, over a slow link: both tabs shook hands
 *   with nothing stored, the server made two players, and the tab that joined lost its seat on reload.
 * - Cal's browser refuses storage writes (Safari's old private mode): a Wi-Fi blip cost him his seat.
 * - Dan, seated in Ann's lobby, opens the link Eve sent for her room: the link was dropped unseen.
 * - Dan's landing tab, opened before his other tab joined Ann's room, offered Start a Game.
 */
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  chiplessSuite,
  eventually,
  expectContains,
  expectHidden,
  expectValue,
  expectVisible,
  type Phone,
} from './browser';
import { button, enterRoom, reconnecting } from './screen';

const chipless = chiplessSuite({ phones: ['Ann', 'Eve', 'Bob', 'Cal', 'Dan'] });
const { phones } = chipless;
let ann: Phone;
let eve: Phone;
let bob: Phone;
let cal: Phone;
let dan: Phone;
let codeA = '';
let codeE = '';

const codeOf = async (p: Page) => ((await p.locator('.room-code').textContent()) ?? '').replace(/\s+/g, '');
const lobbyHeading = (p: Page) => p.getByRole('heading', { level: 1, name: 'Game Lobby' });
/** The lobby's player row of `name`, as `p` shows it. */
const playerRow = (p: Page, name: string) => p.getByRole('listitem').filter({ hasText: name });

beforeAll(async () => {
  [ann, eve, bob, cal, dan] = phones as [Phone, Phone, Phone, Phone, Phone];
  await enterRoom(ann.page, 'Start a Game', { name: 'Ann', chips: '50' });
  codeA = await codeOf(ann.page);
  await enterRoom(eve.page, 'Start a Game', { name: 'Eve', chips: '50' });
  codeE = await codeOf(eve.page);
});

describe('one phone, several rooms and tabs', () => {
  it('the join link tapped twice on a new phone over a slow link: one player, whose seat survives a reload of either tab', async () => {
    // Every frame from the server 1.5 s late: both tabs shake hands before either hears its session.
    let delay = 1_500;
    await bob.context.routeWebSocket(/socket\.io/, (ws) => {
      const server = ws.connectToServer();
      server.onMessage((m) => setTimeout(() => ws.send(m), delay));
      ws.onMessage((m) => server.send(m));
    });
    const tabs = [bob.page, await bob.context.newPage()] as const;
    await Promise.all(tabs.map((t) => t.goto(`/?join=${codeA}`)));
    for (const t of tabs) await expectVisible(t.getByRole('dialog', { name: 'Join a Game' }));
    // Both sessions heard (and the second tab's switch to the first one's player made).
    await new Promise((r) => setTimeout(r, 4 * delay));
    delay = 0;
    const box = tabs[1].getByRole('dialog', { name: 'Join a Game' });
    await box.getByLabel('Your Name').fill('Bob');
    await button(box, 'Join Room').click();
    await expectVisible(tabs[1].getByText('Waiting for the host to approve you'));
    await button(ann.page, 'Approve Bob').click();
    for (const t of tabs) {
      await t.reload();
      await expectVisible(lobbyHeading(t));
      await expectContains(playerRow(t, 'Bob'), ['(You)']);
    }
    await expectContains(playerRow(ann.page, 'Bob'), ['online']);
  });

  it('storage that refuses writes: a lost connection comes back to the same seat', async () => {
    await cal.context.addInitScript(() => {
      Storage.prototype.setItem = () => {
        throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
      };
    });
    await enterRoom(cal.page, 'Join with Code', { name: 'Cal', chips: '50', code: codeA });
    await button(ann.page, 'Approve Cal').click();
    await expectVisible(cal.page.getByText('Waiting for host to start the game'));
    await cal.context.setOffline(true);
    await expectVisible(reconnecting(cal.page));
    await cal.context.setOffline(false);
    await expectHidden(reconnecting(cal.page));
    await expectContains(playerRow(ann.page, 'Cal'), ['online']);
    await expectContains(playerRow(cal.page, 'Cal'), ['(You)']);
    expect(await cal.page.getByText('You were removed from the game.').count()).toBe(0);
  });

  it("a tab on the landing goes to the room the phone's other tab joined", async () => {
    await dan.page.goto('/');
    const other = await dan.context.newPage();
    await enterRoom(other, 'Join with Code', { name: 'Dan', chips: '50', code: codeA });
    await expectVisible(lobbyHeading(dan.page));
    await expectVisible(dan.page.getByText('Waiting for the host to approve you'));
    await other.close();
    await button(ann.page, 'Approve Dan').click();
  });

  it('a join link to another room while seated: the seat stays, the phone says why, and leaving opens the join form', async () => {
    await dan.page.goto(`/?join=${codeE}`);
    await expectVisible(lobbyHeading(dan.page));
    const line = dan.page.getByRole('region', { name: 'Join link' });
    await expectContains(line, [`This link is for game ${codeE}. Leave game ${codeA} first to join it.`]);
    await expectContains(playerRow(dan.page, 'Dan'), ['(You)']);
    await button(dan.page, 'Leave room').click();
    const box = dan.page.getByRole('dialog', { name: 'Join a Game' });
    await expectValue(box.getByLabel('Room Code'), codeE);
    await box.getByLabel('Your Name').fill('Dan');
    await button(box, 'Join Room').click();
    await expectVisible(dan.page.getByText('Waiting for the host to approve you'));
    await eventually(async () => expect(await codeOf(dan.page)).toBe(codeE));
    await expectHidden(playerRow(ann.page, 'Dan'));
  });
});
