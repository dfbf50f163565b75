/**
 * Support for the browser end-to-end tests: the real `npm start` server as a child process (fresh
 * SQLite data dir, free port), Debian's Chromium through playwright-core, phone-sized contexts, a
 * suite's setup and end of run (`chiplessSuite`), screenshots, and small polling assertions
 * (playwright-core has no auto-retrying `expect`).
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  type Browser,
  type BrowserContext,
  chromium,
  type LaunchOptions,
  type Locator,
  type Page,
} from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, expect } from 'vitest';
import { webBuildIsStale, webSources } from '../src/server/web-build';

export const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));
export const SCREENSHOT_DIR = join(REPO_ROOT, 'e2e', 'screenshots');

/** Longest a single UI step may take to show up (a loaded 2-core machine, Socket.IO round trips). */
export const STEP_TIMEOUT_MS = 20_000;

// ---------------------------------------------------------------------------------------------
// Web build
// ---------------------------------------------------------------------------------------------

/**
 * Runs `npx vite build` when dist/web/index.html is missing or was made from other sources than those
 * here (src/web, src/engine, src/shared, vite.config.ts), so the test always drives current code.
 * Returns whether it built.
 */
export function ensureWebBuild(): boolean {
  // The same rule as `npm start`'s (src/server/web-build.ts), which the server then finds satisfied.
  if (!webBuildIsStale(join(REPO_ROOT, 'dist', 'web'), webSources(REPO_ROOT))) return false;
  execFileSync('npx', ['vite', 'build', '--logLevel', 'warn'], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'inherit', 'inherit'],
    timeout: 170_000,
  });
  return true;
}

// ---------------------------------------------------------------------------------------------
// Server
// ---------------------------------------------------------------------------------------------

export interface ChiplessServer {
  url: string;
  port: number;
  dataDir: string;
  /** Everything the processes printed (JSON log lines, errors), across restarts, for failure messages. */
  output(): string;
  /** SIGTERM to the whole process group (npm, sh, node), SIGKILL after 10 s; removes the data dir. */
  stop(): Promise<void>;
  /** A crash: SIGKILL to the whole process group, no graceful shutdown; the data dir stays. */
  kill(): Promise<void>;
  /** `npm start` again on the same port and DATA_DIR; resolves once GET /healthz answers 200. */
  restart(timeoutMs?: number): Promise<void>;
}

/** One `npm start` process group. */
interface ServerProcess {
  /** Whether it exited (the direct child, npm). */
  exited(): boolean;
  /** Signals the whole group, waits until none of it is left; SIGTERM is followed by SIGKILL after 10 s. */
  end(signal: 'SIGTERM' | 'SIGKILL'): Promise<void>;
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Whether process group `pgid` has a member that is not a zombie. The killed server's processes are
 * orphans, and the init of a container may reap them late (here ~1.5 s after SIGKILL); as zombies they
 * hold no port and no file, so they do not count. Without /proc, any member counts.
 */
function groupRunning(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
  } catch {
    return false;
  }
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((d) => /^\d+$/.test(d));
  } catch {
    return true;
  }
  return pids.some((pid) => {
    try {
      // "pid (comm) state ppid pgrp ...": comm may hold spaces and parentheses, so split after the last ')'.
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      return Number(pgrp) === pgid && state !== 'Z';
    } catch {
      return false; // gone meanwhile
    }
  });
}

/** How startChipless starts the server. */
export interface StartOptions {
  /** HOST: 127.0.0.1 by default; a LAN address for plain-http.test.ts. */
  host?: string;
  /** How long `npm start` may take to answer GET /healthz. */
  timeoutMs?: number;
  /** More environment for `npm start` (e.g. a rate limit); PORT, HOST and DATA_DIR stay the test's. */
  env?: Record<string, string>;
}

/**
 * Starts `npm start` exactly as a user would, with PORT=0 (the server picks a free port and logs
 * it), HOST=`host` (127.0.0.1 by default; a LAN address for plain-http.test.ts), the test's own
 * environment plus `env`, and a fresh temporary DATA_DIR; resolves once GET /healthz answers 200 there.
 * `kill()` and `restart()` crash it and start it again on the same port and data dir.
 */
