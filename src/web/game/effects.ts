import { useEffect, useRef } from 'react';

/**
 * A short buzz when it becomes this player's turn (where the phone supports it). Not before the page
 * has had a tap (a phone reloaded or opened again on its turn): Chromium refuses a vibration then and
 * logs a console error for it; the highlight is enough (the monkey audit, session 39).
 */
export function useTurnBuzz(myTurn: boolean): void {
  const was = useRef(false);
  useEffect(() => {
    if (
      myTurn &&
      !was.current &&
      typeof navigator !== 'undefined' &&
      typeof navigator.vibrate === 'function' &&
      navigator.userActivation?.hasBeenActive !== false
    ) {
      try {
        navigator.vibrate([120, 60, 120]);
      } catch {
        // Some browsers throw without a user gesture; the highlight is enough.
      }
    }
    was.current = myTurn;
  }, [myTurn]);
}

/**
 * Keeps the screen awake while `active` (Screen Wake Lock API where available). The lock is released
 * by the browser when the page is hidden, so it is requested again when the page is visible again.
 * One lock at most is kept: a grant that finds one still held (the page hidden and shown again before
 * the first request answered) or comes after the table went is released at once, so no lock outlives
 * the table (`effects.test.tsx`; until session 39 the first of two such grants was dropped unreleased).
 */
export function useWakeLock(active: boolean): void {
  useEffect(() => {
    if (!active || typeof navigator === 'undefined' || !('wakeLock' in navigator)) return;
    let lock: WakeLockSentinel | null = null;
    let cancelled = false;
    const held = () => lock !== null && !lock.released;
    const request = () => {
      if (document.visibilityState !== 'visible' || held()) return;
      navigator.wakeLock.request('screen').then(
        (l) => {
          if (cancelled || held()) void l.release().catch(() => {});
          else lock = l;
        },
        () => {},
      );
    };
    request();
    document.addEventListener('visibilitychange', request);
    return () => {
      cancelled = true;
      document.removeEventListener('visibilitychange', request);
      void lock?.release().catch(() => {});
    };
  }, [active]);
}
