/** The dashboard's pure rules: money display, CSV, file name, period labels, settings, tabs, chart figure. */
import t from 'tap';
import { buildFigure, barWidth, GREY, showsTotalLabel } from './chart-figure.ts';
import { discountColumns } from './discount-columns.ts';
import { exportFileName, exportRange, formatMoney, rangeLabel, toCsv } from './format.ts';
import { defaultSettings, effectiveSettings, validateSettings, withProvider } from './settings.ts';
import { chartTitle, tabsFor } from './tabs.ts';
import type { ChartPayload } from '@cc/shared/schemas/billing.ts';
import { resolvePeriod } from '@cc/shared/billing/periods.ts';

t.test('formatMoney: English style, 2 decimals, exact on the string', async (t) => {
  t.equal(formatMoney('1234567.5'), '1,234,567.50');
  t.equal(formatMoney('0'), '0.00');
  t.equal(formatMoney('999.995'), '1,000.00', 'half rounds away from zero, carrying');
  t.equal(formatMoney('-3.074'), '-3.07');
  t.equal(formatMoney('-0.001'), '0.00', 'no negative zero');
  t.equal(formatMoney('12345678901234567890.125'), '12,345,678,901,234,567,890.13', 'beyond float precision');
  t.equal(formatMoney(''), '');
});

t.test('export file: name pattern and RFC 4180 CSV', async (t) => {
  t.equal(exportFileName('gcp', exportRange({ selectedDate: '12months', startDate: '', endDate: '' })), 'cc_gcp_billing_data_12months.csv');
  t.equal(exportRange({ selectedDate: 'CustomizedPeriod', startDate: '2026-01-01', endDate: '2026-01-31' }), '2026-01-01_2026-01-31');
  t.equal(toCsv(['a', 'b'], [['1,5', 'say "hi"'], ['x', 'y']]), 'a,b\r\n"1,5","say ""hi"""\r\nx,y\r\n');
});

t.test('period labels follow spec 001 §9 in US/Pacific', async (t) => {
  // 2026-03-15 10:00 UTC is 2026-03-15 03:00 in Los Angeles.
  const now = Date.UTC(2026, 2, 15, 10, 0);
  t.equal(rangeLabel({ selectedDate: '7days', startDate: '', endDate: '' }, now), '2026-03-08 - 2026-03-14');
  t.equal(rangeLabel({ selectedDate: '30days', startDate: '', endDate: '' }, now), '2026-02-13 - 2026-03-14');
  t.equal(rangeLabel({ selectedDate: '12months', startDate: '', endDate: '' }, now), '2025-04-01 - 2026-03-14');
  t.equal(rangeLabel({ selectedDate: 'CustomizedPeriod', startDate: '2026-01-02', endDate: '2026-01-09' }, now), '2026-01-02 - 2026-01-09');
  // On the 1st of a month yesterday belongs to the previous month: 12 whole months end there, as the api answers.
  const firstOfMonth = Date.UTC(2026, 11, 1, 20, 0);
  t.equal(rangeLabel({ selectedDate: '12months', startDate: '', endDate: '' }, firstOfMonth), '2025-12-01 - 2026-11-30');
  t.equal(rangeLabel({ selectedDate: '12months', startDate: '', endDate: '' }, firstOfMonth), resolvePeriod({ period: '12months' }, '2026-12-01').label);
});

t.test('settings: defaults, validation, provider reset, viewer rules', async (t) => {
  const d = defaultSettings(Date.UTC(2026, 2, 15, 10));
  t.match(d, { settings: { provider: 'gcp', groupBy: 'serviceAndProject', selectedDate: '12months', services: [] }, selected: { top: 10, showSpendSum: true } });
  t.equal(d.settings.costBasis, 'billed', 'the cost basis defaults to Billed');
  t.same(validateSettings(d.settings), {});
  t.same(validateSettings({ ...d.settings, groupBy: 'projectLabel' }), { projectLabel: 'This field is required' });
  t.same(validateSettings({ ...d.settings, groupBy: 'resourceLabel' }), { resourceLabel: 'This field is required' });
  t.same(validateSettings({ ...d.settings, selectedDate: 'CustomizedPeriod', startDate: '', endDate: '2026-13-01' }), {
    startDate: 'This field is required',
    endDate: 'Use the format yyyy-MM-dd',
  });
  t.ok(validateSettings({ ...d.settings, selectedDate: 'CustomizedPeriod', startDate: '2026-02-02', endDate: '2026-02-01' }).endDate);

  const labelled = { ...d.settings, groupBy: 'projectLabel' as const, projectLabel: 'team' };
  t.equal(withProvider(labelled, 'aws').groupBy, 'serviceAndProject', 'provider change resets group by');
  t.equal(withProvider(labelled, 'gcp'), labelled, 'same provider: unchanged');
  t.same(withProvider({ ...d.settings, services: ['BigQuery'] }, 'aws').services, [], "another provider's services are dropped");

  const viewer = effectiveSettings({ ...d.settings, provider: 'aws' }, { viewer: true, canPickProvider: false, viewerLabel: 'team' });
  t.match(viewer, { provider: 'all', groupBy: 'projectLabel', projectLabel: 'team' }, "a viewer sees the project-label view of every provider, as the api answers");
  t.equal(effectiveSettings({ ...labelled, provider: 'azure' }, { viewer: false, canPickProvider: true, viewerLabel: '' }).groupBy, 'serviceAndProject');
});