export async function startChipless({
  host = '127.0.0.1',
  timeoutMs = 120_000,
  env = {},
}: StartOptions = {}): Promise<ChiplessServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'chipless-e2e-'));
  let out = '';
  let current: ServerProcess | undefined;

  /** Spawns `npm start` on `port` (0: any free one) and resolves with the port once /healthz answers. */
  const launch = async (port: number, timeout: number): Promise<number> => {
    const from = out.length;
    const child: ChildProcess = spawn('npm', ['start', '--silent'], {
      cwd: REPO_ROOT,
      env: {
        ...process.env,
        ...env,
        PORT: String(port),
        HOST: host,
        DATA_DIR: dataDir,
        LOG_LEVEL: 'info',
        CONTACT_EMAIL: 'hello@chipless.test',
        // The rate limits stay at their defaults: this is a real poker night.
      },
      // Its own process group, so a signal reaches the node behind npm.
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let exited: number | null | undefined;
    child.stdout?.on('data', (b: Buffer) => {
      out += b.toString();
    });
    child.stderr?.on('data', (b: Buffer) => {
      out += b.toString();
    });
    const exitedPromise = new Promise<void>((resolve) => {
      child.once('exit', (code) => {
        exited = code;
        resolve();
      });
    });
    /** Whether any process of the server's group (npm, sh, node) is still alive. */
    const groupAlive = () => child.pid !== undefined && groupRunning(child.pid);
    const signal = (sig: NodeJS.Signals) => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, sig);
      } catch {
        // already gone
      }
    };
    const proc: ServerProcess = {
      exited: () => exited !== undefined,
      end: async (sig) => {
        if (child.pid === undefined) return;
        if (groupAlive()) {
          signal(sig);
          // A graceful shutdown drains and closes the store; give it 10 s, then SIGKILL the group.
          let deadline = Date.now() + 10_000;
          while (groupAlive() && Date.now() < deadline) await pause(sig === 'SIGKILL' ? 20 : 100);
          if (groupAlive()) {
            signal('SIGKILL');
            deadline = Date.now() + 10_000;
            while (groupAlive() && Date.now() < deadline) await pause(100);
          }
        }
        if (exited === undefined) await exitedPromise;
      },
    };
    current = proc;

    const deadline = Date.now() + timeout;
    let listening = 0;
    while (!listening) {
      const mine = out.slice(from);
      if (exited !== undefined) throw new Error(`npm start exited with ${exited}:\n${mine}`);
      if (Date.now() > deadline) throw new Error(`npm start did not report its port in time:\n${mine}`);
      const match = /"msg":"Chipless is listening"/.test(mine) ? /"port":(\d+)/.exec(mine) : null;
      if (match) listening = Number(match[1]);
      else await pause(100);
    }
    for (;;) {
      try {
        const res = await fetch(`http://${host}:${listening}/healthz`);
        if (res.ok) break;
      } catch {
        // not yet
      }
      if (Date.now() > deadline) throw new Error(`/healthz did not answer in time:\n${out.slice(from)}`);
      await pause(100);
    }
    return listening;
  };

  const stop = async () => {
    await current?.end('SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
  };

  try {
    const port = await launch(0, timeoutMs);
    return {
      url: `http://${host}:${port}`,
      port,
      dataDir,
      output: () => out,
      stop,
      kill: async () => {
        await current?.end('SIGKILL');
        out += '\n--- killed (SIGKILL to the process group) ---\n';
      },
      restart: async (timeout = timeoutMs) => {
        if (current && !current.exited()) throw new Error('restart(): the server is still running');
        out += '--- npm start again, same port and DATA_DIR ---\n';
        await launch(port, timeout);
      },
    };
  } catch (err) {
    await stop();
    throw err;
  }
}

// ---------------------------------------------------------------------------------------------
// Browser
// ---------------------------------------------------------------------------------------------

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

