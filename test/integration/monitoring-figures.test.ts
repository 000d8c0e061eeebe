import t from 'tap';
import { randomUUID } from 'node:crypto';
import { testEnv } from '../helper.ts';
import { healthFigures } from '@cc/shared/db/monitoring-figures.ts';
import type { Pool } from '@cc/shared/db/pool.ts';

const TODAY = '2026-03-15';
const NOW = new Date('2026-03-15T18:00:00Z');
const C = 'healthy-co';

/** Deterministic amounts with cents and credits, so sums and means exercise numeric rounding. */
const amount = (i: number) => ((i * 7919) % 1000) / 7 + 0.005;

async function seed(pool: Pool) {
  await pool.query(`INSERT INTO customer (customer_id, customer_name, billing_account_ids, anomaly_detection, minimum_anomaly_threshold, minimum_value_toggled_anomaly)
                    VALUES ($1, 'Healthy Co', '{ACC-A,ACC-B}', true, 20, 10), ('other-co', 'Other Co', '{ACC-X}', false, 20, 10)`, [C]);
  const rows: unknown[][] = [];
  const day = (offset: number) => `(date '${TODAY}' + ${offset})`;
  let i = 0;
  // alpha: every day for 45 days on A, two services; beta: from 10 days ago on B (younger than the window), with a
  // gap; gamma: yesterday only; delta: only in another currency; spend on an account not the customer's is ignored.
  for (let d = -45; d <= 0; d++) for (const svc of ['Compute', 'Storage']) rows.push([C, 'ACC-A', d, 'p-alpha', 'Alpha', svc, amount(i++), -1.25, 'EUR']);
  for (let d = -10; d <= 0; d++) if (d !== -4) rows.push([C, 'ACC-B', d, 'p-beta', 'Beta', 'Compute', amount(i++) * 3, 0, 'EUR']);
  rows.push([C, 'ACC-A', -1, 'p-gamma', 'Gamma', 'Compute', 5, 0, 'EUR']);
  rows.push([C, 'ACC-B', -3, 'p-alpha', 'Alpha', 'Compute', 11.111, 0, 'USD']);
  rows.push([C, 'ACC-Z', -1, 'p-alpha', 'Alpha', 'Compute', 999, 0, 'EUR']);
  rows.push(['other-co', 'ACC-X', -1, 'p-other', 'Other', 'Compute', 50, 0, 'EUR']);
  for (const [cust, acc, d, pid, pname, svc, cost, credits, cur] of rows) {
    await pool.query(
      `INSERT INTO cost_daily (customer_id, billing_account_id, usage_date, provider, provider_name, project_id, project_name, service, cost, credits, currency)
       VALUES ($1, $2, ${day(d as number)}, 'gcp', 'Google Cloud', $3, $4, $5, $6, $7, $8)`,
      [cust, acc, pid, pname, svc, cost, credits, cur],
    );
  }
  // anomalies of the anomaly date (today - 2): two pass the customer's thresholds (20 %, 10), one does not; one is older
  await pool.query(`INSERT INTO anomaly_run (customer_id, billing_account_id, date, window_days, min_history_days, judged_series, cold_start_series)
                    VALUES ($1, 'ACC-A', date '${TODAY}' - 2, 28, 7, 3, 0), ($1, 'ACC-A', date '${TODAY}' - 3, 28, 7, 3, 0)`, [C]);
  const anomaly = (d: number, pid: string, svc: string, mean: number, latest: number) =>
    pool.query(`INSERT INTO anomaly (customer_id, billing_account_id, date, project_id, service, currency, mean_cost, to_date_cost, project_mean_cost, project_to_date_cost)
                VALUES ($1, 'ACC-A', date '${TODAY}' - ${d}, $2, $3, 'EUR', $4, $5, $4, $5)`, [C, pid, svc, mean, latest]);
  await anomaly(2, 'p-alpha', 'Compute', 100, 150);
  await anomaly(2, 'p-alpha', 'Storage', 10, 30);
  await anomaly(2, 'p-alpha', 'Network', 100, 105);
  await anomaly(3, 'p-alpha', 'Compute', 100, 200);

  await pool.query(`INSERT INTO alert (customer_id, group_by, quota) VALUES ($1, 'service', 100), ($1, 'service', 100000)`, [C]);
  await pool.query(`INSERT INTO alert (customer_id, group_by, label_key, label_value, quota) VALUES ($1, 'project_label', 'team', 'data', 10)`, [C]);
  for (const [d, v] of [[-20, 4], [-2, 3.5], [0, 3]] as const) {
    await pool.query(`INSERT INTO cost_daily_label (customer_id, billing_account_id, usage_date, provider, label_kind, label_key, label_value, project_id, cost, credits, currency)
                      VALUES ($1, 'ACC-A', ${day(d)}, 'gcp', 'project', 'team', 'data', 'p-alpha', $2, 0, 'EUR')`, [C, v]);
  }

  const ticket = (priority: string, status: string, createdMinAgo: number, respondedAfterMin: number | null, syncState = 'synced') =>
    pool.query(`INSERT INTO ticket (id, customer_id, summary, description, priority, status, created_at, created_by, first_response_at, sync_state)
                VALUES ($1, $2, 's', 'd', $3, $4, $5::timestamptz - make_interval(mins => $6), 'u@x.example',
                        CASE WHEN $7::int IS NULL THEN NULL ELSE $5::timestamptz - make_interval(mins => $6) + make_interval(mins => $7::int) END, $8)`,
      [randomUUID(), C, priority, status, NOW.toISOString(), createdMinAgo, respondedAfterMin, syncState]);
  await ticket('P1', 'Open', 90, null);
  await ticket('P1', 'In Progress', 300, 30);
  await ticket('P1', 'In Progress', 500, 61);
  await ticket('P1', 'Resolved', 1000, 5); // not open
  await ticket('P2', 'Open', 45, null, 'failed');
  await ticket('P2', 'Open', 2000, null);
  await ticket('P4', 'Closed', 10, 1);

  for (const [acc, status, startMin] of [['ACC-A', 'succeeded', 600], ['ACC-A', 'failed', 60], ['ACC-B', 'rejected', 900], ['ACC-B', 'succeeded', 120]] as const) {
    await pool.query(`INSERT INTO ingest_batch (customer_id, billing_account_id, source, status, started_at, finished_at)
                      VALUES ($1, $2, 'gcp-generated', $3, $4::timestamptz - make_interval(mins => $5), $4::timestamptz - make_interval(mins => $5 - 5))`,
      [C, acc, status, NOW.toISOString(), startMin]);
  }
}

