import fc from 'fast-check';
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
    // Text is read as the decimal it writes, rounded half up to the cent (SPEC §5 Money conversion).
    ['10.005', 1_001],
    ['0.285', 29],
    ['1e3', 100_000],
    ['0.5e-2', 1],
    ['+5', 500],
    ['5.', 500],
    ['.5', 50],
    ['-0', 0],
    ['-0.00', 0],
    [' 5', 500],
    // Regression: these went through a binary double and came out a cent off.
    ['1.0049999999999999999', 100],
    ['90071992547409.91', 9_007_199_254_740_991],
    ['0.0000000000000000000000001e25', 100],
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
    ['90071992547409.92', 'Invalid dollar amount: 90071992547409.92'],
    ['1e400', 'Invalid dollar amount: 1e400'],
    ['0.1+0.2', 'Invalid dollar amount: 0.1+0.2'],
    ['Infinity', 'Invalid dollar amount: Infinity'],
    ['1_000', 'Invalid dollar amount: 1_000'],
    ['-0.001', 'Dollar amount cannot be negative'],
    // Regression: JavaScript's Number() reads these as hexadecimal, binary and octal dollars.
    ['0x10', 'Invalid dollar amount: 0x10'],
    ['0b11', 'Invalid dollar amount: 0b11'],
    ['0o7', 'Invalid dollar amount: 0o7'],
  ])('%j throws %j', (input, message) => {
    expect(() => dollarsToCents(input)).toThrow(new Error(message));
  });
});

describe('dollarsToCents of text: every exact cent, rounded half up (property)', () => {
  it('"D.CC" is D*100+CC cents and a further digit rounds half up, up to Number.MAX_SAFE_INTEGER', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: BigInt(Number.MAX_SAFE_INTEGER) }),
        fc.stringMatching(/^\d{0,6}$/),
        fc.integer({ min: 0, max: 3 }),
        (c, more, zeros) => {
          const text = `${'0'.repeat(zeros)}${c / 100n}.${String(c % 100n).padStart(2, '0')}${more}`;
          const want = c + ((more[0] ?? '0') >= '5' ? 1n : 0n);
          if (want > BigInt(Number.MAX_SAFE_INTEGER))
            expect(() => dollarsToCents(text)).toThrow(`Invalid dollar amount: ${text}`);
          else expect(dollarsToCents(text)).toBe(Number(want));
        },
      ),
      { numRuns: 300 },
    );
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
    ['90071992547409.91', 9_007_199_254_740_991],
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
    // Regression: more cents than can be counted exactly came back rounded (…999 read as …1000).
    ['90071992547409.99', 'Invalid dollar amount: 90071992547409.99'],
    ['99999999999999999', 'Invalid dollar amount: 99999999999999999'],
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

describe('dollarsToCents: inputs a mutant survived (mutation testing)', () => {
  it.each([
    [Number.NEGATIVE_INFINITY, 'Invalid dollar amount: -Infinity'],
    ['.', 'Invalid dollar amount: .'],
    ['-', 'Invalid dollar amount: -'],
    ['1e999999999', 'Invalid dollar amount: 1e999999999'],
    [-5, 'Dollar amount cannot be negative'],
    [-0.5, 'Dollar amount cannot be negative'],
  ])('%s is refused: %s', (value, message) => {
    expect(() => dollarsToCents(value)).toThrow(new Error(message));
  });

  it.each([
    ['0.00055', 0],
    ['0.0049', 0],
    ['0.005', 1],
  ])('%s is %i cents (below a tenth of a cent is 0)', (value, cents) => {
    expect(dollarsToCents(value)).toBe(cents);
  });
});