/** Debian's Chromium (or CHROMIUM_PATH), with `options` over the defaults. Never downloads a browser. */
export function launchChromium(options: LaunchOptions = {}): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: CHROMIUM_ARGS,
    timeout: 60_000,
    ...options,
  });
}

/**
 * The end of a suite: closes the browser, then stops the server (also when closing failed), and
 * returns the uncaught exceptions every phone's page threw, which fail the run even when every step
 * passed.
 */
export async function endRun(
  phones: Phone[],
  browser: Browser | undefined,
  server: ChiplessServer | undefined,
): Promise<string[]> {
  const errors = phones.flatMap((p) => p.errors);
  try {
    await browser?.close();
  } finally {
    await server?.stop();
  }
  return errors;
}

export interface Phone {
  name: string;
  context: BrowserContext;
  page: Page;
  /** Uncaught exceptions on the page (a failing test reports them). */
  errors: string[];
}

/** A phone: its own context (own local storage, so its own player), 360×740, touch. */
export async function openPhone(browser: Browser, name: string, baseURL: string): Promise<Phone> {
  const context = await browser.newContext({
    baseURL,
    viewport: { width: 360, height: 740 },
    screen: { width: 360, height: 740 },
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true,
    locale: 'en-US',
    userAgent:
      'Mozilla/5.0 (Linux; Android 14; Pixel 7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Mobile Safari/537.36',
  });
  context.setDefaultTimeout(STEP_TIMEOUT_MS);
  context.setDefaultNavigationTimeout(60_000);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (err) => errors.push(`${name}: ${err.message}`));
  return { name, context, page, errors };
}

/**
 * For a suite (a describe) whose steps build on each other: after the first failing step the rest are
 * skipped, so the first error stands out, and what each phone showed then (screenshots
 * `<prefix>failure-<phone>`) and the server's last output are kept.
 */
export function stopAtFirstFailure(
  prefix: string,
  phones: readonly Phone[],
  server: () => ChiplessServer | undefined,
): void {
  let broken = false;
  beforeEach((ctx) => {
    if (broken) ctx.skip();
  });
  afterEach(async (ctx) => {
    if (ctx.task.result?.state !== 'fail' || broken) return;
    broken = true;
    for (const p of phones)
      await shot(p.page, `${prefix}failure-${p.name.toLowerCase()}`, true).catch(() => {});
    console.error(`server output (last 4000 characters):\n${server()?.output().slice(-4000)}`);
  });
}

// ---------------------------------------------------------------------------------------------
// A suite's setup and end
// ---------------------------------------------------------------------------------------------

export interface ChiplessSuiteOptions {
  /** Phones opened in `beforeAll`, in this order, on the server's URL (more later: `openPhone`). */
  phones?: readonly string[];
  /** How the server starts (a LAN `host`, more `env`). */
  server?: StartOptions;
  /** Chromium's launch options over launchChromium's defaults (e.g. `ignoreDefaultArgs`). */
  browser?: LaunchOptions;
  /** Every phone's viewport, set as it opens (openPhone's is 360×740). */
  viewport?: { width: number; height: number };
  /**
   * Each page's unhandled promise rejections (recorded by an init script, read at the end) and console
   * errors also fail the run, not only its uncaught exceptions.
   */
  strict?: boolean;
  /** At the end, first, the pages still open (e.g. disconnecting the suite's Node clients). */
  beforeEnd?: () => void | Promise<void>;
  /** At the end, once the browser is closed and the server stopped, before the check (e.g. closing proxies). */
  afterEnd?: () => void | Promise<void>;
}

/** A suite's server, browser and phones (chiplessSuite). */
export interface ChiplessSuite {
  /** The server; throws before `beforeAll` has started it. */
  readonly server: ChiplessServer;
  /** The browser; throws before `beforeAll` has launched it. */
  readonly browser: Browser;
  /** Every phone opened, in order: one array all along, filled by `beforeAll` and `openPhone`. */
  readonly phones: Phone[];
  /** Opens a phone on `baseURL` (the server's by default) with the suite's viewport and checks; adds it to `phones`. */
  openPhone(name: string, baseURL?: string): Promise<Phone>;
  /** stopAtFirstFailure for the suite's phones and server: call it in the describe it is for. */
  stopAtFirstFailure(prefix: string): void;
}

