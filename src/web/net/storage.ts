import type { SessionCredentials } from '../../shared/protocol';

/**
 * Local storage of the browser: the session credentials, the room this browser sits in, a leave still
 * to be sent, the game whose results the home screen offers and the analytics session. Every access is guarded because storage can be unavailable (private modes,
 * disabled cookies); the app then works for the tab's lifetime only.
 */
const KEYS = {
  credentials: 'chipless.credentials',
  ownCredentials: 'chipless.ownCredentials',
  roomCode: 'chipless.roomCode',
  owedLeave: 'chipless.owedLeave',
  lastResults: 'chipless.lastResults',
  analytics: 'chipless.analytics',
} as const;

function read(key: string): string | null {
  try {
    return globalThis.localStorage?.getItem(key) ?? null;
  } catch {
    return null;
  }
}

function write(key: string, value: string | null): void {
  try {
    if (value === null) globalThis.localStorage?.removeItem(key);
    else globalThis.localStorage?.setItem(key, value);
  } catch {
    // Storage full or blocked: nothing to do, the app keeps working in memory.
  }
}

function readJson<T>(key: string, valid: (v: unknown) => v is T): T | null {
  const text = read(key);
  if (!text) return null;
  try {
    const value: unknown = JSON.parse(text);
    return valid(value) ? value : null;
  } catch {
    return null;
  }
}

function isCredentials(v: unknown): v is SessionCredentials {
  return (
    typeof v === 'object' &&
    v !== null &&
    typeof (v as SessionCredentials).playerId === 'string' &&
    typeof (v as SessionCredentials).token === 'string' &&
    ((v as SessionCredentials).room === undefined || typeof (v as SessionCredentials).room === 'string')
  );
}

/**
 * The game whose results the home screen offers: a finished game left with "Back to Home", or one its
 * player left or was removed from while it was on (`departed`). Its room code, and since when (ms).
 */
export interface LastResults {
  code: string;
  at: number;
  /** Offered since its player left the game while it was on: it may go on for hours (use-room.ts). */
  departed?: true;
}

function isLastResults(v: unknown): v is LastResults {
  return (
    typeof v === 'object' &&
    v !== null &&
    typeof (v as LastResults).code === 'string' &&
    Number.isFinite((v as LastResults).at)
  );
}

export const storage = {
  credentials: (): SessionCredentials | null => readJson(KEYS.credentials, isCredentials),
  setCredentials: (creds: SessionCredentials | null): void =>
    write(KEYS.credentials, creds === null ? null : JSON.stringify(creds)),
  /**
   * The browser's own credentials, kept while it holds a seat moved to it by a link (room-scoped
   * credentials in `credentials`; client.ts claimSeat), to go back to once it is done with that room.
   */
  ownCredentials: (): SessionCredentials | null => readJson(KEYS.ownCredentials, isCredentials),
  setOwnCredentials: (creds: SessionCredentials | null): void =>
    write(KEYS.ownCredentials, creds === null ? null : JSON.stringify(creds)),
  roomCode: (): string | null => read(KEYS.roomCode),
  /** Whether a 'storage' event's key is the room code's (another tab entered or forgot a room). */
  isRoomCodeKey: (key: string | null): boolean => key === KEYS.roomCode,
  setRoomCode: (code: string | null): void => write(KEYS.roomCode, code),
  /** A room left while offline, whose leave is still to be sent (use-room.ts). */
  owedLeave: (): string | null => read(KEYS.owedLeave),
  setOwedLeave: (code: string | null): void => write(KEYS.owedLeave, code),
  /** The game whose results can be opened again from the home screen (use-room.ts lastResults). */
  lastResults: (): LastResults | null => readJson(KEYS.lastResults, isLastResults),
  setLastResults: (value: LastResults | null): void =>
    write(KEYS.lastResults, value === null ? null : JSON.stringify(value)),
  analytics: <T>(valid: (v: unknown) => v is T): T | null => readJson(KEYS.analytics, valid),
  setAnalytics: (value: unknown): void => write(KEYS.analytics, JSON.stringify(value)),
};
