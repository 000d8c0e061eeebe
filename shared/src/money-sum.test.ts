import t from 'tap';
import { MoneySum, MoneyValue } from './money-sum.ts';
import { fromUnits12, toUnits12 } from './decimal.ts';

// A deterministic generator (no Math.random: a failure must reproduce).
let state = 0x2545f491;
const next = () => {
  state ^= state << 13;
  state ^= state >>> 17;
  state ^= state << 5;
  return state >>> 0;
};
const digits = (n: number) => Array.from({ length: n }, () => String(next() % 10)).join('');

/** Normalised decimal text as validateRow leaves it: up to 12 integer and 12 decimal digits, no trailing zeros. */
function value(maxWhole: number): string {
  const whole = digits(1 + (next() % maxWhole)).replace(/^0+(?=\d)/, '');
  const frac = digits(next() % 13).replace(/0+$/, '');
  const text = frac ? `${whole}.${frac}` : whole;
  return next() % 3 === 0 && text !== '0' ? `-${text}` : text;
}

t.test('sums equal BigInt sums of the same values, small and at the 12-digit limit', async (t) => {
  for (const maxWhole of [1, 4, 12]) {
    const sum = new MoneySum();
    const v = new MoneyValue();
    let expected = 0n;
    for (let i = 0; i < 20_000; i++) {
      const text = value(maxWhole);
      sum.add(v.read(text));
      expected += toUnits12(text);
    }
    t.equal(sum.toString(), fromUnits12(expected), `values of up to ${maxWhole} integer digits`);
  }
});

t.test('a sum past 2^53 whole units stays exact', async (t) => {
  const sum = new MoneySum();
  const v = new MoneyValue();
  let expected = 0n;
  for (let i = 0; i < 20_000; i++) {
    sum.add(v.read('999999999999.999999999999'));
    expected += toUnits12('999999999999.999999999999');
  }
  t.ok(expected / 1_000_000_000_000n > 2n ** 53n, 'the whole units are past what a double holds exactly');
  t.equal(sum.toString(), fromUnits12(expected));
  // and sums of sums (label pairs are summed from label sets)
  const twice = new MoneySum().addSum(sum).addSum(sum);
  t.equal(twice.toString(), fromUnits12(2n * expected));
});

t.test('sums of sums, units read back, negative fractions carried', async (t) => {
  const parts = Array.from({ length: 50 }, () => new MoneySum());
  const v = new MoneyValue();
  let expected = 0n;
  for (let i = 0; i < 5_000; i++) {
    const text = value(12);
    parts[i % parts.length].add(v.read(text));
    expected += toUnits12(text);
  }
  const total = new MoneySum();
  for (const p of parts) total.addSum(p);
  t.equal(total.toString(), fromUnits12(expected));
  const units = -123456789012345678901234n;
  t.equal(new MoneySum().add(v.readUnits(units)).units(), units, 'a difference of three values, read as units');
  t.equal(new MoneySum().add(v.read('-0.5')).add(v.read('0.25')).toString(), '-0.250000000000');
  t.ok(new MoneySum().isZero());
});
