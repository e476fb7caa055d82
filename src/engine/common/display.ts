// Numbers for people: residuals, distances and costs as a person reads them (console, halting
// report, job summary, PR comment, AGENTS.md). The evidence's JSON keeps the exact Decimal strings;
// every place that shows one to a person goes through here, so they read the same everywhere.
import { Decimal, parseDecimal } from './decimal.js';

/** Significant digits shown of a value below 1 ("0.005571"); at or above 1, as many decimals as leave four digits ("12.35", "1235"). */
const DIGITS = 4;
/** From this size on, a value is shown in exponent form ("1.235e+41"): 40 digits overflow any table cell. */
const LARGE = new Decimal('1e9');

/**
 * A Decimal for the eye: integers as they are up to 999,999,999, larger values in exponent form, others to about four significant digits, never in
 * exponent form for everyday sizes; `empty` for a missing value. Text that is not a Decimal is shown as it is.
 */
export function num(value: string | null | undefined, empty = 'n/a'): string {
  if (value === null || value === undefined) return empty;
  const d = parseDecimal(value);
  if (d === null) return value;
  if (d.abs().gte(LARGE)) return d.toSignificantDigits(DIGITS, Decimal.ROUND_HALF_UP).toExponential();
  if (d.isInteger()) return d.toFixed();
  const whole = d.abs().gte(1) ? d.abs().trunc().toFixed().length : 0;
  const r = whole ? d.toDecimalPlaces(Math.max(0, DIGITS - whole), Decimal.ROUND_HALF_UP) : d.toSignificantDigits(DIGITS, Decimal.ROUND_HALF_UP);
  // toFixed() never switches to exponent form: a tiny value (below 1e-6) reads better in it.
  return r.abs().lt('1e-6') && !r.isZero() ? r.toExponential() : r.toFixed();
}

/** US dollars to the cent ("$0.34"); a cost above zero that rounds to nothing is "<$0.01". */
export function usd(value: string | null | undefined, empty = 'n/a'): string {
  if (value === null || value === undefined) return empty;
  const d = parseDecimal(value);
  if (d === null) return value;
  const cents = d.toFixed(2, Decimal.ROUND_HALF_UP);
  return d.gt(0) && new Decimal(cents).isZero() ? '<$0.01' : `${d.isNeg() ? '-' : ''}$${cents.replace(/^-/, '')}`;
}

/** A run's cost use as the report's JSON writes it ("<spent> / <limit>", the limit a Decimal or "unlimited"), in dollars. */
export function costUse(text: string): string {
  return text
    .split(' / ')
    .map((p) => (parseDecimal(p) === null ? p : usd(p)))
    .join(' / ');
}

/** A count for a narrow cell: as it is below 10,000, then in thousands or millions ("12.3k", "1.23M"). */
export function count(value: number | null | undefined, empty = 'n/a'): string {
  if (value === null || value === undefined) return empty;
  if (Math.abs(value) < 10_000) return String(value);
  const k = (value / 1_000).toFixed(1);
  return Math.abs(Number(k)) < 1_000 ? `${k}k` : `${(value / 1_000_000).toFixed(2)}M`;
}
