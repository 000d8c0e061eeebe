import t from 'tap';
import { formatUnits, percentOf, toUnits, unitsToDecimal } from './money.ts';
import { buckets, PeriodError, resolvePeriod, splitWholeMonths, todayIn } from './periods.ts';
import { foldTopN, OTHERS, parseTopN, colorsFor } from './top-n.ts';
import { applyDiscount } from './discounts.ts';
import { forecastMonth, monthToDate, naiveForecast } from './forecast.ts';
import { addDays } from '../time.ts';

t.test('money: exact parse, round half away from zero, percentages', async (t) => {
  t.equal(formatUnits(toUnits('0.005')), '0.01');
  t.equal(formatUnits(toUnits('-0.005')), '-0.01');
  t.equal(formatUnits(toUnits('0.004999999999')), '0.00');
  t.equal(formatUnits(toUnits('1.5E-7'), 12), '0.000000150000');
  t.equal(formatUnits(toUnits('0.1') + toUnits('0.2')), '0.30');
  t.equal(unitsToDecimal(toUnits('18.006638618400')), '18.0066386184');
  t.equal(formatUnits(percentOf(toUnits('200'), '7.5')), '15.00');
  t.throws(() => toUnits('1.0000000000000000000000001'));
  t.throws(() => toUnits('abc'));
  // PostgreSQL's numeric text takes the direct path: the same units as the general parse
  t.equal(toUnits('-0.500000000000'), -(10n ** 24n) / 2n);
  t.equal(toUnits('-0'), 0n);
  t.equal(toUnits('12.340000000000'), toUnits('1.234E1'));
  t.equal(toUnits('0.000000000000000000000001'), 1n);
});

t.test('periods (spec 001 §9)', async (t) => {
  const today = '2026-03-15';
  t.same(resolvePeriod({ period: '7days' }, today), { start_date: '2026-03-08', end_date: '2026-03-14', granularity: 'day', label: '2026-03-08 - 2026-03-14' });
  t.equal(buckets(resolvePeriod({ period: '7days' }, today)).length, 7);
  t.equal(buckets(resolvePeriod({ period: '30days' }, today)).length, 30);
  const y = resolvePeriod({ period: '12months' }, today);
  t.same([y.start_date, y.end_date, y.granularity], ['2025-04-01', '2026-03-14', 'month']);
  t.equal(buckets(y).length, 12);
  t.equal(buckets(y)[0], '2025-04');
  // On the 1st, yesterday is in the previous month: still 12 whole months.
  const first = resolvePeriod({ period: '12months' }, '2026-03-01');
  t.same([first.start_date, first.end_date], ['2025-03-01', '2026-02-28']);
  t.equal(resolvePeriod({}, today).granularity, 'month', '12months is the default');
  const c = resolvePeriod({ period: 'CustomizedPeriod', start_date: '2026-01-30', end_date: '2026-02-02' }, today);
  t.same(buckets(c), ['2026-01-30', '2026-01-31', '2026-02-01', '2026-02-02']);
  t.equal(resolvePeriod({ period: 'CustomizedPeriod', start_date: '2025-01-01', end_date: '2025-12-31' }, today).granularity, 'month');
  t.throws(() => resolvePeriod({ period: 'CustomizedPeriod', start_date: '2026-02-30', end_date: '2026-03-01' }, today), PeriodError);
  t.throws(() => resolvePeriod({ period: 'CustomizedPeriod', start_date: '2026-03-02', end_date: '2026-03-01' }, today), PeriodError);
  t.throws(() => resolvePeriod({ period: 'CustomizedPeriod' }, today), PeriodError);
  t.throws(() => resolvePeriod({ period: '14days' }, today), PeriodError);
  t.throws(() => todayIn('Mars/Olympus'), PeriodError);
  t.match(todayIn('Europe/Copenhagen'), /^\d{4}-\d{2}-\d{2}$/);
});

t.test('splitWholeMonths: whole months for the monthly rollup, edges by day', async (t) => {
  t.same(splitWholeMonths('2025-04-01', '2026-03-14'), { months: { from: '2025-04-01', to: '2026-02-01' }, days: [{ from: '2026-03-01', to: '2026-03-14' }] });
  t.same(splitWholeMonths('2025-04-03', '2025-06-30'), { months: { from: '2025-05-01', to: '2025-06-01' }, days: [{ from: '2025-04-03', to: '2025-04-30' }] });
  t.same(splitWholeMonths('2025-04-03', '2025-05-20'), { months: null, days: [{ from: '2025-04-03', to: '2025-05-20' }] });
  t.same(splitWholeMonths('2025-02-01', '2025-02-28'), { months: { from: '2025-02-01', to: '2025-02-01' }, days: [] });
});

