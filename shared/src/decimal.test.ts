import t from 'tap';
import { decimalPlaces, fromUnits12, normaliseDecimal, toUnits12 } from './decimal.ts';

t.test('normaliseDecimal keeps values exact and rejects non-numbers', async (t) => {
  const cases: [string, string | null][] = [
    ['0.00000080000', '0.0000008'],
    ['1.5E-7', '0.00000015'],
    ['-1.2e-2', '-0.012'],
    ['+12.3400', '12.34'],
    ['-0.000', '0'],
    ['.5', '0.5'],
    ['1e3', '1000'],
    ['7.0000000000001', '7.0000000000001'],
    ['abc', null],
    ['', null],
    ['.', null],
    ['1e', null],
    ['1,5', null],
    // plain already: returned as is (the fast path), and the near misses it must leave to the full parse
    ['0', '0'],
    ['-12.5', '-12.5'],
    ['-0.5', '-0.5'],
    ['35.811493', '35.811493'],
    ['-0', '0'],
    ['12.50', '12.5'],
    ['007', '7'],
    [' 7', '7'],
    ['-', null],
    ['1.', '1'],
  ];
  for (const [raw, want] of cases) t.equal(normaliseDecimal(raw), want, raw);
  t.equal(decimalPlaces('18.00663861841'), 11);
  t.equal(decimalPlaces('18'), 0);
});

t.test('money in 10^-12 units: exact both ways, as PostgreSQL prints a numeric(24,12) sum', async (t) => {
  for (const [v, units, text] of [
    ['0', 0n, '0.000000000000'],
    ['-0.5', -500000000000n, '-0.500000000000'],
    ['12.345678901234', 12345678901234n, '12.345678901234'],
    ['-3', -3000000000000n, '-3.000000000000'],
    ['0.000000000001', 1n, '0.000000000001'],
    ['-0.000000000001', -1n, '-0.000000000001'],
    ['999999999999.999999999999', 999999999999999999999999n, '999999999999.999999999999'],
  ] as const) {
    t.equal(toUnits12(v), units, v);
    t.equal(fromUnits12(units), text, v);
  }
  t.equal(fromUnits12(toUnits12('0.1') + toUnits12('0.2')), '0.300000000000', 'no float on the way');
});
