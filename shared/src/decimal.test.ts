import t from 'tap';
import { decimalPlaces, normaliseDecimal } from './decimal.ts';

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
  ];
  for (const [raw, want] of cases) t.equal(normaliseDecimal(raw), want, raw);
  t.equal(decimalPlaces('18.00663861841'), 11);
  t.equal(decimalPlaces('18'), 0);
});
