/**
 * How many events a room keeps in its log. A module of its own: the web app's first page reads it
 * (src/shared/log-delta.ts merges logs), and importing it from room.ts put room.ts, and the messages
 * it imports, on that page (vite.config.ts).
 */
export const LOG_LIMIT = 50;
