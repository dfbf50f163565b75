/**
 * The web app's build for `npm start`: dist/web is built with the repo's vite.config.ts when it is
 * missing or was made from other sources than those here now, so a server started after a `git pull`
 * never serves yesterday's app against today's protocol. (Until session 29 it was built only when
 * missing; until session 36 only when a source was newer than it, which a release unpacked with its
 * files' times kept could miss: scripts/source-stamp.mjs.)
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { readStamp, sourceStamp, webSources, webStampFile } from '../../scripts/source-stamp.mjs';
import type { Logger } from './logger';

// Where the stamp is and what it covers live beside the stamp, where vite.config.ts takes them too
// (a config importing a .ts module without its extension draws a warning from Vite).
export { webSources, webStampFile } from '../../scripts/source-stamp.mjs';

/**
 * Whether `webDir` needs building: no index.html, or made from other sources than those here now
 * (their stamp differs from the one its build recorded; none recorded counts as other). A copy of the
 * repo without the sources (only dist/) never counts as stale.
 */
export function webBuildIsStale(webDir: string, sources: readonly string[]): boolean {
  if (!existsSync(join(webDir, 'index.html'))) return true;
  const now = sourceStamp(sources);
  return now !== null && now !== readStamp(webStampFile(webDir));
}

/** Builds the web app (vite) into dist/web when stale; a failed build is logged, not thrown. */
export async function buildWebIfStale(repoRoot: string, webDir: string, logger: Logger): Promise<void> {
  const missing = !existsSync(join(webDir, 'index.html'));
  if (!webBuildIsStale(webDir, webSources(repoRoot))) return;
  logger.info(
    missing
      ? 'web app not built yet: running vite build'
      : 'web app built from other sources: running vite build',
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