t.test('Top N folds the rest into Others and keeps every bar total', async (t) => {
  const cells = [
    { bucket: 'a', key: 'A', amount: toUnits('10') },
    { bucket: 'a', key: 'B', amount: toUnits('5') },
    { bucket: 'b', key: 'C', amount: toUnits('3') },
    { bucket: 'b', key: 'D', amount: toUnits('1.5') },
    { bucket: 'b', key: 'B', amount: toUnits('6') },
  ];
  const f = foldTopN(cells, 2);
  t.same(f.keys, ['B', 'A', OTHERS]);
  t.equal(formatUnits(f.totals.get(OTHERS)!), '4.50');
  t.equal(formatUnits(f.byBucket.get('b')!.get(OTHERS)!), '4.50');
  t.same(foldTopN(cells, 0).keys, ['B', 'A', 'C', 'D']);
  t.same(Object.keys(colorsFor(f.keys)), ['B', 'A'], 'Others has no colour: grey fallback');
  // The same cells with the two smallest series folded by the query already: the same answer
  const prefolded = [cells[0], cells[1], cells[4], { bucket: 'b', key: OTHERS, amount: toUnits('4.5'), folded: true }];
  const g = foldTopN(prefolded, 2);
  const sorted = <V>(m: Map<string, V>) => [...m].sort(([a], [b]) => (a < b ? -1 : 1));
  const shape = (x: typeof f) => [x.keys, sorted(x.totals), sorted(x.byBucket).map(([b, m]) => [b, sorted(m)])];
  t.same(shape(g), shape(f));
  // a real series named Others kept among the N still moves to the end when anything was folded, by the query or here
  const literal = [
    { bucket: 'a', key: OTHERS, amount: toUnits('20') },
    { bucket: 'a', key: 'A', amount: toUnits('10') },
    { bucket: 'b', key: 'C', amount: toUnits('1') },
  ];
  t.same(foldTopN(literal, 2).keys, ['A', OTHERS]);
  t.same(foldTopN([literal[0], literal[1], { ...literal[2], key: OTHERS, folded: true }], 2).keys, ['A', OTHERS]);
  t.equal(parseTopN(undefined), 10);
  t.equal(parseTopN('0'), 0);
  t.equal(parseTopN('7'), null);
  t.equal(parseTopN('5.0'), null);
});

t.test('discounts: Standard, Set Discount, Tier Discount (all-units, highest tier reached)', async (t) => {
  const spend = toUnits('12000');
  t.same(applyDiscount({ type: 'Standard', set_discount: null, tiers: [] }, spend), { discount: '0', reached_tier: null, discounted: spend });
  t.equal(formatUnits(applyDiscount({ type: 'Set Discount', set_discount: '5', tiers: [] }, spend).discounted), '11400.00');
  const tiers = [
    { threshold_spend: '20000', percentage: '10' },
    { threshold_spend: '5000', percentage: '3' },
    { threshold_spend: '10000', percentage: '5' },
  ];
  const r = applyDiscount({ type: 'Tier Discount', set_discount: null, tiers }, spend);
  t.same([r.discount, r.reached_tier, formatUnits(r.discounted)], ['5', '10000', '11400.00']);
  const exact = applyDiscount({ type: 'Tier Discount', set_discount: null, tiers }, toUnits('5000'));
  t.equal(exact.reached_tier, '5000', 'reaching the threshold exactly counts');
  const none = applyDiscount({ type: 'Tier Discount', set_discount: null, tiers }, toUnits('4999.99'));
  t.same([none.discount, none.reached_tier], ['0', null]);
});

t.test('forecast: weekday-aware run rate beats the naive baseline on a weekly rhythm', async (t) => {
  // Weekdays 100, weekends 10; month starts on a weekend-heavy stretch.
  const daily = new Map<string, bigint>();
  const today = '2026-03-04'; // Wednesday
  for (let d = '2026-01-15'; d < today; d = addDays(d, 1)) {
    const wd = new Date(`${d}T00:00:00Z`).getUTCDay();
    daily.set(d, toUnits(wd === 0 || wd === 6 ? '10' : '100'));
  }
  let actual = 0n;
  for (let d = '2026-03-01'; d <= '2026-03-31'; d = addDays(d, 1)) {
    const wd = new Date(`${d}T00:00:00Z`).getUTCDay();
    actual += toUnits(wd === 0 || wd === 6 ? '10' : '100');
  }
  t.equal(formatUnits(monthToDate(daily, today)), '210.00'); // Sun 1, Mon 2 (100), Tue 3 (100)
  t.equal(forecastMonth(daily, today), actual, 'exact on a pure weekly pattern');
  const naive = naiveForecast(daily, today);
  t.ok(naive < actual, `naive ${formatUnits(naive)} under-forecasts ${formatUnits(actual)}`);
  t.equal(forecastMonth(new Map(), today), 0n, 'no history: month-to-date');
});

t.test('colours: every series its own colour, even beyond the palette (Top N All)', async (t) => {
  const keys = Array.from({ length: 120 }, (_, i) => `series-${i}`);
  const colors = colorsFor(keys);
  const values = keys.map((k) => colors[k]);
  t.equal(new Set(values).size, keys.length, 'no colour repeats');
  t.ok(values.every((c) => /^#[0-9a-f]{6}$/.test(c)), 'all #rrggbb');
  t.notOk(values.includes('#9e9e9e'), "none is the 'Others' grey");
  t.same(Object.keys(colorsFor([...keys.slice(0, 3), OTHERS])), keys.slice(0, 3), 'Others still has none');
});
