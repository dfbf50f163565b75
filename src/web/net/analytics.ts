import { MAX_SESSION_MINUTES_PER_REPORT } from '../../shared/limits';
import type { SessionEndRequest, VisitRequest } from '../../shared/protocol';
import { newId } from './ids';
import { storage } from './storage';

/**
 * Page-visit and session analytics. The session id and start time live in local storage (SPEC
 * section 3). A visit within 30 minutes of the last one continues the session. When the page is
 * hidden, the whole minutes not reported yet are sent with sendBeacon, so the server (which adds
 * them up) never counts a minute twice. Failures are ignored: analytics never block a player.
 */
interface AnalyticsSession {
  id: string;
  start: number;
  lastSeen: number;
  reportedMinutes: number;
}

const SESSION_GAP_MS = 30 * 60_000;

function isSession(v: unknown): v is AnalyticsSession {
  const s = v as AnalyticsSession;
  return (
    typeof v === 'object' &&
    v !== null &&
    typeof s.id === 'string' &&
    typeof s.start === 'number' &&
    typeof s.lastSeen === 'number' &&
    typeof s.reportedMinutes === 'number'
  );
}

let started = false;

/**
 * Records this page load and reports session minutes when the page is hidden. Runs once per page;
 * returns what stops it (its listeners removed; for tests, which start it again with new fakes).
 */
export function startAnalytics(now: () => number = Date.now): () => void {
  if (started || typeof window === 'undefined') return () => {};
  started = true;
  /** A visit: the stored session continued when it was seen within 30 minutes, else a new one. */
  const visit = () => {
    const t = now();
    const stored = storage.analytics(isSession);
    const newSession = !stored || t - stored.lastSeen > SESSION_GAP_MS;
    const session: AnalyticsSession = newSession
      ? { id: newId(), start: t, lastSeen: t, reportedMinutes: 0 }
      : { ...stored, lastSeen: t };
    storage.setAnalytics(session);
    const body: VisitRequest = { sessionId: session.id, newSession };
    fetch('/api/analytics/visit', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
      keepalive: true,
    }).catch(() => {});
    return session;
  };
  const session = visit();

  const report = () => {
    const current = storage.analytics(isSession) ?? session;
    const at = now();
    const minutes = Math.floor((at - current.start) / 60_000);
    const delta = minutes - current.reportedMinutes;
    const next = { ...current, lastSeen: at, reportedMinutes: Math.max(minutes, current.reportedMinutes) };
    storage.setAnalytics(next);
    if (delta <= 0 || typeof navigator.sendBeacon !== 'function') return;
    const body: SessionEndRequest = {
      sessionId: current.id,
      // More than one beacon may carry would be refused, and all of it lost.
      minutes: Math.min(delta, MAX_SESSION_MINUTES_PER_REPORT),
    };
    try {
      navigator.sendBeacon(
        '/api/analytics/session',
        new Blob([JSON.stringify(body)], { type: 'application/json' }),
      );
    } catch {
      // Ignored on purpose.
    }
  };
  const onVisibility = () => {
    if (document.visibilityState === 'hidden') {
      report();
      return;
    }
    // A tab brought back after more than 30 minutes away (a phone unlocked the next day, the page
    // never reloaded) is a new visit and a new session: counted from the page load, one session held
    // the night and the sleep (3 h of play and 20 h asleep reported as 1,385 minutes; clock audit,
    // session 37). Back within 30 minutes, the session goes on, as a page load's would.
    const stored = storage.analytics(isSession);
    if (!stored || now() - stored.lastSeen > SESSION_GAP_MS) visit();
  };
  window.addEventListener('pagehide', report);
  document.addEventListener('visibilitychange', onVisibility);
  return () => {
    window.removeEventListener('pagehide', report);
    document.removeEventListener('visibilitychange', onVisibility);
    started = false;
  };
}
