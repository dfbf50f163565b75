/**
 * The rules engine: the only place poker rules live. Pure functions over integer cents,
 * no I/O, no clock (time comes in as `now`), no randomness, never mutating their input.
 */

export { dollarsToCents, formatCents, parseCurrency } from './money';
export { settle } from './settlement';
export { applyCommand, createRoom, raiseLimits } from './stub';
export * from './types';
