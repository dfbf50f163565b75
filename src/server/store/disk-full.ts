/**
 * What counts as a full disk, for the writes that fail with one (the SQLite store's open, the
 * session-secret file): SQLite's SQLITE_FULL, and the system's ENOSPC (no space) and EDQUOT (the user's
 * quota). One rule, so both say "the disk is full" for the same errors.
 */
export function isDiskFull(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === 'SQLITE_FULL' || code === 'ENOSPC' || code === 'EDQUOT';
}
