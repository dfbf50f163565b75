import { afterEach, describe, expect, it, vi } from 'vitest';

let stop: () => void = () => {};

afterEach(() => {
  stop();
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
  stop = startAnalytics(now);
  return { fetchMock, beacon };
}

describe('analytics', () => {
  it('records a visit of a new session, then reports only the minutes not reported yet', async () => {
    let t = 1_000_000;
    const { fetchMock, beacon } = await start(() => t);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/analytics/visit');
    const visit = JSON.parse(String(init.body));
    expect(visit.newSession).toBe(true);

    t += 5 * 60_000 + 30_000;
    window.dispatchEvent(new Event('pagehide'));
    expect(beacon).toHaveBeenCalledTimes(1);
    const [beaconUrl, blob] = beacon.mock.calls[0]!;
    expect(beaconUrl).toBe('/api/analytics/session');
    expect(JSON.parse(await blob.text())).toEqual({ sessionId: visit.sessionId, minutes: 5 });

    t += 20_000; // still minute 5: nothing new to report
    window.dispatchEvent(new Event('pagehide'));
    expect(beacon).toHaveBeenCalledTimes(1);
    t += 60_000;
    window.dispatchEvent(new Event('pagehide'));
    expect(JSON.parse(await beacon.mock.calls[1]![1].text())).toEqual({
      sessionId: visit.sessionId,
      minutes: 1,
    });
  });

  it('continues the session on a visit within 30 minutes', async () => {
    localStorage.setItem(
      'chipless.analytics',
      JSON.stringify({ id: 'abc', start: 0, lastSeen: 1_000_000, reportedMinutes: 3 }),
    );
    const { fetchMock } = await start(() => 1_000_000 + 10 * 60_000);
    const init = (fetchMock.mock.calls[0] as unknown as [string, RequestInit])[1];
    expect(JSON.parse(String(init.body))).toEqual({ sessionId: 'abc', newSession: false });
  });

  it('within 30 minutes is up to 30 minutes to the millisecond, on a page load and on a tab brought back', async () => {
    const stored = (lastSeen: number) =>
      localStorage.setItem(
        'chipless.analytics',
        JSON.stringify({ id: 'abc', start: 0, lastSeen, reportedMinutes: 0 }),
      );
    const visits = (fetchMock: ReturnType<typeof vi.fn>) =>
      fetchMock.mock.calls.map(
        (c) => JSON.parse(String((c as unknown as [string, RequestInit])[1].body)).newSession,
      );
    let t = 1_000_000 + 30 * 60_000;
    stored(1_000_000);
    const { fetchMock } = await start(() => t);
    expect(visits(fetchMock)).toEqual([false]);
    const shown = (state: 'hidden' | 'visible') => {
      Object.defineProperty(document, 'visibilityState', { value: state, configurable: true });
      document.dispatchEvent(new Event('visibilitychange'));
    };
    stored(t);
    t += 30 * 60_000;
    shown('visible');
    expect(visits(fetchMock)).toEqual([false]);
    stored(t);
    t += 30 * 60_000 + 1;
    shown('visible');
    expect(visits(fetchMock)).toEqual([false, true]);
    stop();
    stored(0);
    t = 30 * 60_000 + 1;
    const again = await start(() => t);
    expect(visits(again.fetchMock)).toEqual([true]);
  });

  it('a stored session missing a field is a new session', async () => {
    localStorage.setItem('chipless.analytics', JSON.stringify({ id: 'abc', start: 0, reportedMinutes: 3 }));
    const { fetchMock } = await start(() => 1_000_000);
    const init = (fetchMock.mock.calls[0] as unknown as [string, RequestInit])[1];
    expect(JSON.parse(String(init.body)).newSession).toBe(true);
    expect(init.keepalive).toBe(true);
  });

  it('counts whole minutes: a minute short of five is four', async () => {
    let t = 1_000_000;
    const { beacon } = await start(() => t);
    t += 5 * 60_000 - 1;
    window.dispatchEvent(new Event('pagehide'));
    expect(JSON.parse(await beacon.mock.calls[0]![1].text()).minutes).toBe(4);
  });

  it('runs once per page: a second start records no second visit; started again after its stop, it records one', async () => {
    const { fetchMock } = await start(() => 1_000_000);
    const { startAnalytics } = await import('./analytics');
    startAnalytics(() => 1_000_000)();
    expect(fetchMock).toHaveBeenCalledTimes(1);
    stop();
    stop = startAnalytics(() => 1_000_000);
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

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

  it('a tab brought back after a night asleep is a new visit and session; its minutes start there (clock audit, session 37)', async () => {
    let t = 1_000_000;
    const { fetchMock, beacon } = await start(() => t);
    const first = JSON.parse(String((fetchMock.mock.calls[0] as unknown as [string, RequestInit])[1].body));
    const hidden = (state: 'hidden' | 'visible') => {
      Object.defineProperty(document, 'visibilityState', { value: state, configurable: true });
      document.dispatchEvent(new Event('visibilitychange'));
    };
    t += 180 * 60_000; // three hours of play, then the phone is locked
    hidden('hidden');
    expect(JSON.parse(await beacon.mock.calls[0]![1].text())).toEqual({
      sessionId: first.sessionId,
      minutes: 180,
    });
    t += 20 * 60 * 60_000; // unlocked the next day
    hidden('visible');
    expect(fetchMock).toHaveBeenCalledTimes(2);
    const second = JSON.parse(String((fetchMock.mock.calls[1] as unknown as [string, RequestInit])[1].body));
    expect(second.newSession).toBe(true);
    expect(second.sessionId).not.toBe(first.sessionId);
    t += 5 * 60_000;
    hidden('hidden');
    expect(JSON.parse(await beacon.mock.calls[1]![1].text())).toEqual({
      sessionId: second.sessionId,
      minutes: 5,
    });
    // Back within 30 minutes: the same session, no new visit.
    t += 10 * 60_000;
    hidden('visible');
    expect(fetchMock).toHaveBeenCalledTimes(2);
    Object.defineProperty(document, 'visibilityState', { value: 'visible', configurable: true });
  });
});
