import { afterEach, describe, expect, it, vi } from 'vitest';
import { type NewBuildDeps, reloadForNewBuild, resetNewBuildReload } from './new-build';

afterEach(resetNewBuildReload);

function deps(over: Partial<NewBuildDeps> = {}) {
  const stored = new Map<string, string>();
  const reload = vi.fn();
  const d: NewBuildDeps = {
    reachable: async () => true,
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
    // A second failure on the same page (another screen's file) asks nothing more.
    expect(await reloadForNewBuild(d)).toBe(false);
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

  it('not while the server cannot be reached: a phone offline keeps the app and its error screen', async () => {
    const { d, reload } = deps({ reachable: async () => false });
    expect(await reloadForNewBuild(d)).toBe(false);
    expect(reload).not.toHaveBeenCalled();
  });

  it('without storage (refused), still once for the page', async () => {
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
    expect(await reloadForNewBuild(d)).toBe(true);
    expect(await reloadForNewBuild(d)).toBe(false);
    expect(reload).toHaveBeenCalledTimes(1);
  });
});