/** The project figures again, written another way: one day at a time over generate_series, in SQL and per project. */
async function independentProjects(pool: Pool) {
  const { rows } = await pool.query(
    // the customer's display currency is EUR and no USD rate is stored: only the EUR rows are in the figures
    `WITH keys AS (SELECT DISTINCT project_id, currency FROM cost_daily
                    WHERE customer_id = $1 AND billing_account_id IN ('ACC-A', 'ACC-B') AND usage_date BETWEEN $2::date - 29 AND $2::date AND currency = 'EUR'),
          per_day AS (SELECT k.project_id, k.currency, g.day::date AS day,
                             (SELECT COALESCE(sum(cost) + sum(credits), 0) FROM cost_daily d WHERE d.customer_id = $1 AND d.billing_account_id IN ('ACC-A', 'ACC-B')
                               AND d.project_id = k.project_id AND d.currency = k.currency AND d.usage_date = g.day::date) AS spend
                        FROM keys k CROSS JOIN generate_series($2::date - 29, $2::date, interval '1 day') g(day)),
          first AS (SELECT project_id, currency, min(day) AS first_seen FROM per_day
                     WHERE spend <> 0 OR EXISTS (SELECT 1 FROM cost_daily d WHERE d.customer_id = $1 AND d.project_id = per_day.project_id
                       AND d.currency = per_day.currency AND d.usage_date = per_day.day AND d.billing_account_id IN ('ACC-A', 'ACC-B'))
                     GROUP BY project_id, currency HAVING min(day) <= $2::date - 2)
     SELECT k.project_id, k.currency,
            round((SELECT spend FROM per_day p WHERE p.project_id = k.project_id AND p.currency = k.currency AND p.day = $2::date - 1), 2)::text AS yesterday_spend,
            round(COALESCE((SELECT avg(spend) FROM per_day p WHERE p.project_id = k.project_id AND p.currency = k.currency
                              AND p.day >= f.first_seen AND p.day <= $2::date - 2), 0), 2)::text AS mean_28d,
            COALESCE(($2::date - 1) - f.first_seen, 0) AS mean_days,
            round((SELECT sum(spend) FROM per_day p WHERE p.project_id = k.project_id AND p.currency = k.currency AND p.day >= date_trunc('month', $2::date) AND p.day < $2::date), 2)::text AS month_to_date
       FROM keys k LEFT JOIN first f ON f.project_id = k.project_id AND f.currency = k.currency
      ORDER BY k.project_id, k.currency`,
    [C, TODAY],
  );
  return rows;
}

