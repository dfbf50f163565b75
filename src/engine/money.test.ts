import { describe, expect, it } from 'vitest';
import { dollarsToCents, formatCents, parseCurrency } from './money';

describe('dollarsToCents', () => {
  it.each([
    [12.5, 1250],
    ['12.5', 1250],
    [' 3 ', 300],
    [0, 0],
    [-0, 0],
    [0.29, 29],
    [0.01, 1],
    [1.005, 101],
    [19.999, 2000],
    [10_000, 1_000_000],
    // Written with an exponent (regression: these were NaN, which no check caught).
    [1e-7, 0],
    ['0.0000001', 0],
    [5e-324, 0],
    [4e-3, 0],
    ['1e2', 10_000],
    [90_071_992_547_409, 9_007_199_254_740_900],
  ])('%j dollars is %d cents', (input, cents) => {
    expect(dollarsToCents(input)).toBe(cents);
  });

  it.each([
    [null, 'Dollar amount cannot be null, undefined, or empty'],
    [undefined, 'Dollar amount cannot be null, undefined, or empty'],
    ['', 'Dollar amount cannot be null, undefined, or empty'],
    ['   ', 'Dollar amount cannot be null, undefined, or empty'],
    ['abc', 'Invalid dollar amount: abc'],
    [Number.NaN, 'Invalid dollar amount: NaN'],
    [Number.POSITIVE_INFINITY, 'Invalid dollar amount: Infinity'],
    [{}, 'Invalid dollar amount: [object Object]'],
    [-0.01, 'Dollar amount cannot be negative'],
    ['-5', 'Dollar amount cannot be negative'],
    // More cents than can be counted exactly.
    [1e21, 'Invalid dollar amount: 1e+21'],
    [1e14, 'Invalid dollar amount: 100000000000000'],
  ])('%j throws %j', (input, message) => {
    expect(() => dollarsToCents(input)).toThrow(new Error(message));
  });
});

describe('parseCurrency', () => {
  it.each([
    ['$10.50', 1050],
    ['10', 1000],
    ['10.5', 1050],
    [' 1 000.05 ', 100005],
    ['$0.01', 1],
    ['0', 0],
  ])('%j is %d cents', (input, cents) => {
    expect(parseCurrency(input)).toBe(cents);
  });

  it.each([
    [12, 'Input must be a non-empty string'],
    [null, 'Input must be a non-empty string'],
    ['', 'Input must be a non-empty string'],
    ['$ ', 'Input cannot be empty after cleaning'],
    ['10.505', 'Invalid currency format. Use format like "10.50" or "10"'],
    ['.5', 'Invalid currency format. Use format like "10.50" or "10"'],
    ['1,000', 'Invalid currency format. Use format like "10.50" or "10"'],
    ['-5', 'Invalid currency format. Use format like "10.50" or "10"'],
    ['abc', 'Invalid currency format. Use format like "10.50" or "10"'],
  ])('%j throws %j', (input, message) => {
    expect(() => parseCurrency(input)).toThrow(new Error(message));
  });
});

describe('formatCents', () => {
  it.each([
    [1250, '$12.50'],
    [5, '$0.05'],
    [0, '$0.00'],
    [null, '$0.00'],
    [undefined, '$0.00'],
    [123_456_789, '$1,234,567.89'],
    [-550, '-$5.50'],
  ])('%j is %j', (cents, text) => {
    expect(formatCents(cents)).toBe(text);
  });
});
