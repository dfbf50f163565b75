/**
 * A seeded monkey (session 39): four phones in one room (Ann hosts) tap random visible, enabled controls,
 * host-only ones included (weighted: a turn's and the host's game buttons more, leaving and ending
 * less), type plausible and implausible text ("12,50", "-1", "99999999", emoji, 60 letters), tap two or
 * three phones at once, go Back and Forward, reload, go offline and online, close and reopen the page.
 * Checked after every step: no error screen ("Something went wrong"; but for a code file that failed to
 * load offline, which shows it by design: ErrorBoundary.tsx, new-build.ts), no uncaught page error, no
 * console error but a network one while offline, no button busy ("Raising...") over 30 s online. Every
 * 25 steps and at the end, all phones online: within 15 s every phone in the room holds the server's
 * version (a second connection of an online player reads it), chips add up on the server, each table
 * shows the room's stacks and pot, and the game has a way forward (the turn's phone shows its buttons,
 * the host the next stage, Declare Winner or New Hand).
 *
 * The seed fixes the monkey's choices, not the server's timing: a run with the same seed taps the same
 * way, but what is on screen at each step may differ. The checks are invariants, so every run must
 * pass. MONKEY_SEED and MONKEY_MS (default 22 s) explore further; MONKEY_VERBOSE=1 prints each step.
 * Its first runs (seed 2, 90 s) found the turn's buzz logging a console error (effects.ts). ~45–50 s.
 */
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { seededRandom } from '../bench/stats';
import type { Room } from '../src/engine/types';
import { chipTotals, TestPlayer } from '../src/server/scale-out/process-harness';
import { chiplessSuite, type Phone, SCREENSHOT_DIR, squash } from './browser';
import { startGame } from './screen';

const SEED = Number(process.env.MONKEY_SEED ?? 20261128);
const DURATION = Number(process.env.MONKEY_MS ?? 22_000);
const SETTLE_EVERY = Number(process.env.MONKEY_SETTLE ?? 25);
const VERBOSE = process.env.MONKEY_VERBOSE === '1';

/** Seeded (the bench's mulberry32), so a failing run can be replayed with its seed. */
const rand = seededRandom(SEED);
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
const chance = (p: number) => rand() < p;

const TEXTS = [
  '12,50',
  '0',
  '-1',
  '99999999',
  'abc',
  '',
  '5',
  '2.5',
  '0.01',
  '1e3',
  '  7 ',
  '$3.33',
  '10000',
  '10000.01',
  '3.999',
  'NaN',
  'ＡＢＣＤＥ',
  'Zoë 🃏🂡',
  '👨‍👩‍👧‍👦👨‍👩‍👧‍👦👨‍👩‍👧‍👦👨‍👩‍👧‍👦👨‍👩‍👧‍👦',
  'A'.repeat(60),
  'Robert\u202Eevil',
  '<b>x</b>',
  'ann',
  '25',
  '1',
  '50',
];
const NAMES = ['Eve', 'Fay', 'Gus', 'Zoë 🃏', 'Bartholomew Jenkinsx', 'ann', 'Al'];
const CHIPS = ['50', '25', '1', '80', '12.34', '9999.99'];

/** Controls that move the game on: tapped 4 times as often, so the night gets past its first hand. */
const PRODUCTIVE =
  /^(fold|check|call|raise|all-in|confirm raise|min raise|pot|flop|turn|river|showdown|declare winner|award|new hand|approve|start game|add chips|save|fold for|check for)/i;
/**
 * Controls beside the game (the footer's invite, copying the link): tapped 3 times less often. On every
 * screen of the table, they crowded out play (seed 101, 4 minutes: 116 invites opened, 2 hands).
 */
const ASIDE = /^(room [a-z0-9]{5}|copy link|share link)/i;
/** Controls that end the night for a phone or all: tapped about 8 times less often. */
const DESTRUCTIVE =
  /leave|end game|end session|end game session|remove|deny|back to home|refresh anyway|hand over|make .* host|sit out/i;

/**
 * Installed before the app: each page keeps the last room snapshot it received (a 'room' broadcast or
 * a create/join/resume answer) as `window.__mk`, which the settle checks compare with the server's.
 */
