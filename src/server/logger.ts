/**
 * Structured JSON logs (pino). Tokens and secrets never reach a log line: nothing passes them in,
 * and the redaction below is a second guard for any object that carries one by mistake.
 */
import { type Logger, pino } from 'pino';

export type { Logger };

/** Paths blanked out in every log line. */
const REDACT = ['token', '*.token', 'auth', '*.auth', 'sessionSecret', '*.sessionSecret', 'headers.cookie'];

/** The server's logger at `level`, writing JSON lines to stdout (or to `destination`). */
export function createLogger(level: string, destination?: NodeJS.WritableStream): Logger {
  const options = { level, base: { service: 'chipless' }, redact: { paths: REDACT, censor: '[redacted]' } };
  return destination ? pino(options, destination) : pino(options);
}
