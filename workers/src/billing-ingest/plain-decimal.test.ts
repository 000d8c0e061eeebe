/**
 * The fast path gives normaliseDecimal's answer for every text: amounts as exports write them, odd forms it hands
 * over, and many generated strings of digits, signs, points, zeros and other characters.
 */
import t from 'tap';
import { normaliseDecimal } from '@cc/shared/decimal.ts';
import { plainDecimal } from './plain-decimal.ts';

t.test('amounts as exports write them and the odd forms', async (t) => {
  const cases = [
    '0', '-0', '00', '0.0', '-0.000', '0.00000080000', '2.000000000000000', '-2.613700000000', '10.50', '10', '-10', '007', '00.5',
    '-00.5', '0.5', '-0.5', '123456789012.123456789012', '1.', '.5', '-', '', '+1.5', '1e3', '1.5E-7', ' 1', '1 ', '1,5', '1.2.3',
    '--1', '-.5', 'NaN', '0x10', '١٢', '1.0e0', '-0.0000000000001',
  ];
  for (const raw of cases) t.equal(plainDecimal(raw), normaliseDecimal(raw), JSON.stringify(raw));
});

t.test('generated texts', async (t) => {
  const alphabet = ['0', '0', '0', '1', '5', '9', '.', '-', '+', 'e', ' ', 'x'];
  // a small linear congruential generator: the same strings on every run
  let seed = 42;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  let differ = 0;
  for (let n = 0; n < 200_000; n++) {
    let raw = '';
    const len = 1 + Math.floor(next() * 12);
    for (let i = 0; i < len; i++) raw += alphabet[Math.floor(next() * alphabet.length)];
    if (plainDecimal(raw) !== normaliseDecimal(raw)) {
      differ++;
      if (differ <= 5) t.fail(`differs for ${JSON.stringify(raw)}: ${plainDecimal(raw)} vs ${normaliseDecimal(raw)}`);
    }
  }
  t.equal(differ, 0, 'no generated text read differently');
});
