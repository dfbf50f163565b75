import { dialogOpen } from '../components/Modal';

/**
 * A page left open across a server upgrade: each build's code files carry their hash in their names,
 * and a new build's server no longer has the old ones. The page's next screen to load (the lobby after
 * a join, the table, the QR code, About) then failed with "Something went wrong…" and a Reload button,
 * though the join had gone through (session 36's upgrade audit). Vite tells of such a failure with the
 * `vite:preloadError` event; the page then reloads itself, which fetches the new build (a seat is in
 * local storage, so the phone comes back to it).
 *
 * Not when the server cannot be reached (a phone offline: a reload would show the browser's own error
 * page instead of the app's), and at most once a minute a tab (a file missing for another reason must
 * not reload the page in a loop; the error screen's Reload button stays), so not at all where the tab
 * cannot keep that time (storage refused). Not while a dialog is open or a field has focus either: the
 * room screens are fetched in the background when Start a Game opens, and a reload then closed the
 * form under the thumb, or dropped the answer to a create already sent (session 36's review); the
 * reload waits until the form is closed or sent. A room screen that needs its file meanwhile shows
 * "Opening the game…" until the reload (Home.tsx), not the error screen.
 */
const KEY = 'chipless:reloadedForNewBuild';
const AT_MOST_EVERY_MS = 60_000;
/** How often a reload waiting for the player to finish (busy) looks again. */
const BUSY_CHECK_MS = 250;

export interface NewBuildDeps {
  /** Whether the server answers (the page's own address, not from any cache). */
  reachable: () => Promise<boolean>;
  reload: () => void;
  now: () => number;
  /** Where the last such reload's time is kept for the tab (sessionStorage); null when unavailable. */
  store: Pick<Storage, 'getItem' | 'setItem'> | null;
  /** Whether the player is in the middle of something: a dialog open, a field with focus. */
  busy: () => boolean;
  wait: (ms: number) => Promise<void>;
}

function sessionStore(): NewBuildDeps['store'] {
  try {
    return window.sessionStorage;
  } catch {
    return null;
  }
}

/**
 * The page's `busy`: a dialog open, or a field (input, select, textarea) with focus that is shown. A
 * focused field that is not shown (on a screen Suspense hid) is no one typing.
 */
export function pageBusy(): boolean {
  const active = document.activeElement;
  const typing =
    active instanceof HTMLElement &&
    active.matches('input, select, textarea') &&
    active.getClientRects().length > 0;
  return dialogOpen() || typing;
}

const browserDeps = (): NewBuildDeps => ({
  busy: pageBusy,
  reachable: () =>
    fetch('/', { method: 'HEAD', cache: 'no-store' }).then(
      (res) => res.ok,
      () => false,
    ),
  reload: () => window.location.reload(),
  now: () => Date.now(),
  store: sessionStore(),
  wait: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
});

/** The decision under way, if any: every failure meanwhile waits for the same one. */
let deciding: Promise<boolean> | null = null;

/**
 * Reloads the page for a code file that did not load, when it should (above), once the player is not
 * in the middle of something. Resolves true when the page is reloading, false when it will not.
 */
export function reloadForNewBuild(deps: NewBuildDeps = browserDeps()): Promise<boolean> {
  deciding ??= decide(deps).then((reloading) => {
    if (!reloading) deciding = null;
    return reloading;
  });
  return deciding;
}

async function decide(deps: NewBuildDeps): Promise<boolean> {
  const { store } = deps;
  if (!store) return false;
  try {
    const last = Number(store.getItem(KEY) ?? 0) || 0;
    // A last reload "in the future" is a clock set back since: it does not count.
    const age = deps.now() - last;
    if (age >= 0 && age < AT_MOST_EVERY_MS) return false;
    // Busy is asked again after the server's answer: a form opened while it was on its way (a slow
    // link takes seconds) must not be closed under the thumb either (session 36's review).
    for (;;) {
      while (deps.busy()) await deps.wait(BUSY_CHECK_MS);
      if (!(await deps.reachable())) return false;
      if (!deps.busy()) break;
    }
    store.setItem(KEY, String(deps.now()));
  } catch {
    // Storage refused (private mode): no reload, for nothing could keep it from looping.
    return false;
  }
  deps.reload();
  return true;
}

/** For tests: forgets a decision this page made. */
export function resetNewBuildReload(): void {
  deciding = null;
}

/** Listens for Vite's `vite:preloadError` (main.tsx): a code file besides the room screens' (Home.tsx). */
export function installNewBuildReload(): void {
  window.addEventListener('vite:preloadError', () => void reloadForNewBuild());
}
