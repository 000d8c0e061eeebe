/**
 * Decimal strings for money. Nothing here does arithmetic: sums happen in PostgreSQL `numeric`.
 * These helpers only check and normalise the text that sources hand us, so a value is either
 * stored exactly or rejected — never rounded on the way in.
 */

/** Decimal places the money columns keep (numeric(24,12)); a value with more would be silently rounded. */
export const MONEY_SCALE = 12;

const DECIMAL_RE = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/;

/**
 * Returns `raw` as a plain decimal string (no exponent, no '+'), or null when it is not a number.
 * Exponent notation ('1.5E-7', as some exports write small values) is expanded by moving the point
 * in the digit string, so no float is involved.
 */
export function normaliseDecimal(raw: string): string | null {
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
