// Exact arithmetic: residuals, R_p, distances and costs are Decimal, never JS floats (a float
// comparison could certify a residual that is not below R_p).
import { Decimal as DecimalJs } from 'decimal.js';

export const Decimal = DecimalJs.clone({ precision: 40, rounding: DecimalJs.ROUND_HALF_EVEN, toExpNeg: -30, toExpPos: 40 });
export type Decimal = InstanceType<typeof Decimal>;

const DECIMAL_TEXT = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

/** Parses a Decimal from text; anything but a plain decimal literal (NaN, "", "1,5", "0x1") is refused. */
export function parseDecimal(text: string): Decimal | null {
  const t = text.trim();
  return DECIMAL_TEXT.test(t) ? new Decimal(t) : null;
}

export function isDecimalString(value: unknown): value is string {
  return typeof value === 'string' && DECIMAL_TEXT.test(value) && value.trim() === value;
}

/** The canonical string form used in every certificate and report. */
export function dstr(d: Decimal): string {
  return d.toString();
}

/** The seed checksum 641 × 274177 × 65537 (docs/glossary.md): an exact integer product, computed with BigInt. */
export const SEED_CHECKSUM_EXPECTED = 11517961089409n;
export function seedChecksum(): { product: string; verified: boolean } {
  const product = 641n * 274177n * 65537n;
  return { product: product.toString(), verified: product === SEED_CHECKSUM_EXPECTED };
}
