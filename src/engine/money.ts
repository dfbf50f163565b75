/**
 * Money: integer cents in, currency text out. The conversions throw the spec's errors
 * (SPEC.md section 8, "Conversion errors") so callers can show them as they are.
 */

/**
 * Converts a dollar amount (number or numeric string) to whole cents, rounding to the nearest cent.
 * Throws on null/undefined/empty, non-finite or negative input.
 */
export function dollarsToCents(value: unknown): number {
  if (value === null || value === undefined || (typeof value === 'string' && value.trim() === '')) {
    throw new Error('Dollar amount cannot be null, undefined, or empty');
  }
  const n = typeof value === 'number' ? value : typeof value === 'string' ? Number(value.trim()) : Number.NaN;
  if (!Number.isFinite(n)) throw new Error(`Invalid dollar amount: ${String(value)}`);
  if (n < 0) throw new Error('Dollar amount cannot be negative');
  // Round via the decimal string so 0.29 * 100 = 28.999... still gives 29. A number JavaScript
  // writes with an exponent (below 1e-6 or from 1e21) has no such string to shift: tiny ones are 0
  // cents, and an amount too large to count in whole cents exactly is no amount.
  const text = String(n);
  const cents = text.includes('e') ? Math.round(n * 100) : Math.round(Number(`${text}e2`));
  if (!Number.isSafeInteger(cents)) throw new Error(`Invalid dollar amount: ${String(value)}`);
  return Object.is(cents, -0) ? 0 : cents;
}

const CURRENCY_FORMAT = /^\d+(\.\d{1,2})?$/;

/**
 * Parses currency text typed by a person ("$10.50", "10", " 1 000.5 ") into cents.
 * Dollar signs and spaces are removed; what is left must be digits with up to two decimals.
 */
export function parseCurrency(text: unknown): number {
  if (typeof text !== 'string' || text.length === 0) throw new Error('Input must be a non-empty string');
  const cleaned = text.replace(/[$\s]/g, '');
  if (cleaned.length === 0) throw new Error('Input cannot be empty after cleaning');
  if (!CURRENCY_FORMAT.test(cleaned))
    throw new Error('Invalid currency format. Use format like "10.50" or "10"');
  const [whole = '0', frac = ''] = cleaned.split('.');
  return Number(whole) * 100 + Number(frac.padEnd(2, '0'));
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
