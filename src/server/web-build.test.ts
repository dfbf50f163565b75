import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { webBuildIsStale, webSources } from './web-build';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A repo with its web sources and a dist/web built at `builtAt` (seconds), sources touched at `editedAt`. */
function repo(builtAt: number | null, editedAt: number) {
  const root = mkdtempSync(join(tmpdir(), 'chipless-web-build-'));
  dirs.push(root);
  for (const dir of ['src/web/screens', 'src/engine', 'src/shared'])
    mkdirSync(join(root, dir), { recursive: true });
  const sources = [
    'src/web/screens/Table.tsx',
    'src/engine/hand.ts',
    'src/shared/limits.ts',
    'vite.config.ts',
  ];
  for (const file of sources) {
    writeFileSync(join(root, file), '');
    utimesSync(join(root, file), editedAt, editedAt);
  }
  const webDir = join(root, 'dist/web');
  mkdirSync(webDir, { recursive: true });
  if (builtAt !== null) {
    writeFileSync(join(webDir, 'index.html'), '<!doctype html>');
    utimesSync(join(webDir, 'index.html'), builtAt, builtAt);
  }
  return { root, webDir, touch: (file: string, at: number) => utimesSync(join(root, file), at, at) };
}

describe('web build for npm start: built when missing or older than its sources', () => {
  it('missing: stale', () => {
    const { root, webDir } = repo(null, 1_000);
    expect(webBuildIsStale(webDir, webSources(root))).toBe(true);
  });

  it('built after every source: fresh', () => {
    const { root, webDir } = repo(2_000, 1_000);
    expect(webBuildIsStale(webDir, webSources(root))).toBe(false);
  });

  it('a source edited since (a git pull), deep in the web app, in the engine, or the vite config: stale', () => {
    for (const file of [
      'src/web/screens/Table.tsx',
      'src/engine/hand.ts',
      'src/shared/limits.ts',
      'vite.config.ts',
    ]) {
      const { root, webDir, touch } = repo(2_000, 1_000);
      touch(file, 3_000);
      expect(webBuildIsStale(webDir, webSources(root)), file).toBe(true);
    }
  });

  it('a copy without the sources (only dist/) is never stale', () => {
    const { webDir } = repo(2_000, 1_000);
    expect(webBuildIsStale(webDir, webSources(join(webDir, 'no-repo-here')))).toBe(false);
  });
});
