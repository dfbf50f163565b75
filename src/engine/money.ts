/**
 * Money: integer cents in, currency text out. The conversions throw the spec's errors
 * (SPEC.md section 8, "Conversion errors") so callers can show them as they are.
 */

/**
 * The spec's conversion errors, verbatim. They live here rather than in messages.ts, which formats
 * amounts with this module's formatCents: one module importing the other is enough.
 */
export const CONVERSION_ERRORS = {
  empty: 'Dollar amount cannot be null, undefined, or empty',
  negative: 'Dollar amount cannot be negative',
  invalid: (value: string) => `Invalid dollar amount: ${value}`,
  notString: 'Input must be a non-empty string',
  emptyAfterCleaning: 'Input cannot be empty after cleaning',
  format: 'Invalid currency format. Use format like "10.50" or "10"',
} as const;

/**
 * Converts a dollar amount (number or numeric string) to whole cents, rounding to the nearest cent
 * (half up). A string is read as the decimal text it is, exactly. Throws on null/undefined/empty,
 * non-decimal or non-finite input, negative input, or more cents than Number.MAX_SAFE_INTEGER.
 */
export function dollarsToCents(value: unknown): number {
  if (value === null || value === undefined || (typeof value === 'string' && value.trim() === '')) {
    throw new Error(CONVERSION_ERRORS.empty);
  }
  const cents =
    typeof value === 'number'
      ? numberToCents(value)
      : typeof value === 'string'
        ? decimalTextToCents(value.trim())
        : Number.NaN;
  if (cents === NEGATIVE) throw new Error(CONVERSION_ERRORS.negative);
  if (!Number.isSafeInteger(cents)) throw new Error(CONVERSION_ERRORS.invalid(String(value)));
  return Object.is(cents, -0) ? 0 : cents;
}

const NEGATIVE = -1;

/** Cents of a finite number of dollars (NaN when not finite, NEGATIVE below 0). */
function numberToCents(n: number): number {
  if (!Number.isFinite(n)) return Number.NaN;
  if (n < 0) return NEGATIVE;
  // Round via the decimal string so 0.29 * 100 = 28.999... still gives 29. A number JavaScript
  // writes with an exponent (below 1e-6 or from 1e21) has no such string to shift: tiny ones are 0
  // cents, and an amount too large to count in whole cents exactly is no amount.
  const text = String(n);
  return text.includes('e') ? Math.round(n * 100) : Math.round(Number(`${text}e2`));
}

/** Plain decimal text: optional sign, digits with an optional point, an optional exponent. */
const DECIMAL_TEXT = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/;

/**
 * Cents of dollar text, read as the decimal it writes (never through a binary double, so
 * "1.0049999999999999999" is 100 cents and every digit of a 16-digit amount counts), rounded half up.
 * Only decimal notation: "0x10", "0b11", "Infinity" and the like are NaN. NEGATIVE below 0
 * ("-0" and "-0.00" are 0).
 */
function decimalTextToCents(text: string): number {
  const m = DECIMAL_TEXT.exec(text);
  if (m === null) return Number.NaN;
  const [, sign = '', whole = '', frac = '', exp = '0'] = m;
  if (whole.length + frac.length === 0) return Number.NaN;
  let digits = whole + frac;
  // The value in cents is 0.<digits> x 10^point.
  let point = whole.length + Number(exp) + 2;
  const lead = digits.length - digits.replace(/^0+/, '').length;
  digits = digits.slice(lead);
  point -= lead;
  if (digits.length === 0) return 0;
  if (sign === '-') return NEGATIVE;
  if (point > 16) return Number.NaN; // at least 10^16 cents: past exact integers
  if (point < 0) return 0; // below a tenth of a cent
  const cents = Number(digits.slice(0, point).padEnd(point, '0') || '0');
  return (digits[point] ?? '0') >= '5' ? cents + 1 : cents;
}

const CURRENCY_FORMAT = /^\d+(\.\d{1,2})?$/;

/**
 * Parses currency text typed by a person ("$10.50", "10", " 1 000.5 ") into cents.
 * Dollar signs and spaces are removed; what is left must be digits with up to two decimals.
 */
export function parseCurrency(text: unknown): number {
  if (typeof text !== 'string' || text.length === 0) throw new Error(CONVERSION_ERRORS.notString);
  const cleaned = text.replace(/[$\s]/g, '');
  if (cleaned.length === 0) throw new Error(CONVERSION_ERRORS.emptyAfterCleaning);
  if (!CURRENCY_FORMAT.test(cleaned)) throw new Error(CONVERSION_ERRORS.format);
  const [whole = '0', frac = ''] = cleaned.split('.');
  const cents = Number(whole) * 100 + Number(frac.padEnd(2, '0'));
  // More cents than can be counted exactly would come back rounded: no amount (as dollarsToCents).
  if (!Number.isSafeInteger(cents)) throw new Error(CONVERSION_ERRORS.invalid(text));
  return cents;
}

/** Formats cents as dollars with two decimals and thousands separators: 1250 -> "$12.50", null -> "$0.00". */
export function formatCents(cents: number | null | undefined): string {
  const value = cents ?? 0;
  const sign = value < 0 ? '-' : '';
  const abs = Math.abs(Math.round(value));
  const dollars = Math.floor(abs / 100)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const rest = (abs % 100).toString().padStart(2, '0');
  return `${sign}$${dollars}.${rest}`;
}