const SCRIPT = () => {
  const w = window as unknown as { __mk: Record<string, unknown> };
  const mk: Record<string, unknown> = { version: -1, room: null, code: null, gone: null };
  w.__mk = mk;
  const take = (s: { version: number; room: { roomCode: string } }) => {
    if (mk.code === s.room.roomCode && (mk.version as number) > s.version) return;
    mk.version = s.version;
    mk.room = s.room;
    mk.code = s.room.roomCode;
    mk.gone = null;
  };
  const Ws = window.WebSocket;
  window.WebSocket = class extends Ws {
    constructor(url: string | URL, protocols?: string | string[]) {
      super(url, protocols);
      this.addEventListener('message', (e) => {
        if (typeof e.data !== 'string') return;
        try {
          if (e.data.startsWith('42')) {
            const [ev, payload] = JSON.parse(e.data.slice(2));
            if (ev === 'room') take(payload);
            if (ev === 'gone') mk.gone = payload;
          } else if (e.data.startsWith('43')) {
            const arr = JSON.parse(e.data.replace(/^43\d*/, ''));
            const a = arr[0];
            if (a?.ok && a.data?.room?.roomCode) take(a.data);
          }
        } catch {
          // not ours
        }
      });
    }
  };
};

/** What SCRIPT keeps: the room and version the page last received, and its last 'gone'. */
interface Mk {
  version: number;
  room: Room | null;
  code: string | null;
  gone: { roomCode: string; reason: string } | null;
}

const chipless = chiplessSuite({ phones: ['Ann', 'Bob', 'Cat', 'Dan'] });

/** The monkey's view of a phone: whether it is online, since when, and its busy buttons. */
interface State {
  phone: Phone;
  online: boolean;
  onlineSince: number;
  offlineUntil: number;
  busy: Map<string, number>;
  lastToggle: number;
  /** When a code file last failed to load (offline): the error screen is then by design. */
  chunkFailedAt: number;
}
const states: State[] = [];
const problems: string[] = [];
const trail: string[] = [];
let step = 0;
const log = (s: string) => {
  trail.push(`#${step} ${s}`);
  if (trail.length > 60) trail.shift();
  if (VERBOSE) process.stdout.write(`#${step} ${s}\n`);
};
const fail = (s: string) => {
  problems.push(`step ${step}: ${s}`);
  console.error(`PROBLEM step ${step}: ${s}`);
  if (problems.length <= 3) console.error(`trail:\n${trail.slice(-25).join('\n')}`);
};

function watch(st: State, page: Page) {
  page.on('console', (msg) => {
    if (msg.type() !== 'error') return;
    const text = msg.text();
    const netty =
      /net::|WebSocket|Failed to load resource|ERR_|Failed to fetch dynamically imported module/i.test(text);
    if (/Failed to fetch dynamically imported module/.test(text)) st.chunkFailedAt = Date.now();
    const recent = Date.now() - st.lastToggle < 8000;
    if (netty && (!st.online || recent)) return;
    fail(`${st.phone.name} console error (online=${st.online}): ${text}`);
  });
  page.on('pageerror', (err) => fail(`${st.phone.name} page error: ${err.message}`));
}

/**
 * `work`, or a rejection after `ms`: page.evaluate has no time limit of its own, and a page that stops
 * answering (seen once in a 4-minute run with second tabs, not explained) hung the whole test until its
 * timeout instead of failing one check with a message.
 */
