/**
 * The rules engine: the only place poker rules live. Pure functions over integer cents,
 * no I/O, no clock (time comes in as `now`), no randomness, never mutating their input.
 * Module map and rule readings: README.md beside this file.
 */

export { callAmount, facingOf, highestBet, raiseError, raiseLimits } from './betting';
export { applyCommand } from './commands';
export { stakeOnLeaving } from './departure';
export { betweenHands } from './hand';
export { ACT_FOR_AFTER_MS, HOST_AWAY_MS } from './host';
export { MSG, STAGE_NAMES } from './messages';
export { CONVERSION_ERRORS, dollarsToCents, formatCents, parseCurrency } from './money';
export { potTotal } from './pots';
export {
  createRoom,
  entryError,
  isInRoom,
  leftDuringGame,
  MAX_STARTING_CHIPS,
  MIN_STARTING_CHIPS,
  nameKey,
  seatOrder,
  tableActivity,
} from './room';
export { holdsSeat } from './seat-link';
export { dealtIn, inHand } from './seats';
export { settle } from './settlement';
export * from './types';
export { takenBack } from './undo';
