import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readStamp, sourceStamp, sourceStampPlugin, writeStamp } from '../../scripts/source-stamp.mjs';
import { webBuildIsStale, webSources, webStampFile } from './web-build';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const SOURCES = ['src/web/screens/Table.tsx', 'src/engine/hand.ts', 'src/shared/limits.ts', 'vite.config.ts'];

/**
 * A repo with its web sources touched at `editedAt` (seconds) and, unless `built` is false, a dist/web
 * built from them: its index.html and the stamp the build records (vite.config.ts's plugin).
 */
function repo(editedAt: number, built = true) {
  const root = mkdtempSync(join(tmpdir(), 'chipless-web-build-'));
  dirs.push(root);
  for (const dir of ['src/web/screens', 'src/engine', 'src/shared'])
    mkdirSync(join(root, dir), { recursive: true });
  for (const file of SOURCES) {
    writeFileSync(join(root, file), '');
    utimesSync(join(root, file), editedAt, editedAt);
  }
  const webDir = join(root, 'dist/web');
  mkdirSync(webDir, { recursive: true });
  if (built) {
    writeFileSync(join(webDir, 'index.html'), '<!doctype html>');
    writeStamp(webStampFile(webDir), sourceStamp(webSources(root)));
  }
  return {
    root,
    webDir,
    stale: () => webBuildIsStale(webDir, webSources(root)),
    touch: (file: string, at: number) => utimesSync(join(root, file), at, at),
  };
}

describe('web build for npm start: built when missing or made from other sources', () => {
  it('missing: stale', () => {
    expect(repo(1_000, false).stale()).toBe(true);
  });

  it('built from the sources here: fresh', () => {
    expect(repo(1_000).stale()).toBe(false);
  });

  it('a source edited since (a git pull), deep in the web app, in the engine, or the vite config: stale', () => {
    for (const file of SOURCES) {
      const { stale, touch } = repo(1_000);
      touch(file, 3_000);
      expect(stale(), file).toBe(true);
    }
  });

  it('a source older than the one built from (a release unpacked with its times kept): stale', () => {
    // The upgrade audit of session 36: a release committed before the old build was made kept the old
    // app running, since no source was newer than the build.
    const { stale, touch } = repo(5_000);
    touch('src/engine/hand.ts', 4_000);
    expect(stale()).toBe(true);
  });

  it('a source added or removed: stale', () => {
    const added = repo(1_000);
    writeFileSync(join(added.root, 'src/shared/new.ts'), '');
    expect(added.stale()).toBe(true);
    const removed = repo(1_000);
    rmSync(join(removed.root, 'src/shared/limits.ts'));
    expect(removed.stale()).toBe(true);
  });

  it('a build that recorded no stamp: stale', () => {
    const { webDir, stale } = repo(1_000);
    rmSync(webStampFile(webDir));
    expect(stale()).toBe(true);
  });

  it('a copy without the sources (only dist/) is never stale', () => {
    const { webDir } = repo(1_000);
    expect(webBuildIsStale(webDir, webSources(join(webDir, 'no-repo-here')))).toBe(false);
  });
});

describe("vite's plugin that records the stamp (vite.config.ts)", () => {
  /** The plugin's hooks as vite calls them, for a build into `into`. */
  function plugin(root: string, webDir: string, into = webDir) {
    const p = sourceStampPlugin({
      sources: () => webSources(root),
      outDir: webDir,
      stampFile: webStampFile(webDir),
    });
    const hook = (name: string, ...args: unknown[]) =>
      (p as unknown as Record<string, (...a: unknown[]) => void>)[name]!(...args);
    hook('configResolved', { root: join(root, 'src/web'), build: { outDir: into } });
    return hook;
  }

  it('a build that writes its bundle records the stamp of the sources it started from', () => {
    const { root, webDir, stale, touch } = repo(1_000);
    touch('src/engine/hand.ts', 2_000);
    expect(stale()).toBe(true);
    const hook = plugin(root, webDir);
    hook('buildStart');
    hook('writeBundle');
    hook('closeBundle');
    expect(stale()).toBe(false);
  });

  it('a failed build (closeBundle without writeBundle) leaves no stamp: the next start builds again', () => {
    // Vite runs closeBundle after a failed build too; the stamp then claimed the old dist/web was
    // made from the sources that failed (session 36's review).
    const { root, webDir, stale, touch } = repo(1_000);
    touch('src/engine/hand.ts', 2_000);
    const hook = plugin(root, webDir);
    hook('buildStart');
    hook('closeBundle');
    expect(readStamp(webStampFile(webDir))).toBeNull();
    expect(stale()).toBe(true);
  });

  it("a build into another folder (browser-support.test's) leaves dist/web's stamp as it was", () => {
    const { root, webDir, stale, touch } = repo(1_000);
    touch('src/engine/hand.ts', 2_000);
    const before = readStamp(webStampFile(webDir));
    const hook = plugin(root, webDir, join(root, 'elsewhere'));
    hook('buildStart');
    hook('writeBundle');
    hook('closeBundle');
    expect(readStamp(webStampFile(webDir))).toBe(before);
    expect(stale()).toBe(true);
  });
});
