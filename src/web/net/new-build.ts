/**
 * A page left open across a server upgrade: each build's code files carry their hash in their names,
 * and a new build's server no longer has the old ones. The page's next screen to load (the lobby after
 * a join, the table, the QR code, About) then failed with "Something went wrong…" and a Reload button,
 * though the join had gone through (session 36's upgrade audit). Vite tells of such a failure with the
 * `vite:preloadError` event; the page then reloads itself, which fetches the new build (a seat is in
 * local storage, so the phone comes back to it).
 *
 * Not when the server cannot be reached (a phone offline: a reload would show the browser's own error
 * page instead of the app's), and at most once a minute (a file missing for another reason must not
 * reload the page in a loop; the error screen's Reload button stays).
 */
const KEY = 'chipless:reloadedForNewBuild';
const AT_MOST_EVERY_MS = 60_000;
/** Whether this page has asked for its reload already (storage may be unavailable). */
let reloadedHere = false;

export interface NewBuildDeps {
  /** Whether the server answers (the page's own address, not from any cache). */
  reachable: () => Promise<boolean>;
  reload: () => void;
  now: () => number;
  /** Where the last such reload's time is kept for the tab (sessionStorage); null when unavailable. */
  store: Pick<Storage, 'getItem' | 'setItem'> | null;
}

function sessionStore(): NewBuildDeps['store'] {
  try {
    return window.sessionStorage;
  } catch {
    return null;
  }
}

const browserDeps = (): NewBuildDeps => ({
  reachable: () =>
    fetch('/', { method: 'HEAD', cache: 'no-store' }).then(
      (res) => res.ok,
      () => false,
    ),
  reload: () => window.location.reload(),
  now: () => Date.now(),
  store: sessionStore(),
});

/** Reloads the page for a code file that did not load, when it should (above). True when it did. */
export async function reloadForNewBuild(deps: NewBuildDeps = browserDeps()): Promise<boolean> {
  let last = 0;
  try {
    last = Number(deps.store?.getItem(KEY) ?? 0) || 0;
  } catch {
    // Storage refused (private mode): the once-a-minute rule then holds for this page only.
  }
  if (deps.now() - last < AT_MOST_EVERY_MS || reloadedHere) return false;
  if (!(await deps.reachable())) return false;
  reloadedHere = true;
  try {
    deps.store?.setItem(KEY, String(deps.now()));
  } catch {
    // As above.
  }
  deps.reload();
  return true;
}

/** For tests: forgets that this page asked for a reload. */
export function resetNewBuildReload(): void {
  reloadedHere = false;
}

/** Listens for Vite's `vite:preloadError` (main.tsx). */
export function installNewBuildReload(): void {
  window.addEventListener('vite:preloadError', () => void reloadForNewBuild());
}
