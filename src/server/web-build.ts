/**
 * The web app's build for `npm start`: dist/web is built with the repo's vite.config.ts when it is
 * missing or older than the sources it is built from, so a server started after a `git pull` never
 * serves yesterday's app against today's protocol. (Until session 29 it was built only when missing.)
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from './logger';

/** The newest modification time of any file under `path` (0 when there is none). */
function newestMtime(path: string): number {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = 0;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, entry)));
  return newest;
}

/** What the web build is made from, in the repo: the app, the engine and protocol it imports, the config. */
export const webSources = (repoRoot: string): string[] =>
  ['src/web', 'src/engine', 'src/shared', 'vite.config.ts'].map((p) => join(repoRoot, p));

/**
 * Whether `webDir` needs building: no index.html, or a source newer than it. A copy of the repo
 * without the sources (only dist/) never counts as stale.
 */
export function webBuildIsStale(webDir: string, sources: readonly string[]): boolean {
  const index = join(webDir, 'index.html');
  if (!existsSync(index)) return true;
  const newest = Math.max(0, ...sources.map(newestMtime));
  return newest > statSync(index).mtimeMs;
}

/** Builds the web app (vite) into dist/web when stale; a failed build is logged, not thrown. */
export async function buildWebIfStale(repoRoot: string, webDir: string, logger: Logger): Promise<void> {
  const missing = !existsSync(join(webDir, 'index.html'));
  if (!webBuildIsStale(webDir, webSources(repoRoot))) return;
  logger.info(
    missing
      ? 'web app not built yet: running vite build'
      : 'web app older than its sources: running vite build',
  );
  const started = Date.now();
  try {
    const { build } = await import('vite');
    await build({
      configFile: join(repoRoot, 'vite.config.ts'),
      root: join(repoRoot, 'src/web'),
      logLevel: 'warn',
    });
    logger.info({ ms: Date.now() - started }, 'web app built');
  } catch (err) {
    // The API and realtime server still work; the pages answer 503 until a build succeeds.
    logger.error({ err }, 'web build failed');
  }
}
