// @vitest-environment node
/**
 * The built web app runs on the oldest phones it supports (src/web/README.md, "Browser support"):
 * Safari 15 / iOS 15, Chrome 90 (Samsung Internet 15, Edge 90), Firefox 90. Builds the app as
 * `npx vite build` does (vite.config.ts), into a temporary directory, and checks what it ships:
 *
 * 1. Syntax: esbuild, asked to transform each chunk for the floor, neither refuses anything (syntax it
 *    cannot lower) nor changes anything (syntax it would have to lower: the build left something the
 *    floor cannot parse, e.g. `?.` for Chrome 80–90's optional-call bug, class static blocks, a regex
 *    lookbehind literal).
 * 2. APIs: no method beyond the floor is called without a feature test next to it (the way React and
 *    our own ids.ts/effects.ts test for reportError, randomUUID, wakeLock), e.g. Object.hasOwn or
 *    Array.prototype.at, which need Safari 15.4 and threw on an iPhone with iOS 15.0–15.3.
 * 3. CSS: nothing the floor lacks where dropping it would break the layout.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { transform } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import viteConfig, { BROWSER_FLOOR } from '../../vite.config';

const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** The floor, as esbuild and Vite name browsers. */
const FLOOR = ['safari15', 'ios15', 'chrome90', 'edge90', 'firefox90'];

let outDir: string;
let js: { name: string; code: string }[];
let css: string;

beforeAll(() => {
  outDir = mkdtempSync(join(tmpdir(), 'chipless-floor-'));
  // A build of its own (not dist/web, which other runs may be rewriting), with the real config.
  execFileSync('npx', ['vite', 'build', '--outDir', outDir, '--emptyOutDir', '--logLevel', 'error'], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'ignore', 'inherit'],
    timeout: 170_000,
  });
  const assets = join(outDir, 'assets');
  const files = readdirSync(assets);
  js = files
    .filter((f) => f.endsWith('.js'))
    .map((name) => ({ name, code: readFileSync(join(assets, name), 'utf8') }));
  css = files
    .filter((f) => f.endsWith('.css'))
    .map((f) => readFileSync(join(assets, f), 'utf8'))
    .join('\n');
}, 180_000);

afterAll(() => {
  if (outDir) rmSync(outDir, { recursive: true, force: true });
});

describe('vite.config.ts', () => {
  it('builds the JS and the CSS for the floor', () => {
    expect(BROWSER_FLOOR).toEqual(FLOOR);
    const config =
      typeof viteConfig === 'function' ? viteConfig({ command: 'serve', mode: 'test' }) : viteConfig;
    expect(config).toMatchObject({ build: { target: FLOOR, cssTarget: FLOOR } });
  });
});