function bounded<T>(work: Promise<T>, ms = 20_000): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer from the page in ${ms} ms`)), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

async function mkOf(page: Page): Promise<Mk | null> {
  return bounded(page.evaluate(() => (window as unknown as { __mk?: Mk }).__mk ?? null)).catch(
    () => null,
  ) as Promise<Mk | null>;
}

/** Visible, enabled controls, tagged data-mk; within the topmost modal dialog if one is open. */
async function controls(page: Page) {
  return bounded(controlsNow(page));
}

function controlsNow(page: Page) {
  return page.evaluate(() => {
    for (const el of document.querySelectorAll('[data-mk]')) el.removeAttribute('data-mk');
    const dialogs = [...document.querySelectorAll('[role=dialog],[role=alertdialog],dialog[open]')].filter(
      (d) => (d as HTMLElement).checkVisibility?.() ?? true,
    );
    const scope: ParentNode = dialogs.at(-1) ?? document;
    const els = [
      ...scope.querySelectorAll(
        'button, a[href], input, select, textarea, summary, [role=button], [role=checkbox], [role=radio], [role=tab]',
      ),
    ] as HTMLElement[];
    const out: { i: number; tag: string; type: string; label: string; href: string }[] = [];
    els.forEach((el, i) => {
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.height === 0) return;
      if (!(el.checkVisibility?.() ?? true)) return;
      if ((el as HTMLButtonElement).disabled || el.getAttribute('aria-disabled') === 'true') return;
      if (el.closest('[inert]')) return;
      const href = el.getAttribute('href') ?? '';
      if (href && /^(mailto:|tel:|https?:)/.test(href) && !href.startsWith(location.origin)) return;
      if (el.getAttribute('target') === '_blank') return;
      el.setAttribute('data-mk', String(i));
      const label = (
        el.getAttribute('aria-label') ||
        el.textContent ||
        (el as HTMLInputElement).placeholder ||
        el.getAttribute('name') ||
        ''
      )
        .replace(/\s+/g, ' ')
        .trim()
        .slice(0, 60);
      out.push({
        i,
        tag: el.tagName.toLowerCase(),
        type: (el as HTMLInputElement).type ?? '',
        label,
        href,
      });
    });
    return out;
  });
}

/** Chooses a random control on the phone and returns the tap (so two phones can tap at once). */
async function chooseTap(st: State): Promise<(() => Promise<void>) | null> {
  const page = st.phone.page;
  const cs = await controls(page).catch(() => []);
  if (cs.length === 0) {
    log(`${st.phone.name} finds nothing to tap on ${page.url()}`);
    return null;
  }
  const weights = cs.map((c) =>
    DESTRUCTIVE.test(c.label)
      ? 0.12
      : c.tag === 'a' || c.tag === 'summary'
        ? 0.15
        : PRODUCTIVE.test(c.label)
          ? 4
          : ASIDE.test(c.label)
            ? 0.3
            : 1,
  );
  let r = rand() * weights.reduce((a, b) => a + b, 0);
  let c = cs[0]!;
  for (let k = 0; k < cs.length; k++) {
    r -= weights[k]!;
    if (r <= 0) {
      c = cs[k]!;
      break;
    }
  }
  const loc = page.locator(`[data-mk="${c.i}"]`);
  const opts = { timeout: 2500 };
  if (c.tag === 'input' && ['checkbox', 'radio'].includes(c.type)) {
    log(`${st.phone.name} toggles ${c.label}`);
    return () => loc.click(opts);
  }
  if (c.tag === 'input' || c.tag === 'textarea') {
    const text = pick(TEXTS);
    const enter = chance(0.3);
    log(`${st.phone.name} types ${JSON.stringify(text)} into ${c.label}${enter ? ' + Enter' : ''}`);
    return async () => {
      await loc.fill(text, opts);
      if (enter) await loc.press('Enter', opts);
    };
  }
  if (c.tag === 'select') {
    const k = rand();
    return async () => {
      const n = await loc.locator('option').count();
      log(`${st.phone.name} selects option ${Math.floor(k * n)} of ${c.label}`);
      await loc.selectOption({ index: Math.floor(k * n) }, opts);
    };
  }
  const how = rand();
  log(`${st.phone.name} ${how < 0.1 ? 'double-taps' : how < 0.4 ? 'taps' : 'clicks'} ${c.tag} "${c.label}"`);
  if (how < 0.1) return () => loc.dblclick(opts);
  if (how < 0.4) return () => loc.tap(opts);
  return () => loc.click(opts);
}

async function tapRandom(st: State) {
  await (await chooseTap(st))?.();
}

/** The room code a phone could join: the latest of any phone's room still going. */
async function liveCode(): Promise<string | null> {
  for (const st of states) {
    const mk = await mkOf(st.phone.page);
    if (mk?.room && !mk.gone && mk.room.status !== 'ENDED') return mk.code;
  }
  return null;
}

async function plausibleEntry(st: State) {
  const page = st.phone.page;
  const join = page.getByRole('button', { name: 'Join with Code', exact: true });
  const start = page.getByRole('button', { name: 'Start a Game', exact: true });
  if (!(await join.isVisible().catch(() => false))) return false;
  const code = await liveCode();
  const box = page.getByRole('dialog');
  const o = { timeout: 3000 };
  if (code) {
    log(`${st.phone.name} joins ${code} properly`);
    await join.click(o);
    await box.getByLabel('Room Code').fill(code, o);
  } else {
    log(`${st.phone.name} starts a new room properly`);
    await start.click(o);
  }
  await box.getByLabel('Your Name').fill(pick(NAMES), o);
  await box.getByLabel('Starting Chips').fill(pick(CHIPS), o);
  await box.getByRole('button', { name: code ? 'Join Room' : 'Create Room', exact: true }).click(o);
  return true;
}

async function setOnline(st: State, online: boolean) {
  if (st.online === online) return;
  log(`${st.phone.name} goes ${online ? 'online' : 'offline'}`);
  await st.phone.context.setOffline(!online);
  st.online = online;
  st.lastToggle = Date.now();
  if (online) st.onlineSince = Date.now();
}

async function reopen(st: State) {
  log(`${st.phone.name} closes its page and opens the app again`);
  const old = st.phone.page;
  await old.close().catch(() => {});
  const page = await st.phone.context.newPage();
  page.on('pageerror', (err) => st.phone.errors.push(`${st.phone.name}: ${err.message}`));
  st.phone.page = page;
  watch(st, page);
  await page.goto('/', { timeout: 15_000 }).catch((e) => log(`${st.phone.name} goto failed ${e.message}`));
}

async function checkScreens() {
  for (const st of states) {
    const page = st.phone.page;
    const crashed = await page
      .locator('h1', { hasText: 'Something went wrong' })
      .count()
      .catch(() => 0);
    if (crashed > 0 && Date.now() - st.chunkFailedAt < 60_000 && st.chunkFailedAt - st.lastToggle < 25_000) {
      // By design (ErrorBoundary.tsx, new-build.ts): a code file that failed offline shows the error
      // screen, which reloads the page by itself once online; the tap on Reload only races that.
      if (st.online) {
        log(`${st.phone.name} taps Reload on the error screen (a code file failed offline)`);
        await page
          .getByRole('button', { name: 'Reload' })
          .click({ timeout: 3000 })
          .catch(() => {});
        st.chunkFailedAt = 0;
      }
    } else if (crashed > 0) {
      fail(`${st.phone.name} shows the error boundary`);
      await page
        .screenshot({ path: join(SCREENSHOT_DIR, `monkey-crash-${st.phone.name}-${step}.png`) })
        .catch(() => {});
      await page.reload().catch(() => {});
    }
    // Busy buttons ("Raising...", "Declaring...").
    const busy = await bounded(
      page.evaluate(() =>
        [...document.querySelectorAll('button')]
          .map((b) => (b.textContent ?? '').replace(/\s+/g, ' ').trim())
          .filter((t) => /(\.\.\.|…)$/.test(t)),
      ),
    ).catch(() => [] as string[]);
    const now = Date.now();
    for (const label of [...st.busy.keys()]) if (!busy.includes(label)) st.busy.delete(label);
    for (const label of busy) {
      if (!st.busy.has(label)) st.busy.set(label, now);
      const since = Math.max(st.busy.get(label)!, st.online ? st.onlineSince : now);
      if (st.online && now - since > 30_000) {
        fail(
          `${st.phone.name} button "${label}" busy for ${Math.round((now - since) / 1000)} s while online`,
        );
        st.busy.set(label, now);
      }
    }
    // Chromium's own error page (reloaded while offline): a person reloads.
    if (st.online && page.url().startsWith('chrome-error')) await page.reload().catch(() => {});
    // Gone Back past the app's first page: a person opens the app again.
    if (page.url() === 'about:blank') {
      log(`${st.phone.name} opens the app again (was on about:blank)`);
      await page.goto('/', { timeout: 15_000 }).catch(() => {});
    }
  }
}

const cents = (s: string) => Math.round(Number(s.replace(/[$,]/g, '')) * 100);

/** The server's room: a second connection of an online phone's player, resumed, then closed. */
async function serverRoom(code: string): Promise<{ version: number; room: Room } | null> {
  for (const st of states) {
    if (!st.online) continue;
    const mk = await mkOf(st.phone.page);
    if (mk?.code !== code || mk.gone) continue;
    const creds = await st.phone.page
      .evaluate(() => JSON.parse(localStorage.getItem('chipless.credentials') ?? 'null'))
      .catch(() => null);
    if (!creds) continue;
    const twin = new TestPlayer(`${st.phone.name}'s twin`);
    twin.creds = creds;
    try {
      await twin.connect(chipless.server.url);
      twin.roomCode = code;
      const snap = await twin.resume();
      return { version: snap.version, room: snap.room };
    } catch {
      // not in it any more
    } finally {
      twin.disconnect();
    }
  }
  return null;
}

