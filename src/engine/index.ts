/**
 * The rules engine: the only place poker rules live. Pure functions over integer cents,
 * no I/O, no clock (time comes in as `now`), no randomness, never mutating their input.
 * Module map and rule readings: README.md beside this file.
 */

export { raiseLimits } from './betting';
export { applyCommand } from './commands';
export { dollarsToCents, formatCents, parseCurrency } from './money';
export { createRoom } from './room';
export { settle } from './settlement';
export * from './types';
