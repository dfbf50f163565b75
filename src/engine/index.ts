/**
 * The rules engine: the only place poker rules live. Pure functions over integer cents,
 * no I/O, no clock (time comes in as `now`), no randomness, never mutating their input.
 */

export { applyCommand } from './commands';
export { dollarsToCents, formatCents, parseCurrency } from './money';
export { createRoom } from './room';
export { settle } from './settlement';
export { raiseLimits } from './stub';
export * from './types';
