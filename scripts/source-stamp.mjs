// What a build was made from: a hash of every source file's path, size and modification time. A
// build whose recorded stamp differs from its sources' is rebuilt, whichever way the times moved.
//
// Until session 36 a build counted as stale only when a source was NEWER than it: a release unpacked
// over an install (a tarball, `rsync -a`, an image layer, anything that keeps the files' times) whose
// files were committed before the old build was made kept running the old server and serving the old
// web app, with no warning, until some later restart (the upgrade audit of session 36).
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';

/**
 * The stamp of everything under `paths` (files and directories, walked in name order), or null when
 * none of them exists (a copy of the build without its sources). Files are named by their place under
 * the path given (its index in `paths`, then the relative path), so the same repo reached by another
 * absolute path (a symlink, a bind mount) has the same stamp.
 */
export function sourceStamp(paths) {
  const hash = createHash('sha256');
  let files = 0;
  const walk = (index, top, path) => {
    if (!existsSync(path)) return;
    const info = statSync(path);
    if (info.isDirectory()) {
      for (const name of readdirSync(path).sort()) walk(index, top, join(path, name));
      return;
    }
    files++;
    // To the millisecond: a time set back from a Date (a test, an unpacker) keeps no more, and comes
    // back a hair off (x.123 ms is stored as x.122999 ms); the part below would make it another source.
    hash.update(`${index}\0${relative(top, path)}\0${info.size}\0${Math.round(info.mtimeMs)}\n`);
  };
  for (const [index, path] of paths.entries()) walk(index, path, path);
  return files === 0 ? null : hash.digest('hex');
}

/** What the web build is made from, in the repo: the app, the engine and protocol it imports, the config. */
export const webSources = (repoRoot) =>
  ['src/web', 'src/engine', 'src/shared', 'vite.config.ts'].map((p) => join(repoRoot, p));

/** Where a build of the web app into `webDir` records its sources' stamp (dist/web-sources.txt). */
export const webStampFile = (webDir) => join(dirname(webDir), `${basename(webDir)}-sources.txt`);

/** The stamp recorded in `file`, or null when there is none. */
export function readStamp(file) {
  try {
    return readFileSync(file, 'utf8').trim();
  } catch {
    return null;
  }
}

/** Records `stamp` in `file` (a build just made from those sources). */
export function writeStamp(file, stamp) {
  if (stamp !== null) writeFileSync(file, `${stamp}\n`);
}

/**
 * The Vite plugin that records, in `stampFile`, the stamp of `sources()` a build into `outDir` was made
 * from (vite.config.ts). Taken when the build starts (a source saved while it runs leaves the build
 * stale, as it is); the old stamp is removed then, and the new one written only once the bundle is
 * written: a failed build leaves none, so the next start builds again (vite runs closeBundle after a
 * failed build too). A build into another folder (a test's) records nothing: the stamp would claim
 * `outDir` holds a build it does not.
 */
export function sourceStampPlugin({ sources, outDir, stampFile }) {
  let ours = false;
  let stamp = null;
  let written = false;
  return {
    name: 'chipless-source-stamp',
    apply: 'build',
    configResolved(config) {
      ours = resolve(config.root, config.build.outDir) === resolve(outDir);
    },
    buildStart() {
      written = false;
      if (!ours) return;
      rmSync(stampFile, { force: true });
      stamp = sourceStamp(sources());
    },
    writeBundle() {
      written = true;
    },
    closeBundle() {
      if (ours && written) writeStamp(stampFile, stamp);
    },
  };
}