t.test('health figures agree with independent SQL and hand-counted rows', async (t) => {
  const { pool } = await testEnv(t, { seed: false });
  await seed(pool);
  const f = await healthFigures(pool, C, TODAY, NOW);
  t.match(f, { customer_id: C, today: TODAY, yesterday: '2026-03-14', anomaly_date: '2026-03-13' });

  const expected = await independentProjects(pool);
  t.same(f.projects.map(({ project_name: _n, open_anomalies: _a, ...rest }) => rest), expected, 'spend, mean and month to date');
  t.same(f.projects.map((p) => [p.project_id, p.currency, p.open_anomalies]), [['p-alpha', 'EUR', 2], ['p-beta', 'EUR', 0], ['p-gamma', 'EUR', 0]]);
  t.equal(f.currency, 'EUR');
  t.same(
    f.unconverted,
    [{ currency: 'USD', amount: '11.11', missing_from: '2026-03-12', missing_to: '2026-03-12',
       message: 'No USD to EUR rate within 7 days before the usage days on 2026-03-12: 11.11 USD is not converted and not included in the figures.' }],
    'USD spend without a rate is shown apart, never added',
  );
  const gamma = f.projects.find((p) => p.project_id === 'p-gamma')!;
  t.same(gamma, { project_id: 'p-gamma', project_name: 'Gamma', currency: 'EUR', yesterday_spend: '5.00', mean_28d: '0.00', mean_days: 0, month_to_date: '5.00', open_anomalies: 0 });
  t.equal(f.projects.find((p) => p.project_id === 'p-beta')!.mean_days, 9, 'a young project is averaged over the days since it was first seen');
  t.equal(f.projects.find((p) => p.project_id === 'p-alpha' && p.currency === 'EUR')!.mean_days, 28);
  t.notOk(f.projects.some((p) => p.yesterday_spend.startsWith('999') || p.project_id === 'p-other'), 'other accounts and customers are out');

  const { rows: mtd } = await pool.query<{ s: string }>(
    `SELECT round(sum(cost + credits), 2)::text AS s FROM cost_daily WHERE customer_id = $1 AND billing_account_id = 'ACC-A' AND usage_date >= '2026-03-01' AND usage_date <= $2`,
    [C, TODAY],
  );
  t.same(f.alerts.map((a) => [a.group_by, a.quota, a.month_to_date, a.currency, a.exceeded]), [
    ['service', '100.00', mtd[0].s, 'EUR', true],
    ['service', '100000.00', mtd[0].s, 'EUR', false],
    ['project_label', '10.00', '6.50', 'EUR', false],
  ]);

  t.same(f.tickets, [
    { priority: 'P1', open: 3, awaiting_first_response: 1, oldest_awaiting_minutes: 90, mean_first_response_minutes: 46 },
    { priority: 'P2', open: 2, awaiting_first_response: 2, oldest_awaiting_minutes: 2000, mean_first_response_minutes: null },
    { priority: 'P3', open: 0, awaiting_first_response: 0, oldest_awaiting_minutes: null, mean_first_response_minutes: null },
    { priority: 'P4', open: 0, awaiting_first_response: 0, oldest_awaiting_minutes: null, mean_first_response_minutes: null },
  ]);

  t.same(f.freshness, [
    { billing_account_id: 'ACC-A', last_usage_date: TODAY, last_ingest_at: new Date(NOW.getTime() - 595 * 60_000).toISOString().replace('.000Z', '+00:00'), last_batch_status: 'failed', source: null, last_delivery: null, source_error: null },
    { billing_account_id: 'ACC-B', last_usage_date: TODAY, last_ingest_at: new Date(NOW.getTime() - 115 * 60_000).toISOString().replace('.000Z', '+00:00'), last_batch_status: 'succeeded', source: null, last_delivery: null, source_error: null },
  ]);
  t.same(f.jobs, { failing_ingest_accounts: ['ACC-A'], ticket_sync_failures: 1, anomaly_run_missing: true, monitoring_failed: false, failing: true }, 'ACC-B has no anomaly run');

  await pool.query(`INSERT INTO anomaly_run (customer_id, billing_account_id, date, window_days, min_history_days, judged_series, cold_start_series)
                    VALUES ($1, 'ACC-B', date '${TODAY}' - 3, 28, 7, 0, 0)`, [C]);
  await pool.query(`UPDATE ticket SET sync_state = 'synced' WHERE customer_id = $1`, [C]);
  await pool.query(`INSERT INTO ingest_batch (customer_id, billing_account_id, source, status, started_at) VALUES ($1, 'ACC-A', 'gcp-generated', 'succeeded', now())`, [C]);
  t.same((await healthFigures(pool, C, TODAY, NOW)).jobs, { failing_ingest_accounts: [], ticket_sync_failures: 0, anomaly_run_missing: false, monitoring_failed: false, failing: false }, 'the day before’s run counts');
});

t.test('a customer without billing data has empty figures', async (t) => {
  const { pool } = await testEnv(t, { seed: false });
  await pool.query(`INSERT INTO customer (customer_id, customer_name) VALUES ('empty-co', 'Empty Co')`);
  const f = await healthFigures(pool, 'empty-co', TODAY, NOW);
  t.same([f.projects, f.alerts, f.freshness], [[], [], []]);
  t.equal(f.tickets.length, 4);
  t.equal(f.jobs.failing, false);
});
