/**
 * normaliseDecimal (shared/src/decimal.ts) with a fast path for how exports write amounts: an optional '-', digits,
 * and a fraction with trailing zeros ('0.00000080000', '2.000000000000000'). Such text is normalised by one scan of
 * its characters; anything else (a sign '+', an exponent, spaces, a leading or trailing point) goes to
 * normaliseDecimal. Same answer for every input (plain-decimal.test.ts compares the two); the regular expressions,
 * captures and replaces were a large share of the checks of a FOCUS row, which carries four numbers.
 */
import { normaliseDecimal } from '@cc/shared/decimal.ts';

const ZERO = 48;
const NINE = 57;
const MINUS = 45;
const POINT = 46;

/** `raw` as plain decimal text (no exponent, no '+', no leading or trailing zeros, no '-0'), or null when no number. */
export function plainDecimal(raw: string): string | null {
  const n = raw.length;
  let i = raw.charCodeAt(0) === MINUS ? 1 : 0;
  const negative = i === 1;
  const intStart = i;
  // the integer digits, the first of them not a leading zero
  let firstSignificant = -1;
  for (; i < n; i++) {
    const c = raw.charCodeAt(i);
    if (c < ZERO || c > NINE) break;
    if (firstSignificant < 0 && c !== ZERO) firstSignificant = i;
  }
  const intEnd = i;
  if (intEnd === intStart) return normaliseDecimal(raw);
  // the fraction's digits up to the last one that is not zero
  let fracEnd = i;
  if (i < n) {
    if (raw.charCodeAt(i) !== POINT || i + 1 === n) return normaliseDecimal(raw);
    for (i++; i < n; i++) {
      const c = raw.charCodeAt(i);
      if (c < ZERO || c > NINE) return normaliseDecimal(raw);
      if (c !== ZERO) fracEnd = i + 1;
    }
  }
  const int = firstSignificant < 0 ? '0' : raw.slice(firstSignificant, intEnd);
  const hasFraction = fracEnd > intEnd;
  if (int === '0' && !hasFraction) return '0';
  // already plain: nothing to cut
  if ((firstSignificant === intStart || (firstSignificant < 0 && intEnd - intStart === 1)) && fracEnd === n) return raw;
  const text = hasFraction ? `${int}.${raw.slice(intEnd + 1, fracEnd)}` : int;
  return negative ? `-${text}` : text;
}
