/**
 * Decimal strings for money. These helpers check and normalise the text that sources hand us, so a value is either
 * stored exactly or rejected — never rounded on the way in. The only arithmetic here is exact: sums of checked values
 * as integers of 10^-12 units (`toUnits12` / `fromUnits12`, the ingest's rollups); every other sum happens in
 * PostgreSQL `numeric`.
 */

/** Decimal places the money columns keep (numeric(24,12)); a value with more would be silently rounded. */
export const MONEY_SCALE = 12;

const DECIMAL_RE = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/;

/**
 * Returns `raw` as a plain decimal string (no exponent, no '+'), or null when it is not a number.
 * Exponent notation ('1.5E-7', as some exports write small values) is expanded by moving the point
 * in the digit string, so no float is involved.
 */
// Already plain: no sign but a leading '-', no leading or trailing zeros, no exponent, no '-0'. Most values are.
const PLAIN_RE = /^(?:0|-?[1-9]\d*)(?:\.\d*[1-9])?$|^-0\.\d*[1-9]$/;

export function normaliseDecimal(raw: string): string | null {
  if (PLAIN_RE.test(raw)) return raw;
  const m = DECIMAL_RE.exec(raw.trim());
  if (!m) return null;
  const [, sign, intPart = '', fracPart = '', expPart] = m;
  if (intPart === '' && fracPart === '') return null;
  let digits = intPart + fracPart;
  let point = intPart.length;
  if (expPart !== undefined) {
    const exp = Number(expPart);
    if (!Number.isSafeInteger(exp) || Math.abs(exp) > 1000) return null;
    point += exp;
  }
  if (point < 0) {
    digits = '0'.repeat(-point) + digits;
    point = 0;
  }
  if (point > digits.length) digits += '0'.repeat(point - digits.length);
  const int = digits.slice(0, point).replace(/^0+(?=\d)/, '') || '0';
  const frac = digits.slice(point).replace(/0+$/, '');
  const abs = frac ? `${int}.${frac}` : int;
  return sign === '-' && /[1-9]/.test(abs) ? `-${abs}` : abs;
}

/** Number of decimal places of a normalised decimal string. */
export function decimalPlaces(normalised: string): number {
  const i = normalised.indexOf('.');
  return i < 0 ? 0 : normalised.length - i - 1;
}

/**
 * Plain decimal text (digits, an optional '-' and at most `scale` decimals; no exponent) as an integer of 10^-scale
 * units: exact. The one parse behind the ingest's sums (scale 12) and the api's money (billing/money.ts, scale 24).
 */
export function scaledInteger(plain: string, scale: number): bigint {
  const i = plain.indexOf('.');
  if (i < 0) return BigInt(plain + '0'.repeat(scale));
  const frac = plain.slice(i + 1);
  return BigInt(plain.slice(0, i) + frac + '0'.repeat(scale - frac.length));
}

/** A checked money value (normalised, at most MONEY_SCALE decimals) as an integer of 10^-12 units: exact. */
export const toUnits12 = (normalised: string): bigint => scaledInteger(normalised, MONEY_SCALE);

/** 10^-12 units back to decimal text with MONEY_SCALE places, as PostgreSQL prints a numeric(24,12) sum. */
export function fromUnits12(units: bigint): string {
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(MONEY_SCALE + 1, '0');
  return `${negative ? '-' : ''}${digits.slice(0, -MONEY_SCALE)}.${digits.slice(-MONEY_SCALE)}`;
}
