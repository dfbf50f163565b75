import { raiseError } from '../../engine';
import type { RaiseLimits } from '../../engine/types';

/** Whether any raise is possible: the minimum raise or the all-in. */
export function canRaise(limits: RaiseLimits | null): limits is RaiseLimits {
  return (
    limits !== null &&
    limits.max > limits.highestBet &&
    (raiseError(limits, limits.min) === null || raiseError(limits, limits.max) === null)
  );
}
