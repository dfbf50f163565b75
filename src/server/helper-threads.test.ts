/** lowerHelperThreads: every thread but the main one (and those spared) to the nice value asked, never raised back. */
import { describe, expect, it } from 'vitest';
import { lowerHelperThreads } from './helper-threads';
import { threadNices as nices } from './test-helpers';

describe('lowerHelperThreads', () => {
  it('lowers every thread but the main one, and never raises one', () => {
    // Vitest runs this file in a process of its own (a fork), on its main thread.
    const before = nices();
    const main = before.get(process.pid)!;
    expect([0, 20, -1, 2.5, Number.NaN].map((n) => lowerHelperThreads(n))).toEqual([[], [], [], [], []]);
    expect(nices()).toEqual(before);

    // A thread named in `except` (the room thread, in main.ts) is left as it is.
    const spared = [...before.keys()].find((tid) => tid !== process.pid && before.get(tid) === main)!;
    const target = Math.max(main + 2, 12);
    const firstLowered = lowerHelperThreads(target, [spared]);
    expect(firstLowered).not.toContain(spared);
    expect(nices().get(spared)).toBe(main);
    const lowered = [...firstLowered, ...lowerHelperThreads(target)];
    const after = nices();
    expect(after.get(process.pid)).toBe(main);
    const helpers = [...after.keys()].filter((tid) => tid !== process.pid);
    expect(helpers.length).toBeGreaterThanOrEqual(4);
    for (const tid of helpers) expect({ tid, nice: after.get(tid) }).toEqual({ tid, nice: target });
    expect(lowered.sort()).toEqual(helpers.filter((tid) => (before.get(tid) ?? 0) < target).sort());

    // A lower value changes nothing: a thread's priority is only ever lowered.
    expect(lowerHelperThreads(target - 1)).toEqual([]);
    expect(nices()).toEqual(after);
  });
});
