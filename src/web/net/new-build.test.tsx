import { cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Modal } from '../components/Modal';
import {
  installNewBuildReload,
  type NewBuildDeps,
  pageBusy,
  reloadForNewBuild,
  resetNewBuildReload,
} from './new-build';

afterEach(resetNewBuildReload);

function deps(over: Partial<NewBuildDeps> = {}) {
  const stored = new Map<string, string>();
  const reload = vi.fn();
  const d: NewBuildDeps = {
    reachable: async () => true,
    busy: () => false,
    wait: async () => {},
    reload,
    now: () => 1_000_000,
    store: { getItem: (k) => stored.get(k) ?? null, setItem: (k, v) => void stored.set(k, v) },
    ...over,
  };
  return { d, reload, stored };
}

describe('a code file gone with a server upgrade: the page reloads into the new build', () => {
  it('reloads once when the server answers', async () => {
    const { d, reload } = deps();
    expect(await reloadForNewBuild(d)).toBe(true);
    expect(reload).toHaveBeenCalledTimes(1);
    // A second failure on the same page (another screen's file) joins it: no second reload.
    expect(await reloadForNewBuild(d)).toBe(true);
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it('not again within a minute of the last, across the reload (the tab remembers it)', async () => {
    let now = 1_000_000;
    const { d, reload } = deps({ now: () => now });
    await reloadForNewBuild(d);
    resetNewBuildReload(); // the page after the reload
    now += 59_000;
    expect(await reloadForNewBuild(d)).toBe(false);
    now += 2_000;
    expect(await reloadForNewBuild(d)).toBe(true);
    expect(reload).toHaveBeenCalledTimes(2);
  });

  it('a minute is 60 s to the millisecond; a failure in the same millisecond as the reload is within it', async () => {
    let now = 1_000_000;
    const { d, reload } = deps({ now: () => now });
    await reloadForNewBuild(d);
    resetNewBuildReload();
    expect(await reloadForNewBuild(d)).toBe(false);
    now += 59_999;
    expect(await reloadForNewBuild(d)).toBe(false);
    now += 1;
    expect(await reloadForNewBuild(d)).toBe(true);
    expect(reload).toHaveBeenCalledTimes(2);
  });

  it('a phone clock set back after the last reload does not keep it from reloading (clock audit, session 37)', async () => {
    let now = 1_000_000;
    const { d, reload } = deps({ now: () => now });
    await reloadForNewBuild(d);
    resetNewBuildReload();
    now -= 3_600_000; // the phone's clock corrected back an hour: the last reload is "in the future"
    expect(await reloadForNewBuild(d)).toBe(true);
    expect(reload).toHaveBeenCalledTimes(2);
  });

  it('not while the server cannot be reached: a phone offline keeps the app and its error screen', async () => {
    const { d, reload } = deps({ reachable: async () => false });
    expect(await reloadForNewBuild(d)).toBe(false);
    expect(reload).not.toHaveBeenCalled();
  });

  it('waits while a dialog is open or a field has focus (a form just opened), then reloads', async () => {
    let checks = 0;
    const waits: number[] = [];
    const { d, reload } = deps({
      busy: () => ++checks < 4,
      wait: async (ms) => {
        waits.push(ms);
      },
    });
    const again = deps({}).d;
    const first = reloadForNewBuild(d);
    // Another failure meanwhile (the lobby's file, after the create) waits for the same decision.
    const second = reloadForNewBuild(again);
    expect(await first).toBe(true);
    expect(await second).toBe(true);
    expect(checks).toBe(5); // busy three times, free, and free again once the server answered
    expect(waits).toEqual([250, 250, 250]);
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it('asks again once the server has answered: a form opened meanwhile keeps the reload waiting', async () => {
    // The form opens while the server's first answer is on its way, and is closed a moment later.
    let busy = false;
    let answers = 0;
    const { d, reload } = deps({
      busy: () => busy,
      reachable: async () => {
        answers++;
        if (answers === 1) busy = true;
        return true;
      },
      wait: async () => {
        expect(reload).not.toHaveBeenCalled();
        busy = false;
      },
    });
    expect(await reloadForNewBuild(d)).toBe(true);
    expect(answers).toBe(2);
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it('without storage (refused), never: nothing could keep it from reloading in a loop', async () => {
    const { d, reload } = deps({
      store: {
        getItem: () => {
          throw new Error('SecurityError');
        },
        setItem: () => {
          throw new Error('SecurityError');
        },
      },
    });
    expect(await reloadForNewBuild(d)).toBe(false);
    expect(await reloadForNewBuild({ ...d, store: null })).toBe(false);
    expect(reload).not.toHaveBeenCalled();
  });
});

describe("the page's listener (main.tsx)", () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it("a 'vite:preloadError' asks the page's own address, uncached, and does not reload when the server cannot be reached", async () => {
    const fetchMock = vi.fn(async () => {
      throw new TypeError('Failed to fetch');
    });
    vi.stubGlobal('fetch', fetchMock);
    installNewBuildReload();
    window.dispatchEvent(new Event('vite:preloadError'));
    await vi.waitFor(() =>
      expect(fetchMock).toHaveBeenCalledWith('/', { method: 'HEAD', cache: 'no-store' }),
    );
    // The decision is made (false: no reload) and forgotten; a later failure asks again.
    await vi.waitFor(async () => expect(await reloadForNewBuild()).toBe(false));
  });
});

describe("the page's busy: what a reload must not cut short", () => {
  afterEach(() => {
    cleanup();
    vi.restoreAllMocks();
    document.body.innerHTML = '';
  });

  /** A field (or other control) on the page, focused; `shown` says whether it has a box (happy-dom has no layout). */
  function focusOn(tag: string, shown: boolean): HTMLElement {
    const el = document.createElement(tag);
    if (tag === 'button') el.textContent = 'Copy';
    document.body.appendChild(el);
    el.focus();
    expect(document.activeElement).toBe(el);
    const rects = shown ? [new DOMRect(0, 0, 100, 20)] : [];
    vi.spyOn(el, 'getClientRects').mockReturnValue(rects as unknown as DOMRectList);
    return el;
  }

  it('nothing focused and no dialog: not busy', () => {
    expect(pageBusy()).toBe(false);
  });

  it.each(['input', 'select', 'textarea'])('a shown %s with focus: busy (someone is typing)', (tag) => {
    focusOn(tag, true);
    expect(pageBusy()).toBe(true);
  });

  it('a focused field that is not shown (its screen hidden by Suspense): not busy', () => {
    focusOn('input', false);
    expect(pageBusy()).toBe(false);
  });

  it('a focused button is no one typing: not busy', () => {
    focusOn('button', true);
    expect(pageBusy()).toBe(false);
  });

  it('a dialog open: busy, until it closes', () => {
    const root = document.createElement('div');
    root.id = 'root';
    document.body.appendChild(root);
    const { unmount } = render(
      <Modal title="Start a Game" onClose={() => {}}>
        form
      </Modal>,
      {
        container: root,
      },
    );
    (document.activeElement as HTMLElement | null)?.blur();
    expect(pageBusy()).toBe(true);
    unmount();
    expect(pageBusy()).toBe(false);
  });
});