/** Everyone online, a pause, then convergence, conservation, DOM and a way forward. */
async function settle() {
  for (const st of states) await setOnline(st, true);
  const code = await liveCode();
  const deadline = Date.now() + 15_000;
  let last = '';
  for (;;) {
    await checkScreens();
    const issues: string[] = [];
    const server = code ? await serverRoom(code) : null;
    if (code && server) {
      const { held, invested } = chipTotals(server.room);
      if (held !== invested) issues.push(`chips not conserved on the server: ${held} vs ${invested}`);
      for (const st of states) {
        const page = st.phone.page;
        const mk = await mkOf(page);
        const id = await page
          .evaluate(() => JSON.parse(localStorage.getItem('chipless.credentials') ?? 'null')?.playerId)
          .catch(() => null);
        const inRoom = id && server.room.players[id];
        if (!inRoom) continue;
        // A player gone Back (or on) to /about or /faq has left the table's screen on purpose.
        if (new URL(page.url()).pathname !== '/') continue;
        if (mk?.code !== code) {
          issues.push(`${st.phone.name} is in ${code} but its phone holds ${mk?.code}`);
          continue;
        }
        if (mk.version !== server.version)
          issues.push(`${st.phone.name} at version ${mk.version}, server ${server.version}`);
        if (server.room.status === 'PLAYING') {
          const list = page.getByRole('list', { name: /^Hand #\d+$/ });
          if (!(await list.isVisible().catch(() => false))) {
            // a dialog may cover; the table is still rendered underneath
            if (!(await list.count().catch(() => 0))) {
              issues.push(`${st.phone.name} shows no table while PLAYING`);
              continue;
            }
          }
          const seatTexts = await list
            .getByRole('listitem')
            .allTextContents()
            .catch(() => [] as string[]);
          const shown = seatTexts
            .map((t) => /Stack\s*(\$[\d,.]+)/.exec(squash(t))?.[1])
            .filter((x): x is string => !!x)
            .map(cents)
            .sort((a, b) => a - b);
          const seated = Object.values(server.room.players)
            .filter((p) => p.isApproved)
            .map((p) => p.stack)
            .sort((a, b) => a - b);
          if (JSON.stringify(shown) !== JSON.stringify(seated))
            issues.push(`${st.phone.name} shows stacks ${shown} but the room has ${seated}`);
          const potText = squash(
            (await page
              .locator('.pot-line .pot')
              .textContent()
              .catch(() => '')) ?? '',
          );
          const pm = /(\$[\d,.]+)/.exec(potText);
          const potSum = server.room.gameState.pots.reduce((s, p) => s + p.amount, 0);
          if (pm && cents(pm[1]!) !== potSum)
            issues.push(`${st.phone.name} shows pot ${potText}, the room ${potSum}`);
        }
      }
      if (server.room.status === 'PLAYING') issues.push(...(await wayForward(server.room)));
    }
    const now = issues.join('\n');
    if (!now) return;
    if (Date.now() > deadline) {
      fail(`did not settle:\n${now}`);
      for (const st of states)
        await st.phone.page
          .screenshot({ path: join(SCREENSHOT_DIR, `monkey-settle-${st.phone.name}-${step}.png`) })
          .catch(() => {});
      return;
    }
    if (now !== last && VERBOSE) process.stdout.write(`settling: ${now}\n`);
    last = now;
    await new Promise((r) => setTimeout(r, 700));
  }
}

/** Someone can move the game on: the turn's player has its buttons, or the host a control. */
async function wayForward(room: Room): Promise<string[]> {
  const gs = room.gameState;
  const byId = new Map<string, State>();
  for (const st of states) {
    const id = await st.phone.page
      .evaluate(() => JSON.parse(localStorage.getItem('chipless.credentials') ?? 'null')?.playerId)
      .catch(() => null);
    const path = st.phone.page.url().startsWith('http') ? new URL(st.phone.page.url()).pathname : '';
    if (id && path === '/') byId.set(id, st);
  }
  const host = byId.get(room.hostId);
  const visible = async (st: State | undefined, name: RegExp) =>
    !!st &&
    (await st.phone.page
      .getByRole('button', { name })
      .first()
      .isVisible()
      .catch(() => false));
  if (gs.currentTurnPlayerId) {
    const turn = byId.get(gs.currentTurnPlayerId);
    if (!turn) return [];
    const p = room.players[gs.currentTurnPlayerId];
    if (p && p.stack === 0) return [];
    const region = turn.phone.page.getByRole('region', { name: 'Your Turn' });
    if (!(await region.count().catch(() => 0)))
      return [`${turn.phone.name}'s turn (${p?.name}) but no Your Turn region on its phone`];
    return [];
  }
  if (!host) return [];
  if (gs.canAdvanceStage && !(await visible(host, new RegExp(gs.nextStageName ?? 'Next Stage'))))
    return [`host ${host.phone.name} has no ${gs.nextStageName} button`];
  const potSum = gs.pots.reduce((s, p) => s + p.amount, 0);
  if (gs.stage === 'SHOWDOWN' && potSum > 0 && !(await visible(host, /Declare Winner/)))
    return [`host ${host.phone.name} has no Declare Winner with ${potSum} in the pot`];
  if (gs.stage === 'SHOWDOWN' && potSum === 0 && !(await visible(host, /New Hand|End Game|Rebuys/)))
    return [`host ${host.phone.name} has no New Hand / End Game / Rebuys between hands`];
  return [];
}

describe(`monkey seed ${SEED}`, () => {
  it(
    `taps at random for ${DURATION} ms without breaking anything`,
    async () => {
      console.log(`MONKEY SEED ${SEED} DURATION ${DURATION}`);
      const phones = chipless.phones;
      for (const p of phones) {
        await p.context.addInitScript(SCRIPT);
        const st: State = {
          phone: p,
          online: true,
          onlineSince: Date.now(),
          offlineUntil: 0,
          busy: new Map(),
          lastToggle: 0,
          chunkFailedAt: 0,
        };
        states.push(st);
        watch(st, p.page);
      }
      const [ann, ...guests] = phones as [Phone, ...Phone[]];
      await startGame(ann, guests);
      const end = Date.now() + DURATION;
      while (Date.now() < end) {
        step++;
        for (const st of states)
          if (!st.online && Date.now() > st.offlineUntil) await setOnline(st, true).catch(() => {});
        const st = pick(states);
        const page = st.phone.page;
        const r = rand();
        try {
          if (r < 0.03) {
            log(`${st.phone.name} reloads`);
            await page.reload({ timeout: 15_000 });
          } else if (r < 0.05) {
            log(`${st.phone.name} goes back`);
            await page.goBack({ timeout: 5000 });
          } else if (r < 0.06) {
            log(`${st.phone.name} goes forward`);
            await page.goForward({ timeout: 5000 });
          } else if (r < 0.12) {
            if (st.online) {
              await setOnline(st, false);
              st.offlineUntil = Date.now() + 2000 + rand() * 18_000;
            } else await setOnline(st, true);
          } else if (r < 0.13) {
            await reopen(st);
          } else if (r < 0.14) {
            log(`${st.phone.name} presses Escape`);
            await page.keyboard.press('Escape');
          } else if (r < 0.2) {
            if (!(await plausibleEntry(st))) await tapRandom(st);
          } else if (r < 0.35) {
            // Two or three phones tap at the same moment.
            const others = states.filter((o) => o !== st && rand() < 0.6);
            const taps = [];
            for (const o of [st, ...others]) taps.push(await chooseTap(o));
            log('(at once)');
            const results = await Promise.allSettled(taps.map((t) => t?.()));
            for (const res of results)
              if (res.status === 'rejected') log(`miss: ${String(res.reason).split('\n')[0]}`);
          } else {
            await tapRandom(st);
          }
        } catch (e) {
          log(`${st.phone.name} miss: ${(e as Error).message.split('\n')[0]}`);
        }
        await new Promise((res) => setTimeout(res, 50 + rand() * 300));
        await checkScreens();
        if (step % SETTLE_EVERY === 0) await settle();
      }
      await settle();
      const code = await liveCode();
      const fin = code ? await serverRoom(code) : null;
      console.log(
        `monkey: ${step} steps, ${problems.length} problems; room ${code} v${fin?.version} ${fin?.room.status} hand ${fin?.room.gameState.handNumber} ${fin?.room.gameState.stage}`,
      );
      if (problems.length) console.log(`last steps:\n${trail.join('\n')}`);
      expect(problems).toEqual([]);
    },
    DURATION + 240_000,
  );
});