/**
 * A suite's setup and end, registered as the file's `beforeAll` and `afterAll` (call it at the top level,
 * before any `beforeAll` that uses the phones). `beforeAll`: the web build check, `npm start`, Chromium,
 * then the `phones`. `afterAll`: `beforeEnd`, (`strict`) each page's unhandled rejections, then the
 * browser closed and the server stopped (also when something before failed), `afterEnd`; then every
 * page's uncaught exceptions (and `strict`'s rejections and console errors) fail the run, also when
 * every step passed.
 */
export function chiplessSuite(options: ChiplessSuiteOptions = {}): ChiplessSuite {
  const { viewport, strict = false } = options;
  let server: ChiplessServer | undefined;
  let browser: Browser | undefined;
  const phones: Phone[] = [];
  /** Unhandled rejections and console errors (`strict`). */
  const problems: string[] = [];

  const suite: ChiplessSuite = {
    get server() {
      if (!server) throw new Error('no server yet: it starts in the beforeAll of chiplessSuite');
      return server;
    },
    get browser() {
      if (!browser) throw new Error('no browser yet: it starts in the beforeAll of chiplessSuite');
      return browser;
    },
    phones,
    async openPhone(name, baseURL) {
      const phone = await openPhone(suite.browser, name, baseURL ?? suite.server.url);
      phones.push(phone);
      if (viewport) await phone.page.setViewportSize(viewport);
      if (strict) {
        await phone.context.addInitScript(() => {
          const w = window as unknown as { e2eRejections: string[] };
          w.e2eRejections = [];
          window.addEventListener('unhandledrejection', (e) => w.e2eRejections.push(String(e.reason)));
        });
        phone.page.on('console', (msg) => {
          if (msg.type() === 'error') problems.push(`${name} console: ${msg.text()}`);
        });
      }
      return phone;
    },
    stopAtFirstFailure: (prefix) => stopAtFirstFailure(prefix, phones, () => server),
  };

  beforeAll(async () => {
    ensureWebBuild();
    server = await startChipless(options.server);
    browser = await launchChromium(options.browser);
    for (const name of options.phones ?? []) await suite.openPhone(name);
  });

  afterAll(async () => {
    let errors: string[] = [];
    try {
      await options.beforeEnd?.();
      if (strict) {
        for (const p of phones) {
          const rejections = await p.page
            .evaluate(() => (window as unknown as { e2eRejections: string[] }).e2eRejections)
            .catch(() => [] as string[]);
          problems.push(...rejections.map((r) => `${p.name} unhandled rejection: ${r}`));
        }
      }
    } finally {
      try {
        errors = await endRun(phones, browser, server);
      } finally {
        await options.afterEnd?.();
      }
    }
    expect([...errors, ...problems]).toEqual([]);
  });

  return suite;
}

/**
 * Waits until every animation on the page that ends has ended (a dialog slides up and fades in over
 * 0.2 s: styles.css `sheet-up`). A check made mid-way measures a sheet still 24 px low and partly
 * transparent. Endless ones (a spinner) are not waited for.
 */
export async function animationsDone(page: Page): Promise<void> {
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((a) => a.effect?.getComputedTiming().iterations !== Number.POSITIVE_INFINITY)
        .map((a) => a.finished.catch(() => null)),
    ),
  );
}

/**
 * Saves what the phone shows as e2e/screenshots/<name>.png. When the screen scrolls (and `dialog` is
 * false), also <name>-end.png scrolled to the bottom, then scrolls back. Viewport pictures, not
 * full-page ones: a full-page capture misplaces the sticky bottom bars over the content.
 */
