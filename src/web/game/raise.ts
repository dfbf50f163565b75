import { formatCents } from '../../engine';
import type { RaiseLimits } from '../../engine/types';
import { raise as t } from '../texts';

/**
 * Why a total bet of `amount` cents would be refused, in the spec's words, or null when it is fine.
 * Uses only the engine's raiseLimits and mirrors the order of the engine's own checks (betting.ts):
 * more than bet + stack; exactly bet + stack (an all-in, always accepted); above the effective max;
 * below the minimum raise. The server checks again; this only saves a round trip.
 */
export function raiseProblem(limits: RaiseLimits, amount: number | null): string | null {
  const own = limits.currentBet + limits.stack;
  if (amount === null) return t.errorInvalid;
  if (amount > own) return t.errorChips(formatCents(own));
  if (amount === own) return null;
  if (amount > limits.max) return t.errorEffective(formatCents(limits.max));
  if (amount < limits.min) return t.errorMin(formatCents(limits.minRaise), formatCents(limits.min));
  return null;
}

/** Whether any raise is possible: the minimum raise or the all-in. */
export function canRaise(limits: RaiseLimits | null): limits is RaiseLimits {
  return (
    limits !== null &&
    limits.max > limits.highestBet &&
    (raiseProblem(limits, limits.min) === null || raiseProblem(limits, limits.max) === null)
  );
}