t.test('tabs per group by', async (t) => {
  const labels = (g: Parameters<typeof tabsFor>[0], p: Parameters<typeof tabsFor>[1]) => tabsFor(g, p).map((x) => x.label);
  t.same(labels('serviceAndProject', 'gcp'), ['Total', 'Project with Service']);
  t.same(labels('serviceAndProject', 'aws'), ['Total']);
  t.same(labels('projectLabel', 'gcp'), ['Total with Project Label', 'Project Labels with Project']);
  t.same(labels('resourceLabel', 'gcp'), ['Total with Resource Label', 'Resource Labels with Project']);
});

t.test('chart figure: colours with grey fallback, total-label rule, 0-decimal axis', async (t) => {
  const payload: ChartPayload = {
    keys: ['BigQuery', 'Others'],
    data: [
      { date: '2026-01', values: { BigQuery: 10, Others: 2.5 }, total: '12.50' },
      { date: '2026-02', values: { BigQuery: 0.4 }, total: '0.40' },
      { date: '2026-03', values: {}, total: '0.00' },
      { date: '2026-04', values: {}, total: '5.00' },
    ],
    colors: { BigQuery: '#1f77b4' },
    max_value: 12.5,
    summary: { custom: '17.90', month_to_date: '0.00', previous_month: '0.40' },
    series: [],
    months: [],
    range: { start_date: '2026-01-01', end_date: '2026-04-30', granularity: 'month', label: '2026-01-01 - 2026-04-30' },
    currency: 'EUR',
    cost_basis: 'billed',
    conversion: { converted: [], unconverted: [], demo_rates: false },
    billing_dashboard_type: 'Standard',
    tiers: [],
    top: 10,
  };
  t.equal(barWidth(400, 4), 70);
  const wide = buildFigure(payload, 400, 'EUR');
  t.same(
    wide.data.map((d) => (d as { marker: { color: string } }).marker.color),
    ['#1f77b4', GREY],
  );
  t.same(
    (wide.layout.annotations ?? []).map((a) => a.text),
    ['12.50'],
    'only bars with a total of at least 1 and at least one series value',
  );
  t.equal(wide.layout.barmode, 'stack');
  t.equal(wide.layout.bargap, 0.3);
  t.equal((wide.layout.yaxis as { tickformat: string }).tickformat, ',.0f');
  t.same(buildFigure(payload, 100, 'EUR').layout.annotations, [], 'bars under 18 px wide get no total label');
  t.notOk(showsTotalLabel(payload.data[0], 17.9));
  t.ok(showsTotalLabel(payload.data[0], 18));
});

t.test('discount tables per dashboard type', async (t) => {
  const month = {
    month: '2026-10',
    monthly_spend: '12000',
    forecasted_monthly_spend: '12000',
    discount: '2',
    reached_tier: '10000',
    forecasted_reached_tier: '10000',
    discounted_spend: '11760',
    forecasted_discounted_spend: '11760',
  };
  const headers = (type: string, forecast: boolean) => discountColumns(type, forecast).map((c) => c.header);
  t.same(headers('Tier Discount', true), [
    'Monthly Spend',
    'Forecasted Monthly Spend',
    'Discount',
    'Reached Tier',
    'Forecasted Reached Tier',
    'Discounted Spend',
    'Forecasted Discounted Spend',
  ]);
  t.same(headers('Tier Discount', false), ['Monthly Spend', 'Discount', 'Reached Tier', 'Discounted Spend']);
  t.same(headers('Set Discount', true), ['Monthly Spend', 'Forecasted Monthly Spend', 'Discount', 'Discounted Spend', 'Forecasted Discounted Spend'], 'no tier columns without tiers');
  t.same(headers('Set Discount', false), ['Monthly Spend', 'Discount', 'Discounted Spend']);
  t.same(
    discountColumns('Tier Discount', false).map((c) => c.cell(month)),
    ['12,000.00', '2%', '10,000.00', '11,760.00'],
  );
});

t.test('chart title names the label key of the label views', async (t) => {
  const labels = { projectLabel: 'team', resourceLabel: 'component' };
  t.equal(chartTitle(tabsFor('serviceAndProject', 'gcp')[1], labels), 'Project with Service');
  t.equal(chartTitle(tabsFor('projectLabel', 'gcp')[0], labels), 'Total with Project Label (team)');
  t.equal(chartTitle(tabsFor('resourceLabel', 'gcp')[1], labels), 'Resource Labels with Project (component)');
});

t.test('export body follows the grouping and the Projects choice', async (t) => {
  const { exportBody } = await import('./billingApi.ts');
  const scope = { customer: 'c', billingAccountId: 'b', provider: 'gcp' as const, period: '30days' as const, timezone: 'US/Pacific', costBasis: 'billed' as const };
  t.same(exportBody({ ...scope, kind: 'serviceDetails', services: ['BigQuery'], projects: [] }), { services: ['BigQuery'] }, 'All Selected sends no projects');
  t.same(exportBody({ ...scope, kind: 'serviceDetails', services: [], projects: ['p1'] }), { services: [], projects: ['p1'] });
  t.same(exportBody({ ...scope, kind: 'projectLabelDetails', projectLabel: 'team', projects: ['p1', 'p2'] }), { project_label: 'team', projects: ['p1', 'p2'] });
});
