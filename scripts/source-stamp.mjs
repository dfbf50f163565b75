// What a build was made from: a hash of every source file's path, size and modification time. A
// build whose recorded stamp differs from its sources' is rebuilt, whichever way the times moved.
//
// Until session 36 a build counted as stale only when a source was NEWER than it: a release unpacked
// over an install (a tarball, `rsync -a`, an image layer, anything that keeps the files' times) whose
// files were committed before the old build was made kept running the old server and serving the old
// web app, with no warning, until some later restart (the upgrade audit of session 36).
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';

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
    hash.update(`${index}\0${relative(top, path)}\0${info.size}\0${info.mtimeMs}\n`);
  };
  for (const [index, path] of paths.entries()) walk(index, path, path);
  return files === 0 ? null : hash.digest('hex');
}

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
