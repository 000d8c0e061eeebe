import t from 'tap';
import { sortRows } from '../../common/list/list-table.ts';
import { formatMoney } from '../../common/numbers.ts';
import { anomalyDate, changeSortValue, contributorName, contributorShare, coverageText, dimensionTitle, emptyText, formatChange, notConvertedTitle } from './anomaly-format.ts';
import type { AnomalyAnswer } from '@cc/shared/schemas/insights.ts';

t.test('the judged day is two days before today in US/Pacific', async (t) => {
  // 2026-03-01 05:00 UTC is still 2026-02-28 in Los Angeles (21:00 PST).
  t.equal(anomalyDate(Date.UTC(2026, 2, 1, 5, 0)), '2026-02-26');
  t.equal(anomalyDate(Date.UTC(2026, 2, 1, 9, 0)), '2026-02-27');
  // Across the spring DST change (2026-03-08 in the US).
  t.equal(anomalyDate(Date.UTC(2026, 2, 9, 12, 0)), '2026-03-07');
});

t.test('money and change as shown', async (t) => {
  t.equal(formatMoney(4363.524, 'EUR'), '€4,363.52');
  t.equal(formatMoney(0, 'USD'), '$0.00');
  t.equal(formatMoney(12, 'XYZ1'), '12.00 XYZ1', 'an unknown currency code does not crash');
  t.equal(formatChange(9263.5), '+9,263.50%');
  t.equal(formatChange(-12), '-12.00%');
  t.equal(formatChange(null), 'new spend');
});

t.test('sorted by the biggest change, new spend (zero mean) comes first', async (t) => {
  const rows = [{ p: 'a', perc: 50 }, { p: 'new', perc: null }, { p: 'b', perc: 900 }];
  t.same(
    sortRows(rows, (r) => changeSortValue(r.perc), 'DESC').map((r) => r.p),
    ['new', 'b', 'a'],
  );
  t.same(
    sortRows(rows, (r) => changeSortValue(r.perc), 'ASC').map((r) => r.p),
    ['a', 'b', 'new'],
  );
});

t.test('a day detection has not run for says only that, not "0 series judged"', async (t) => {
  const base: AnomalyAnswer = {
    date: '2026-02-26',
    billing_account_id: 'X',
    anomalies: [],
    anomaly_detection: true,
    computed_at: null,
    window_days: 30,
    judged_series: 0,
    cold_start_series: 0,
    min_history_days: 7,
    cost_basis: null,
    not_converted: [],
  };
  t.equal(coverageText(base), '.', 'no coverage sentence');
  t.equal(emptyText(base, base.date), 'Anomaly detection has not run for 2026-02-26 yet');
  const ran = { ...base, computed_at: '2026-02-27T13:30:00Z', judged_series: 0 };
  t.equal(coverageText(ran), ' of the previous 30 days. 0 project and service series judged.');
  t.equal(emptyText(ran, base.date), 'No anomalies found for 2026-02-26');
  t.equal(
    coverageText({ ...ran, judged_series: 4, cold_start_series: 2 }),
    ' of the previous 30 days. 4 project and service series judged; 2 with less than 7 days of history not judged yet.',
  );
  t.equal(emptyText(undefined, base.date), 'No anomalies found for 2026-02-26', 'while loading');
  t.equal(
    coverageText({ ...ran, judged_series: 4, cost_basis: 'amortised' }),
    ' of the previous 30 days. 4 project and service series judged on amortised cost.',
    'a run on the amortised basis says so',
  );
  const left = { ...ran, not_converted: [{ currency: 'USD', count: 2, message: 'No USD to EUR rate within 7 days before 2026-02-26: 2 anomalies judged in USD are not shown.' }] };
  t.equal(emptyText(left, base.date), 'No anomalies shown for 2026-02-26', 'not "found": some were, in a currency without a rate');
});

t.test('anomalies left out for want of a rate are named in the warning title', async (t) => {
  t.equal(notConvertedTitle({ currency: 'USD', count: 2 }), 'Not converted: 2 anomalies judged in USD');
  t.equal(notConvertedTitle({ currency: 'GBP', count: 1 }), 'Not converted: 1 anomaly judged in GBP');
});

t.test('contributors as the explanation panel names them', async (t) => {
  const c = { dimension: 'label' as const, rank: 1, value: 'ml-train', label_key: 'app', in_baseline: false, share: 87.04 };
  t.equal(contributorName(c), 'app=ml-train (new)');
  t.equal(contributorName({ ...c, rank: 0, value: null }), 'Rest');
  t.equal(contributorName({ ...c, dimension: 'resource', value: '', in_baseline: true }), '(no resource)');
  t.equal(contributorShare({ share: 87 }), '87 % of the rise');
  t.equal(contributorShare({ share: 0.1 }), '0.1 % of the rise');
  t.equal(dimensionTitle({ dimension: 'label', label_key: 'app' }), 'Resource label app');
  t.equal(dimensionTitle({ dimension: 'sku', label_key: null }), 'SKUs');
});
