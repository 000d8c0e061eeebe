/**
 * Exact money arithmetic on decimal strings for the few sums the api does after PostgreSQL (folding series into
 * 'Others', discounts, forecasts): BigInt in units of 10^-24. Stored amounts have 12 decimals (numeric(24,12)) and
 * conversion rates 10, so a converted amount has 22: the scale keeps every converted sum exact until display.
 * No float ever holds an amount; `toNumber` exists only for chart plotting.
 */
import { normaliseDecimal, scaledInteger } from '../decimal.ts';

export type Units = bigint;
/** Decimal places of a unit: 12 of the money columns + 10 of a rate, with room to spare. */
export const UNITS_SCALE = 24;
const MONEY_SCALE = UNITS_SCALE;
const ONE = 10n ** BigInt(MONEY_SCALE);

/** Parses a decimal string (as PostgreSQL prints numeric) into units; throws on anything else or on excess decimals. */
// How PostgreSQL prints a numeric: digits, at most UNITS_SCALE decimals, no exponent. Read straight into units (a
// 12-month chart reads ~26,000 cells; the general parse was ~15 % of computing one).
const PG_NUMERIC_RE = new RegExp(`^-?\\d+(?:\\.\\d{0,${MONEY_SCALE}})?$`);

export function toUnits(s: string): Units {
  if (PG_NUMERIC_RE.test(s)) return scaledInteger(s, MONEY_SCALE);
  const n = normaliseDecimal(s);
  if (n === null) throw new Error(`not a decimal: '${s}'`);
  const neg = n.startsWith('-');
  const [int, frac = ''] = n.replace('-', '').split('.');
  if (frac.length > MONEY_SCALE) throw new Error(`more than ${MONEY_SCALE} decimals: '${s}'`);
  const v = BigInt(int) * ONE + BigInt(frac.padEnd(MONEY_SCALE, '0'));
  return neg ? -v : v;
}

/** Divides rounding half away from zero. */
export function divRound(a: bigint, b: bigint): bigint {
  if (b === 0n) throw new Error('division by zero');
  const neg = a < 0n !== b < 0n;
  const [x, y] = [a < 0n ? -a : a, b < 0n ? -b : b];
  const q = (x * 2n + y) / (y * 2n);
  return neg ? -q : q;
}

/** Units rounded half away from zero to `places` decimals, written as a plain decimal string ("-3.07"). */
export function formatUnits(v: Units, places = 2): string {
  const step = 10n ** BigInt(MONEY_SCALE - places);
  const r = divRound(v, step);
  const neg = r < 0n;
  const a = neg ? -r : r;
  const p = 10n ** BigInt(places);
  const int = (a / p).toString();
  const s = places > 0 ? `${int}.${(a % p).toString().padStart(places, '0')}` : int;
  return neg ? `-${s}` : s;
}

/** `digits` (0-9 only) plus one, as digits: "129" → "130", "99" → "100". */
function incrementDigits(digits: string): string {
  let k = digits.length - 1;
  while (k >= 0 && digits.charCodeAt(k) === 57 /* 9 */) k--;
  if (k < 0) return `1${'0'.repeat(digits.length)}`;
  return digits.slice(0, k) + String.fromCharCode(digits.charCodeAt(k) + 1) + '0'.repeat(digits.length - k - 1);
}

/**
 * A decimal string rounded half away from zero to `places` decimals: what `formatUnits(toUnits(s), places)` writes,
 * done on the digits (an export writes three amounts a row; BigInt made them most of a 2,400-row export's time, issue
 * 19). Text PostgreSQL would not print takes the general path.
 */
export function formatDecimal(s: string, places = 2): string {
  if (!PG_NUMERIC_RE.test(s)) return formatUnits(toUnits(s), places);
  const neg = s.charCodeAt(0) === 45; /* - */
  const body = neg ? s.slice(1) : s;
  const point = body.indexOf('.');
  const int = point < 0 ? body : body.slice(0, point);
  const frac = point < 0 ? '' : body.slice(point + 1);
  let digits = int + frac.slice(0, places).padEnd(places, '0');
  if (frac.length > places && frac.charCodeAt(places) >= 53 /* 5 */) digits = incrementDigits(digits);
  const cut = digits.length - places;
  const whole = digits.slice(0, cut).replace(/^0+(?=\d)/, '') || '0';
  const text = places > 0 ? `${whole}.${digits.slice(cut)}` : whole;
  return neg && /[1-9]/.test(digits) ? `-${text}` : text;
}

/** Full-precision string (trailing zeros dropped), for values that are not money rounded for display. */
export function unitsToDecimal(v: Units): string {
  return normaliseDecimal(formatUnits(v, MONEY_SCALE)) ?? '0';
}

/** `unitsToDecimal(toUnits(s))` without BigInt: PostgreSQL's numeric text with its trailing zeros dropped (a rate). */
export function plainDecimal(s: string): string {
  return PG_NUMERIC_RE.test(s) ? (normaliseDecimal(s) ?? '0') : unitsToDecimal(toUnits(s));
}

export const sumUnits = (vs: Iterable<Units>): Units => {
  let s = 0n;
  for (const v of vs) s += v;
  return s;
};

/** v × percent / 100, exact to the unit scale (rounded half away from zero at 10^-24). */
export function percentOf(v: Units, percent: string): Units {
  const p = toUnits(percent);
  return divRound(v * p, 100n * ONE);
}

/** For plotting only. */
export const toNumber = (v: Units): number => Number(formatUnits(v, 6));
