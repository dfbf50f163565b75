import { cleanup, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useTurnBuzz, useWakeLock } from './effects';

/**
 * The phone's two effects at the table: a buzz when the turn comes to this player, and the screen kept
 * awake while the table is shown (Screen Wake Lock). happy-dom has neither API: each test puts in the
 * browser's, recording what the hooks ask of it.
 */

let visibility: DocumentVisibilityState;

beforeEach(() => {
  visibility = 'visible';
  Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => visibility });
});

afterEach(() => {
  cleanup();
  Reflect.deleteProperty(navigator, 'vibrate');
  Reflect.deleteProperty(navigator, 'wakeLock');
  Reflect.deleteProperty(document, 'visibilityState');
});

function setVisibility(state: DocumentVisibilityState): void {
  visibility = state;
  document.dispatchEvent(new Event('visibilitychange'));
}

/** Lets pending promise callbacks run. */
async function settle(): Promise<void> {
  for (let i = 0; i < 5; i++) await Promise.resolve();
}

describe('useTurnBuzz', () => {
  let buzzes: VibratePattern[];

  beforeEach(() => {
    buzzes = [];
    Object.defineProperty(navigator, 'vibrate', {
      configurable: true,
      value: (pattern: VibratePattern) => {
        buzzes.push(pattern);
        return true;
      },
    });
  });

  it('buzzes once as the turn comes to this player, not again while it stays theirs', () => {
    const { rerender } = renderHook(({ myTurn }) => useTurnBuzz(myTurn), {
      initialProps: { myTurn: false },
    });
    expect(buzzes).toEqual([]);
    rerender({ myTurn: true });
    expect(buzzes).toEqual([[120, 60, 120]]);
    // Other players' snapshots re-render the table during the turn: no second buzz.
    rerender({ myTurn: true });
    rerender({ myTurn: true });
    expect(buzzes).toHaveLength(1);
  });

  it('buzzes again each time the turn comes back, never as it leaves', () => {
    const { rerender } = renderHook(({ myTurn }) => useTurnBuzz(myTurn), {
      initialProps: { myTurn: false },
    });
    rerender({ myTurn: true });
    rerender({ myTurn: false });
    expect(buzzes).toHaveLength(1);
    rerender({ myTurn: true });
    expect(buzzes).toHaveLength(2);
  });

  it('buzzes on a page opened during the turn where the browser does not say whether it was tapped', () => {
    expect('userActivation' in navigator).toBe(false);
    renderHook(() => useTurnBuzz(true));
    expect(buzzes).toEqual([[120, 60, 120]]);
  });

  // The monkey audit (session 39): a phone reloaded (or opened again) on its turn called vibrate before
  // any tap; Chromium refuses it and logs a console error ("Blocked call to navigator.vibrate because
  // user hasn't tapped on the frame or any embedded frame yet").
  it.each([
    [false, 0],
    [true, 1],
  ])(
    'a page whose userActivation.hasBeenActive is %s buzzes %i time(s) as its turn comes',
    (active, times) => {
      Object.defineProperty(navigator, 'userActivation', {
        configurable: true,
        value: { hasBeenActive: active, isActive: false },
      });
      try {
        const { rerender } = renderHook(({ myTurn }) => useTurnBuzz(myTurn), {
          initialProps: { myTurn: true },
        });
        rerender({ myTurn: false });
        rerender({ myTurn: true });
        expect(buzzes).toHaveLength(2 * times);
      } finally {
        Reflect.deleteProperty(navigator, 'userActivation');
      }
    },
  );

  it('a browser that throws (no user gesture yet) or has no vibration changes nothing', () => {
    let calls = 0;
    Object.defineProperty(navigator, 'vibrate', {
      configurable: true,
      value: () => {
        calls++;
        throw new Error('NotAllowedError');
      },
    });
    const { rerender } = renderHook(({ myTurn }) => useTurnBuzz(myTurn), {
      initialProps: { myTurn: true },
    });
    expect(calls).toBe(1);
    rerender({ myTurn: false });
    rerender({ myTurn: true });
    expect(calls).toBe(2);
    Reflect.deleteProperty(navigator, 'vibrate');
    expect('vibrate' in navigator).toBe(false);
    rerender({ myTurn: false });
    expect(() => rerender({ myTurn: true })).not.toThrow();
  });
});

