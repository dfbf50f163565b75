/**
 * The spec's analytics (SPEC section 3), kept as counters in the store:
 *
 * - daily_analytics/{date}/{games_started|players_joined|hands_completed|rebuys_processed|games_ended}
 *   bumped from the engine events of HOST commands only (the spec: "bumped only when the caller is the host"):
 *   gameStarted -> games_started, playerApproved -> players_joined, rebuy -> rebuys_processed,
 *   gameEnded -> games_ended, handStarted -> hands_completed.
 * - all_time_stats/total_hands_dealt: +1 per handStarted of a host command (startGame deals hand 1,
 *   newHand the next ones). We count hands when they are DEALT, not when they are won: a hand ends
 *   on a player's fold as often as on the host's declaration, and the spec bumps counters only for
 *   host commands. hands_completed uses the same signal (the spec's original bumped both on New Hand).
 * - daily_analytics/{date}/page_visits, all_time_stats/total_page_visits.
 * - daily_analytics/{date}/sessions/{count|totalMinutes}, all_time_stats/sessions/{count|totalMinutes};
 *   averageMinutes = totalMinutes / count, computed on read.
 *
 * - An `undone` New Hand or rebuy (the host's undo) takes its +1 back, on the day of the undo.
 *
 * Dates are UTC (YYYY-MM-DD), taken from the server's clock when the counter is written: the day of a
 * command's commit, of a visit's beacon, and of a session-minutes beacon (so minutes reported after
 * midnight UTC count on the new day, while the session's count stays on the day it began).
 * Every failure is logged and swallowed: analytics never block a player.
 */
import type { GameEvent } from '../engine';
import type { Logger } from './logger';
import type { RoomStore } from './store/room-store';

/** Counter key of the all-time hands-dealt total shown on the home screen. */
export const TOTAL_HANDS_DEALT = 'all_time_stats/total_hands_dealt';
export const TOTAL_PAGE_VISITS = 'all_time_stats/total_page_visits';
const ALL_TIME_SESSIONS = 'all_time_stats/sessions';

/** The UTC day of `now`, as used in counter keys. */
export function dayKey(now: number): string {
  return new Date(now).toISOString().slice(0, 10);
}

/** Daily counter key, e.g. 'daily_analytics/2026-11-21/games_started'. */
export function dailyKey(now: number, counter: string): string {
  return `daily_analytics/${dayKey(now)}/${counter}`;
}

/** Counter increments for the events of one committed command. Only host commands count. */
export function countersForEvents(events: GameEvent[], byHost: boolean, now: number): Record<string, number> {
  const out: Record<string, number> = {};
  if (!byHost) return out;
  const bump = (key: string, by = 1) => {
    out[key] = (out[key] ?? 0) + by;
  };
  for (const event of events) {
    switch (event.type) {
      case 'gameStarted':
        bump(dailyKey(now, 'games_started'));
        break;
      case 'playerApproved':
        bump(dailyKey(now, 'players_joined'));
        break;
      case 'handStarted':
        bump(dailyKey(now, 'hands_completed'));
        bump(TOTAL_HANDS_DEALT);
        break;
      case 'rebuy':
        bump(dailyKey(now, 'rebuys_processed'));
        break;
      case 'gameEnded':
        bump(dailyKey(now, 'games_ended'));
        break;
      case 'undone':
        // The host took back a New Hand or a rebuy: it was never dealt or bought (the host deals again,
        // and that counts). An undone end of the game (a last pot's award) stays counted in games_ended.
        if (event.first.type === 'handStarted') {
          bump(dailyKey(now, 'hands_completed'), -1);
          bump(TOTAL_HANDS_DEALT, -1);
        } else if (event.first.type === 'rebuy') bump(dailyKey(now, 'rebuys_processed'), -1);
        break;
      case 'playerJoined':
      case 'playerRemoved':
      case 'playerLeft':
      case 'settingsUpdated':
      case 'blindPosted':
      case 'playerActed':
      case 'betReturned':
      case 'stageChanged':
      case 'showdown':
      case 'potAwarded':
      case 'handCompleted':
      case 'roomDeleted':
      case 'hostChanged':
      case 'seatsArranged':
      case 'sitOutChanged':
      case 'seatLinkMade':
      case 'seatMoved':
      case 'seatLinkVoid':
        break;
      default: {
        const unknown: never = event;
        void unknown;
      }
    }
  }
  return out;
}

/** Session statistics as the spec names them. */
export interface SessionStats {
  count: number;
  totalMinutes: number;
  averageMinutes: number;
}

/** Records and reads analytics counters. */
export interface Analytics {
  /** Counts the events of a committed command (fire and forget). */
  recordEvents(events: GameEvent[], byHost: boolean): void;
  /** A page visit; `newSession` when the browser started a new session. */
  recordVisit(newSession: boolean): Promise<void>;
  /** A finished session of `minutes` whole minutes. */
  recordSessionEnd(minutes: number): Promise<void>;
  /** The all-time hands dealt. */
  totalHandsDealt(): Promise<number>;
  /** Session stats of a day (YYYY-MM-DD) or, without one, of all time. */
  sessionStats(day?: string): Promise<SessionStats>;
}

/** Analytics over the store's counters. */
export function createAnalytics(
  store: Pick<RoomStore, 'increment' | 'readCounters'>,
  logger: Logger,
  now: () => number,
): Analytics {
  const add = async (counters: Record<string, number>) => {
    if (Object.keys(counters).length === 0) return;
    try {
      await store.increment(counters);
    } catch (err) {
      logger.warn({ err, counters: Object.keys(counters) }, 'analytics increment failed');
    }
  };

  return {
    recordEvents(events, byHost) {
      void add(countersForEvents(events, byHost, now()));
    },
    recordVisit(newSession) {
      const t = now();
      const counters: Record<string, number> = { [dailyKey(t, 'page_visits')]: 1, [TOTAL_PAGE_VISITS]: 1 };
      if (newSession) {
        counters[dailyKey(t, 'sessions/count')] = 1;
        counters[`${ALL_TIME_SESSIONS}/count`] = 1;
      }
      return add(counters);
    },
    recordSessionEnd(minutes) {
      const t = now();
      return add({
        [dailyKey(t, 'sessions/totalMinutes')]: minutes,
        [`${ALL_TIME_SESSIONS}/totalMinutes`]: minutes,
      });
    },
    async totalHandsDealt() {
      return (await store.readCounters([TOTAL_HANDS_DEALT]))[TOTAL_HANDS_DEALT] ?? 0;
    },
    async sessionStats(day) {
      const base = day === undefined ? ALL_TIME_SESSIONS : `daily_analytics/${day}/sessions`;
      const values = await store.readCounters([`${base}/count`, `${base}/totalMinutes`]);
      const count = values[`${base}/count`] ?? 0;
      const totalMinutes = values[`${base}/totalMinutes`] ?? 0;
      return { count, totalMinutes, averageMinutes: count === 0 ? 0 : totalMinutes / count };
    },
  };
}
