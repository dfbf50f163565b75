/** Session minutes of a page left open for more than a day (a file of its own: the page listeners of other suites' modules stay registered). */
import { afterEach, describe, expect, it, vi } from 'vitest';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.resetModules();
  localStorage.clear();
});

async function start(now: () => number) {
  const fetchMock = vi.fn(async () => new Response(null, { status: 204 }));
  const beacon = vi.fn((_url: string, _body: Blob) => true);
  vi.stubGlobal('fetch', fetchMock);
  Object.defineProperty(navigator, 'sendBeacon', { value: beacon, configurable: true });
  const { startAnalytics } = await import('./analytics');
  startAnalytics(now);
  return { fetchMock, beacon };
}

describe('analytics: long sessions', () => {
  it('a page open longer than a day reports at most the 1440 minutes the server accepts in one beacon (regression)', async () => {
    let t = 1_000_000;
    const { beacon } = await start(() => t);
    t += 25 * 60 * 60_000; // 1500 minutes, visible the whole time
    window.dispatchEvent(new Event('pagehide'));
    expect(beacon).toHaveBeenCalledTimes(1);
    expect(JSON.parse(await beacon.mock.calls[0]![1].text()).minutes).toBe(24 * 60);
    // Nothing more to report afterwards: the whole minutes so far count as reported.
    t += 30_000;
    window.dispatchEvent(new Event('pagehide'));
    expect(beacon).toHaveBeenCalledTimes(1);
  });
});
