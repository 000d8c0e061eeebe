/**
 * The amortisation of a row (EffectiveCost minus billed cost and credits), worked out in doubles of whole units and
 * 10^-12 fractions, equals the exact difference of the decimals (BigInt units) for values across the whole range a
 * checked amount may take, and its sums equal the BigInt sums; the label JSON of a frozen tag set, made once, is the
 * JSON of the set.
 */
import t from 'tap';
import { fromUnits12, toUnits12 } from '@cc/shared/decimal.ts';
import { RollupSums } from './rollup-sums.ts';
import { costRow } from '../../../test/fixtures/cost-row.ts';

// a small linear congruential generator: the same values on every run
let seed = 7;
const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;

/** A checked amount (normalised: no trailing zeros, at most 12 integer and 12 decimal digits), or '0'. */
function amount(): string {
  const digits = (n: number) => Array.from({ length: n }, () => Math.floor(next() * 10)).join('');
  const int = String(BigInt(digits(1 + Math.floor(next() * 12))));
  const frac = digits(Math.floor(next() * 13)).replace(/0+$/, '');
  const text = frac ? `${int}.${frac}` : int;
  if (text === '0') return '0';
  return next() < 0.4 ? `-${text}` : text;
}

t.test('amortisation per row and summed, against BigInt', async (t) => {
  const sums = new RollupSums();
  let total = 0n;
  let wrong = 0;
  for (let i = 0; i < 50_000; i++) {
    const pick = next();
    const cost = pick < 0.1 ? '0' : amount();
    const credits = pick < 0.5 ? '0' : amount();
    // equal to billed now and then (no arithmetic then), else any amount
    const effective = pick < 0.2 ? (credits === '0' ? cost : credits) : amount();
    const units = toUnits12(effective) - toUnits12(cost) - toUnits12(credits);
    const want = units === 0n ? '0' : fromUnits12(units);
    const got = sums.add(costRow({ cost, credits, effective_cost: effective, project_id: `p${i % 7}` })).amortisation;
    total += toUnits12(cost) + toUnits12(credits) + units;
    if (got !== want && ++wrong <= 5) t.fail(`${effective} - ${cost} - ${credits}: ${got}, want ${want}`);
  }
  t.equal(wrong, 0, 'every row as BigInt says');
  const totals = await sums.totals(async (lists) => lists.map((l) => [...l].sort().at(-1)!));
  t.equal(totals.length, 1);
  t.equal(totals[0].effective_cost, fromUnits12(total), 'the amortised total as BigInt says');
});

t.test('a frozen label set is written as its JSON', async (t) => {
  const sums = new RollupSums();
  const labels = Object.freeze({ team: 'web', 'cost-center': 'cc "1"' });
  for (let i = 0; i < 3; i++) t.equal(sums.add(costRow({ resource_labels: labels })).resource_labels, JSON.stringify(labels));
  t.equal(sums.add(costRow({ resource_labels: { a: 'b' } })).resource_labels, '{"a":"b"}');
});

t.test('a label object that is not frozen is written as it is at each row', async (t) => {
  const sums = new RollupSums();
  const labels: Record<string, string> = { team: 'web' };
  t.equal(sums.add(costRow({ resource_labels: labels })).resource_labels, '{"team":"web"}');
  labels.team = 'api';
  t.equal(sums.add(costRow({ resource_labels: labels })).resource_labels, '{"team":"api"}');
  const frozen = Object.freeze({ env: 'prod' });
  t.equal(sums.add(costRow({ project_labels: frozen })).project_labels, '{"env":"prod"}');
  t.equal(sums.add(costRow({ project_labels: labels })).project_labels, '{"team":"api"}');
  t.equal(sums.add(costRow({ project_labels: frozen })).project_labels, '{"env":"prod"}');
});

t.test('rows of one day and project under two providers and currencies sum apart, whatever their order', async (t) => {
  const sums = new RollupSums();
  const rows = [
    costRow({ provider: 'aws', currency: 'USD', cost: '1.5' }),
    costRow({ provider: 'azure', currency: 'USD', cost: '2' }),
    costRow({ provider: 'aws', currency: 'EUR', cost: '4' }),
    costRow({ provider: 'aws', currency: 'USD', cost: '0.25' }),
    costRow({ provider: 'azure', currency: 'USD', cost: '8' }),
  ];
  for (const r of rows) sums.add(r);
  const daily = await sums.dailyRows(async (lists) => lists.map((l) => [...l].sort().at(-1)!));
  t.same(
    daily.map((d) => [d.provider, d.currency, d.cost]),
    [
      ['aws', 'USD', '1.750000000000'],
      ['azure', 'USD', '10.000000000000'],
      ['aws', 'EUR', '4.000000000000'],
    ],
  );
});