export async function shot(page: Page, name: string, dialog = false): Promise<void> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  // Let a just-opened dialog or a just-changed screen settle so the picture shows what a person sees.
  const settle = () =>
    page.evaluate(() => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 250))));
  await settle();
  await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}.png`), animations: 'disabled' });
  if (dialog) return;
  const start = await page.evaluate(() => {
    const y = window.scrollY;
    const scrolls = document.documentElement.scrollHeight > window.innerHeight + 4;
    if (scrolls) window.scrollTo(0, document.documentElement.scrollHeight);
    return scrolls ? y : null;
  });
  if (start === null) return;
  await settle();
  await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}-end.png`), animations: 'disabled' });
  await page.evaluate((y) => window.scrollTo(0, y), start);
}

// ---------------------------------------------------------------------------------------------
// Polling assertions
// ---------------------------------------------------------------------------------------------

/** Text as a person reads it: whitespace runs collapsed. */
export const squash = (s: string) => s.replace(/\s+/g, ' ').trim();

/** Compared without case (labels were once upper-cased by CSS, which innerText applies; kept lenient). */
const fold = (s: string) => s.toLowerCase();

/**
 * Retries `check` until it stops throwing or `timeoutMs` passes, then throws its last error.
 * The UI updates asynchronously (socket broadcasts), so every assertion on it polls.
 */
export async function eventually(check: () => Promise<void>, timeoutMs = STEP_TIMEOUT_MS): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let delay = 50;
  for (;;) {
    try {
      await check();
      return;
    } catch (err) {
      if (Date.now() > deadline) throw err;
      await new Promise((r) => setTimeout(r, delay));
      delay = Math.min(delay * 2, 400);
    }
  }
}

/** The locator's visible text, whitespace squashed. */
async function textOf(locator: Locator): Promise<string> {
  // biome-ignore lint/performance/useDomNodeTextContent: Playwright's innerText is the rendered text, with breaks between blocks, as a person reads it.
  return squash(await locator.innerText({ timeout: 2_000 }));
}

/** Waits until the locator's text equals `expected` (whitespace squashed, any case) or matches the RegExp. */
export async function expectText(locator: Locator, expected: string | RegExp, timeoutMs?: number) {
  await eventually(async () => {
    const text = await textOf(locator);
    const ok = typeof expected === 'string' ? fold(text) === fold(expected) : expected.test(text);
    if (!ok)
      throw new Error(
        `expected ${String(locator)} to read ${JSON.stringify(String(expected))}, got ${JSON.stringify(text)}`,
      );
  }, timeoutMs);
}

/** Waits until the locator's text contains every one of `parts` (whitespace squashed, any case). */
export async function expectContains(locator: Locator, parts: string[], timeoutMs?: number) {
  await eventually(async () => {
    const text = await textOf(locator);
    const missing = parts.filter((p) => !fold(text).includes(fold(p)));
    if (missing.length > 0)
      throw new Error(
        `expected ${String(locator)} to contain ${JSON.stringify(missing)}, got ${JSON.stringify(text)}`,
      );
  }, timeoutMs);
}

/** Waits until the locator's input value equals `expected`. */
export async function expectValue(locator: Locator, expected: string, timeoutMs?: number) {
  await eventually(async () => {
    const value = await locator.inputValue({ timeout: 2_000 });
    if (value !== expected)
      throw new Error(`expected ${String(locator)} to have value ${expected}, got ${value}`);
  }, timeoutMs);
}

/** Waits until the locator is visible. */
export async function expectVisible(locator: Locator, timeoutMs = STEP_TIMEOUT_MS) {
  await locator.waitFor({ state: 'visible', timeout: timeoutMs });
}

/** Waits until the locator is hidden or gone. */
export async function expectHidden(locator: Locator, timeoutMs = STEP_TIMEOUT_MS) {
  await locator.waitFor({ state: 'hidden', timeout: timeoutMs });
}

/** Waits until the locator (a button) is disabled. */
export async function expectDisabled(locator: Locator, timeoutMs?: number) {
  await eventually(async () => {
    if (!(await locator.isDisabled({ timeout: 2_000 })))
      throw new Error(`expected ${String(locator)} to be disabled`);
  }, timeoutMs);
}
