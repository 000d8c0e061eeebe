import t from 'tap';
import type { HealthFigures } from '@cc/shared/schemas/monitoring.ts';
import { alertsFigure, formatMinutes, monthToDateFigure, spendFigure, ticketsFigure } from './health-charts.ts';
import { projectLabel, shortLabel, spendAxisTitle } from './project-label.ts';
import { OTHER_PROJECTS, centsToText, rankProjects, toCents } from './project-ranking.ts';

const project = (id: string, name: string, currency = 'EUR', extra: Partial<HealthFigures['projects'][number]> = {}) => ({
  project_id: id,
  project_name: name,
  currency,
  yesterday_spend: '12.50',
  mean_28d: '10.00',
  mean_days: 28,
  month_to_date: '150.25',
  open_anomalies: 0,
  ...extra,
});

const FIGURES: HealthFigures = {
  customer_id: 'acme-corp',
  currency: 'EUR',
  unconverted: [],
  today: '2026-03-15',
  yesterday: '2026-03-14',
  anomaly_date: '2026-03-13',
  projects: [
    project('p-a', 'Alpha', 'EUR', { open_anomalies: 2 }),
    project('p-b', 'Beta', 'EUR', { open_anomalies: 1, yesterday_spend: '3.00' }),
    project('p-c', 'Gamma', 'EUR', { yesterday_spend: '0.00' }),
  ],
  alerts: [
    { id: 1, group_by: 'service', label_key: '', label_value: '', quota: '100.00', month_to_date: '150.25', currency: 'EUR', exceeded: true },
    { id: 2, group_by: 'project_label', label_key: 'team', label_value: 'data', quota: '500.00', month_to_date: '10.00', currency: 'EUR', exceeded: false },
  ],
  tickets: [
    { priority: 'P1', open: 3, awaiting_first_response: 1, oldest_awaiting_minutes: 90, mean_first_response_minutes: 45 },
    { priority: 'P2', open: 0, awaiting_first_response: 0, oldest_awaiting_minutes: null, mean_first_response_minutes: null },
  ],
  freshness: [],
  jobs: { failing_ingest_accounts: [], ticket_sync_failures: 0, anomaly_run_missing: false, monitoring_failed: false, failing: false },
};

t.test('project labels: name, id for twins, currency when several', async (t) => {
  const all = [project('p-1', 'Same'), project('p-2', 'Same'), project('p-3', '')];
  t.equal(projectLabel(all[0], all), 'Same (p-1)');
  t.equal(projectLabel(all[2], all), 'p-3');
  const mixed = [project('p-1', 'One', 'EUR'), project('p-2', 'Two', 'USD')];
  t.equal(projectLabel(mixed[1], mixed), 'Two · USD');
  t.equal(spendAxisTitle(mixed), 'Spend');
  t.equal(spendAxisTitle([mixed[0]]), 'Spend (EUR)');
});

t.test('the figures carry the answer’s numbers', async (t) => {
  const spend = spendFigure(FIGURES);
  t.same(
    spend.data.map((d) => (d as { x: number[] }).x),
    [
      [12.5, 3, 0],
      [10, 10, 10],
    ],
  );
  t.same((spend.data[0] as { y: string[] }).y, ['Alpha', 'Beta', 'Gamma']);
  t.same((spend.data[0] as { customdata: string[] }).customdata, ['p-a', 'p-b', 'p-c'], 'the id on hover');
  t.same(spend.table.rows[0].cells, ['Alpha', 'p-a', '12.50', '10.00']);
  const mtd = monthToDateFigure(FIGURES).data[0] as { x: number[]; text: string[] };
  t.same(mtd.x, [150.25, 150.25, 150.25]);
  t.same(mtd.text, ['2 open anomalies', '1 open anomaly', ''], 'no label without anomalies');
  const alerts = alertsFigure(FIGURES).data as { y: string[]; x: number[] }[];
  t.same(alerts[0].y, ['Total #1', 'team=data #2']);
  t.same(alerts[1].x, [100, 500]);
  t.same(ticketsFigure({ ...FIGURES, tickets: [] }).layout.yaxis?.range, [0, 1.1], 'an empty ticket axis still reads 0 to 1');
  const tickets = ticketsFigure(FIGURES).data as { y: number[] }[];
  t.same(tickets.map((d) => d.y), [
    [1, 0],
    [2, 0],
  ]);
});

t.test('the top 10 projects and one row for the others, summed exactly', async (t) => {
  const many = Array.from({ length: 500 }, (_, i) => project(`p-${i}`, `Project ${i}`, 'EUR', { yesterday_spend: `${i}.01`, mean_28d: '0.10', open_anomalies: i % 2 }));
  const rows = rankProjects(many, 'yesterday_spend', ['yesterday_spend', 'mean_28d']);
  t.equal(rows.length, 11);
  t.same(rows.slice(0, 3).map((r) => r.label), ['Project 499', 'Project 498', 'Project 497'], 'largest first');
  t.match(rows[10], { label: OTHER_PROJECTS, detail: '490 projects', other: true, open_anomalies: 245 });
  // 0.01 × 490 + (0 + … + 489) = 4.90 + 119805
  t.equal(centsToText(rows[10].cents.yesterday_spend), '119809.90');
  t.equal(centsToText(rows[10].cents.mean_28d), '49.00');
  t.equal(rankProjects(many.slice(0, 5), 'yesterday_spend', ['yesterday_spend']).length, 5, 'no Other row when all fit');
  t.equal(toCents('-0.05'), -5n);
  t.equal(centsToText(-5n), '-0.05');
});

t.test('axis labels keep their start and end', async (t) => {
  t.equal(shortLabel('Contoso workload 001', 14), 'Contoso…ad 001');
  t.equal(shortLabel('Short', 14), 'Short');
  t.equal(shortLabel('/subscriptions/00000001-1111-4222-8333-444455556666').length, 24);
});

t.test('minutes', async (t) => {
  t.equal(formatMinutes(null), '–');
  t.equal(formatMinutes(45), '45 min');
  t.equal(formatMinutes(200), '3 h 20 min');
  t.equal(formatMinutes(120), '2 h');
  t.equal(formatMinutes(3120), '2 d 4 h');
});
