/**
 * How the room service logs commands that fail because the store is down: Redis not connected or not
 * answering, or the disk full. During such an outage every command of every table fails the same way,
 * and each logged a stack at error level: 512 lines of ~1.5 KB in 30 s of a Redis restart with five
 * tables, and nothing said when it was over (session 36's operability audit). Now the first failure is
 * logged (without the stack: the message says it all), then one line every 10 s with how many more
 * failed, and one when a command goes through again. Any other failure is logged whole, as before.
 */
import type { Logger } from './logger';

/** Errors that say the store is unavailable, by name (from the room thread they arrive as plain Errors). */
const OUTAGE_ERRORS = new Set(['RedisNotReadyError', 'RedisDeadlineError', 'DataDirFullError']);

/** Whether `err` says the store is unavailable rather than that something is wrong with this command. */
export function isOutage(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  return OUTAGE_ERRORS.has(err.name) || (err as NodeJS.ErrnoException).code === 'ENOSPC';
}

/** How often a summary of the failures goes out while the outage lasts. */
export const OUTAGE_SUMMARY_EVERY_MS = 10_000;

export class OutageLog {
  private outage: {
    since: number;
    reason: string;
    failed: number;
    unreported: number;
    reportedAt: number;
  } | null = null;

  constructor(
    private readonly logger: Logger,
    private readonly now: () => number,
  ) {}

  /** A command failed with `err`; `context` names it (room, actor, type). */
  failed(err: unknown, context: Record<string, unknown>): void {
    if (!isOutage(err)) {
      this.logger.error({ err, ...context }, 'command failed');
      return;
    }
    const t = this.now();
    const reason = (err as Error).name;
    if (this.outage === null) {
      this.outage = { since: t, reason, failed: 1, unreported: 0, reportedAt: t };
      this.logger.error(
        { reason, message: (err as Error).message, ...context },
        'command failed: the store is unavailable (further failures are counted, every 10 s)',
      );
      return;
    }
    this.outage.failed++;
    this.outage.unreported++;
    if (t - this.outage.reportedAt >= OUTAGE_SUMMARY_EVERY_MS) {
      this.logger.error(
        { reason, failed: this.outage.unreported, sinceMs: t - this.outage.since },
        'commands failing: the store is unavailable',
      );
      this.outage.unreported = 0;
      this.outage.reportedAt = t;
    }
  }

  /** A command went through: the end of an outage, if there was one. */
  succeeded(): void {
    if (this.outage === null) return;
    const { since, reason, failed } = this.outage;
    this.outage = null;
    this.logger.warn({ reason, failed, lastedMs: this.now() - since }, 'the store is available again');
  }
}
