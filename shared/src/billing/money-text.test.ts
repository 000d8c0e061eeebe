/**
 * formatDecimal and plainDecimal work on the digits; each must write exactly what the BigInt path writes
 * (formatUnits(toUnits(s)), unitsToDecimal(toUnits(s))) for every numeric PostgreSQL prints.
 */
import t from 'tap';
import { formatDecimal, formatUnits, plainDecimal, toUnits, unitsToDecimal } from './money.ts';

let state = 0x9e3779b9;
const next = () => {
  state ^= state << 13;
  state ^= state >>> 17;
  state ^= state << 5;
  return state >>> 0;
};
const digits = (n: number, alphabet = '0123456789') => Array.from({ length: n }, () => alphabet[next() % alphabet.length]).join('');

/** Numeric text as PostgreSQL prints it: no leading zeros, any number of decimals up to 24 (trailing zeros kept). */
function numeric(): string {
  const nines = next() % 4 === 0; // runs of 9s carry through every digit
  const whole = String(BigInt(nines ? digits(1 + (next() % 6), '9') : digits(1 + (next() % 14))));
  const places = next() % 25;
  const frac = places === 0 ? '' : nines ? digits(places, '95') : digits(places);
  const text = frac ? `${whole}.${frac}` : whole;
  return next() % 3 === 0 ? `-${text}` : text;
}

const cases = ['0', '-0', '0.005', '-0.005', '0.004999', '-0.004', '9.995', '-9.995', '99.99500', '0.000000000000000000000001', '1.0500000000', '12', '-12.5'];

t.test('formatDecimal equals formatUnits(toUnits(s)) at 0, 2 and 6 places', async (t) => {
  let differ = 0;
  const all = [...cases, ...Array.from({ length: 20_000 }, numeric)];
  for (const s of all) {
    for (const places of [0, 2, 6]) {
      if (formatDecimal(s, places) !== formatUnits(toUnits(s), places)) {
        differ++;
        if (differ < 5) t.fail(`${s} at ${places}: ${formatDecimal(s, places)} vs ${formatUnits(toUnits(s), places)}`);
      }
    }
  }
  t.equal(differ, 0, `${all.length * 3} roundings compared`);
  t.equal(formatDecimal('9.995'), '10.00');
  t.equal(formatDecimal('-0.004'), '0.00', 'no negative zero');
});

t.test('plainDecimal equals unitsToDecimal(toUnits(s))', async (t) => {
  const all = [...cases, ...Array.from({ length: 5_000 }, numeric)];
  t.same(
    all.filter((s) => plainDecimal(s) !== unitsToDecimal(toUnits(s))),
    [],
  );
});