/** A wake lock the test controls: each request answers when the test says, with a sentinel of its own. */
class FakeSentinel extends EventTarget {
  released = false;
  readonly type = 'screen';
  onrelease = null;
  releases = 0;
  release(): Promise<void> {
    this.releases++;
    this.released = true;
    return Promise.resolve();
  }
}

interface PendingRequest {
  type: string;
  grant: () => FakeSentinel;
  refuse: () => void;
}

function installWakeLock(): PendingRequest[] {
  const requests: PendingRequest[] = [];
  Object.defineProperty(navigator, 'wakeLock', {
    configurable: true,
    value: {
      request: vi.fn(
        (type: string) =>
          new Promise<FakeSentinel>((resolve, reject) => {
            requests.push({
              type,
              grant: () => {
                const sentinel = new FakeSentinel();
                resolve(sentinel);
                return sentinel;
              },
              refuse: () => reject(new DOMException('Battery saver', 'NotAllowedError')),
            });
          }),
      ),
    },
  });
  return requests;
}

describe('useWakeLock', () => {
  it('asks for the screen lock while shown and releases it when the table goes', async () => {
    const requests = installWakeLock();
    const { unmount } = renderHook(() => useWakeLock(true));
    expect(requests.map((r) => r.type)).toEqual(['screen']);
    const lock = (requests[0] as PendingRequest).grant();
    await settle();
    expect(lock.releases).toBe(0);
    unmount();
    expect(lock.releases).toBe(1);
  });

  it('asks nothing while inactive, and nothing while the page is hidden', () => {
    const requests = installWakeLock();
    renderHook(() => useWakeLock(false));
    expect(requests).toHaveLength(0);
    visibility = 'hidden';
    renderHook(() => useWakeLock(true));
    expect(requests).toHaveLength(0);
  });

  it('asks again when the page comes back (the browser released the lock as it was hidden)', async () => {
    const requests = installWakeLock();
    const { unmount } = renderHook(() => useWakeLock(true));
    const first = (requests[0] as PendingRequest).grant();
    await settle();
    // The phone locked: the browser releases the lock itself.
    void first.release();
    setVisibility('hidden');
    expect(requests).toHaveLength(1);
    setVisibility('visible');
    expect(requests).toHaveLength(2);
    const second = (requests[1] as PendingRequest).grant();
    await settle();
    unmount();
    expect(second.releases).toBe(1);
  });

  it('shown again with the lock still held: no second request', async () => {
    const requests = installWakeLock();
    const { unmount } = renderHook(() => useWakeLock(true));
    const lock = (requests[0] as PendingRequest).grant();
    await settle();
    // A browser that fires visibilitychange without having released the lock (a quick app switch).
    setVisibility('visible');
    expect(requests).toHaveLength(1);
    unmount();
    expect(lock.releases).toBe(1);
  });

  it('a lock granted after the table went is released at once', async () => {
    const requests = installWakeLock();
    const { unmount } = renderHook(() => useWakeLock(true));
    unmount();
    const late = (requests[0] as PendingRequest).grant();
    await settle();
    expect(late.releases).toBe(1);
  });

  it('a refused lock (battery saver) changes nothing and leaves no unhandled rejection', async () => {
    const requests = installWakeLock();
    const { unmount } = renderHook(() => useWakeLock(true));
    (requests[0] as PendingRequest).refuse();
    await settle();
    setVisibility('hidden');
    setVisibility('visible');
    expect(requests).toHaveLength(2);
    expect(() => unmount()).not.toThrow();
  });

  it('two requests in flight (hidden and back before the first answered): no lock is left held', async () => {
    const requests = installWakeLock();
    const { unmount } = renderHook(() => useWakeLock(true));
    setVisibility('hidden');
    setVisibility('visible');
    expect(requests).toHaveLength(2);
    const first = (requests[0] as PendingRequest).grant();
    const second = (requests[1] as PendingRequest).grant();
    await settle();
    unmount();
    // Whichever the hook kept, both are released once the table is gone: a lock held past it would keep
    // the phone's screen on at the home screen until the page was next hidden.
    expect(first.released && second.released).toBe(true);
  });

  it('a browser without the API changes nothing', () => {
    expect('wakeLock' in navigator).toBe(false);
    expect(() => renderHook(() => useWakeLock(true)).unmount()).not.toThrow();
  });
});