describe('the built app on the floor', () => {
  it('JS syntax: esbuild neither refuses nor lowers anything in any chunk', async () => {
    expect(js.length).toBeGreaterThan(5);
    const problems: string[] = [];
    for (const { name, code } of js) {
      const same = await transform(code, {
        loader: 'js',
        format: 'esm',
        target: 'esnext',
        logLevel: 'silent',
      });
      try {
        const floor = await transform(code, {
          loader: 'js',
          format: 'esm',
          target: FLOOR,
          logLevel: 'silent',
        });
        if (floor.code !== same.code)
          problems.push(`${name}: has syntax the floor lacks (${firstDiff(same.code, floor.code)})`);
      } catch (err) {
        const errors = (err as { errors?: { text: string }[] }).errors ?? [];
        problems.push(`${name}: ${errors.map((e) => e.text).join('; ') || String(err)}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('JS APIs: nothing beyond the floor is called without a feature test beside it', () => {
    const problems: string[] = [];
    for (const { name, code } of js) {
      for (const api of BEYOND_FLOOR) {
        for (const m of code.matchAll(api.pattern)) {
          if (api.guard && isGuarded(code, m.index, api.guard)) continue;
          problems.push(
            `${name}: ${api.name} (${api.since}) at ${JSON.stringify(code.slice(m.index - 60, m.index + 40))}`,
          );
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it('JS APIs: the feature-tested ones are still feature-tested (the scan sees them)', () => {
    // The exceptions the scan lets through, each behind a typeof / in test in the shipped code:
    // React's reportError (console.error otherwise), ids.ts's crypto.randomUUID (getRandomValues
    // otherwise; missing on plain http too), effects.ts's navigator.wakeLock (Safari 16.4; missing on
    // plain http). Seeing them here shows the scan reads the right code.
    const all = js.map((c) => c.code).join('\n');
    expect(all).toMatch(/typeof reportError==`function`\?reportError:/);
    expect(all).toMatch(/typeof (\w+)\.randomUUID==`function`\)return \1\.randomUUID\(\)/);
    expect(all).toMatch(/`wakeLock`in navigator/);
  });

  it('CSS: esbuild lowers nothing for the floor', async () => {
    const same = await transform(css, { loader: 'css', target: 'esnext', logLevel: 'silent' });
    const floor = await transform(css, { loader: 'css', target: FLOOR, logLevel: 'silent' });
    expect(floor.code === same.code ? '' : firstDiff(same.code, floor.code)).toBe('');
  });

  it('CSS: a dvh/svh/lvh height limit has a fallback first; no feature beyond the floor that layout needs', () => {
    const problems: string[] = [];
    for (const rule of rules(css)) {
      const declarations = rule.body
        .split(';')
        .map((d) => d.trim())
        .filter(Boolean);
      declarations.forEach((decl, i) => {
        const [property = '', value = ''] = splitDeclaration(decl);
        // Safari < 15.4 and Chrome < 108 drop a declaration with these units. A min-height dropped
        // leaves a screen as tall as its content (nothing hidden); a height or max-height dropped lets
        // a dialog grow past the screen's top, out of reach. Those need an earlier vh/% line.
        if (/\d(dvh|svh|lvh|dvw|svw|lvw)\b/.test(value) && property !== 'min-height') {
          const fallback = declarations
            .slice(0, i)
            .some((d) => splitDeclaration(d)[0] === property && !/(dvh|svh|lvh|dvw|svw|lvw)\b/.test(d));
          if (!fallback) problems.push(`${rule.selector} { ${decl} } has no fallback before it`);
        }
      });
      // :has() (Safari 15.4, Chrome 105): only as an extra that older browsers may skip (the sticky
      // bars' scroll padding), never for what lays a screen out.
      if (rule.selector.includes(':has(')) {
        const others = declarations.filter((d) => !splitDeclaration(d)[0].startsWith('scroll-padding'));
        if (others.length > 0) problems.push(`${rule.selector} uses :has() for ${others.join('; ')}`);
      }
    }
    for (const [pattern, what] of CSS_BEYOND_FLOOR) {
      if (pattern.test(css)) problems.push(`${what}: ${css.match(pattern)?.[0]}`);
    }
    expect(problems).toEqual([]);
  });
});

/**
 * Methods and functions the floor lacks, as the minified code calls them. `guard`: the name a
 * feature test would mention (`typeof x.name`, `` `name`in ``), for APIs libraries (and we) use only
 * behind one; the rest may not appear at all.
 */
const BEYOND_FLOOR: { name: string; since: string; pattern: RegExp; guard?: string }[] = [
  { name: 'Object.hasOwn', since: 'Safari 15.4, Chrome 93', pattern: /\bObject\.hasOwn\(/g },
  { name: 'Array/String.prototype.at', since: 'Safari 15.4, Chrome 92', pattern: /\.at\(/g },
  {
    name: 'structuredClone',
    since: 'Safari 15.4, Chrome 98',
    pattern: /\bstructuredClone\(/g,
    guard: 'structuredClone',
  },
  { name: 'findLast / findLastIndex', since: 'Safari 15.4, Chrome 97', pattern: /\.findLast(Index)?\(/g },
  {
    name: 'AbortSignal.timeout / any',
    since: 'Safari 16 / 17.4, Chrome 103 / 116',
    pattern: /\bAbortSignal\.(timeout|any)\(/g,
    guard: 'AbortSignal',
  },
  {
    name: 'toSorted / toReversed / toSpliced',
    since: 'Safari 16, Chrome 110',
    pattern: /\.to(Sorted|Reversed|Spliced)\(/g,
  },
  {
    name: 'Object.groupBy / Map.groupBy',
    since: 'Safari 17.4, Chrome 117',
    pattern: /\b(Object|Map)\.groupBy\(/g,
  },
  { name: 'Promise.withResolvers', since: 'Safari 17.4, Chrome 119', pattern: /\bPromise\.withResolvers\(/g },
  { name: 'Array.fromAsync', since: 'Safari 16.4, Chrome 121', pattern: /\bArray\.fromAsync\(/g },
  {
    name: 'isWellFormed / toWellFormed',
    since: 'Safari 16.4, Chrome 111',
    pattern: /\.(is|to)WellFormed\(/g,
  },
  {
    name: 'Set methods',
    since: 'Safari 17, Chrome 122',
    pattern: /\.(union|intersection|symmetricDifference|isSubsetOf|isSupersetOf|isDisjointFrom)\(/g,
  },
  {
    name: 'URL.canParse / URL.parse',
    since: 'Safari 17 / 18, Chrome 120 / 126',
    pattern: /\bURL\.(canParse|parse)\(/g,
    guard: 'URL',
  },
  { name: 'Intl.DurationFormat', since: 'Safari 16.4, Chrome 129', pattern: /\bIntl\.DurationFormat\b/g },
  { name: 'HTMLDialogElement.showModal', since: 'Safari 15.4', pattern: /\.showModal\(/g },
  {
    name: 'checkVisibility / showPopover',
    since: 'Safari 17, Chrome 105 / 114',
    pattern: /\.(checkVisibility|showPopover|togglePopover)\(/g,
  },
  {
    name: 'crypto.randomUUID',
    since: 'Safari 15.4, Chrome 92, secure contexts only',
    pattern: /\.randomUUID\(/g,
    guard: 'randomUUID',
  },
  { name: 'reportError', since: 'Safari 15.4, Chrome 95', pattern: /\breportError\(/g, guard: 'reportError' },
  {
    name: 'requestIdleCallback',
    since: 'no Safari',
    pattern: /\brequestIdleCallback\(/g,
    guard: 'requestIdleCallback',
  },
  {
    name: 'navigator.wakeLock',
    since: 'Safari 16.4, Chrome 84, secure contexts only',
    pattern: /\.wakeLock\.request\(/g,
    guard: 'wakeLock',
  },
  {
    name: 'document.startViewTransition',
    since: 'Safari 18, Chrome 111',
    pattern: /\.startViewTransition\(/g,
    guard: 'startViewTransition',
  },
  {
    name: 'scheduler.postTask / yield',
    since: 'no Safari, Chrome 94 / 129',
    pattern: /\bscheduler\.(postTask|yield)\(/g,
    guard: 'scheduler',
  },
  { name: 'regex lookbehind in a string', since: 'Safari 16.4', pattern: /\(\?<[=!]/g },
];

/**
 * Whether a feature test for `name` comes shortly before `at` (the same function or expression): a
 * `typeof … name` or `` `name` in `` / `'name' in` / `"name" in`; or the call opens a `try` block (a
 * TypeError where the API is missing is caught: React's startViewTransition, which it calls only for
 * <ViewTransition>, and which falls back to a plain commit in its catch).
 */
function isGuarded(code: string, at: number, name: string): boolean {
  const before = code.slice(Math.max(0, at - 400), at);
  if (new RegExp(`typeof [\\w$.]*\\b${name}\\b|[\`'"]${name}[\`'"]\\s*in\\b`).test(before)) return true;
  return /try\{[^{}]{0,40}$/.test(before);
}

/** CSS the floor lacks and layout could depend on (:has() and dvh are checked by rule above). */
const CSS_BEYOND_FLOOR: [RegExp, string][] = [
  [/@container\b|\bcontainer-type\s*:|\d(cqw|cqh|cqi|cqb)\b/, 'container queries (Safari 16, Chrome 105)'],
  [/@layer\b/, 'cascade layers (Safari 15.4, Chrome 99): a whole layer is dropped before'],
  [/\bcolor-mix\(/, 'color-mix() (Safari 16.2, Chrome 111)'],
  [/\blight-dark\(/, 'light-dark() (Safari 17.5, Chrome 123)'],
  [/\b(oklch|oklab|lch|lab)\(/, 'lab/lch colours (Safari 15, Chrome 111)'],
  [/&/, 'CSS nesting (Safari 16.5, Chrome 112)'],
  [/@property\b/, '@property (Safari 16.4, Chrome 85)'],
  [/@starting-style\b/, '@starting-style (Safari 17.5, Chrome 117)'],
  [/@scope\b/, '@scope (Safari 17.4, Chrome 118)'],
  [/\bfield-sizing\s*:/, 'field-sizing (Chrome 123, no Safari)'],
  [/\banchor\(|\bposition-anchor\s*:/, 'anchor positioning (Safari 26, Chrome 125)'],
  [/\btext-wrap\s*:/, 'text-wrap (Safari 17.4, Chrome 114)'],
  [/:popover-open\b/, ':popover-open (Safari 17, Chrome 114)'],
];

/** The innermost rules of (minified) CSS: selector and the declarations' text. */
function rules(text: string): { selector: string; body: string }[] {
  return [...text.matchAll(/([^{}]+)\{([^{}]*)\}/g)].map((m) => ({ selector: m[1]!.trim(), body: m[2]! }));
}

/** "max-height:92vh" → ['max-height', '92vh']. */
function splitDeclaration(decl: string): [string, string] {
  const at = decl.indexOf(':');
  return at === -1 ? [decl.trim(), ''] : [decl.slice(0, at).trim().toLowerCase(), decl.slice(at + 1).trim()];
}

/** Where two texts first differ, with some context of each, for a failure message. */
function firstDiff(a: string, b: string): string {
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  return `${JSON.stringify(a.slice(Math.max(0, i - 80), i + 80))} → ${JSON.stringify(b.slice(Math.max(0, i - 80), i + 80))}`;
}
