/**
 * The faster ingest keeps the data the same: a windowed source's rollups, summed in the worker while its rows
 * load straight into cost_line (rollup-sums.ts), equal the rollups of its lines in cost_line (summed here
 * independently, in SQL, names by max() as the file path's SQL takes them); re-ingesting changes nothing; and
 * deleting a customer still deletes its billing data (a trigger since the per-row foreign keys went, migration 065).
 */
import t from 'tap';
import type { Pool } from '@cc/shared/db/pool.ts';
import type { BillingSource, CostRow } from '@cc/shared/ports/billing-source.ts';
import { gcpGeneratedSource } from '@cc/shared/adapters/bigquery/local.ts';
import { runIngest } from '../../workers/src/billing-ingest/ingest.ts';
import { rebuildRollups } from '@cc/shared/db/billing-ingest/rollups.ts';
import { testEnv } from '../helper.ts';
import { costRow } from '../fixtures/cost-row.ts';

const ACME = { customerId: 'acme-corp', billingAccountId: '01A2B3-C4D5E6-F7A8B9', currency: 'EUR' };

const ingest = (pool: Pool, from: string, to: string) =>
  runIngest({ pool, ...ACME, sourceKind: 'gcp-generated', source: gcpGeneratedSource({ ...ACME, from, to }) });

/** Rollup rows that differ from the same sums taken over cost_line (both directions, duplicates counted); none when they agree. */
async function rollupMismatches(pool: Pool): Promise<{ daily: number; label: number }> {
  const daily = await pool.query(
    `WITH expected AS (
       SELECT customer_id, billing_account_id, usage_date, provider, max(provider_name) AS provider_name, project_id,
              max(project_name) AS project_name, service, sum(cost) AS cost, sum(credits) AS credits, currency, sum(amortisation) AS amortisation
         FROM cost_line GROUP BY customer_id, billing_account_id, usage_date, provider, project_id, service, currency
     ), actual AS (
       SELECT customer_id, billing_account_id, usage_date, provider, provider_name, project_id, project_name, service, cost, credits, currency, amortisation FROM cost_daily
     )
     SELECT count(*)::int AS n FROM ((SELECT * FROM expected EXCEPT ALL SELECT * FROM actual) UNION ALL (SELECT * FROM actual EXCEPT ALL SELECT * FROM expected)) d`,
  );
  const label = await pool.query(
    `WITH expected AS (
       SELECT l.customer_id, l.billing_account_id, l.usage_date, l.provider, kv.kind, kv.key, kv.value, l.project_id,
              sum(l.cost) AS cost, sum(l.credits) AS credits, l.currency, sum(l.amortisation) AS amortisation
         FROM cost_line l
        CROSS JOIN LATERAL (SELECT 'project' AS kind, key, value FROM jsonb_each_text(l.project_labels)
                            UNION ALL SELECT 'resource', key, value FROM jsonb_each_text(l.resource_labels)) kv
        GROUP BY l.customer_id, l.billing_account_id, l.usage_date, l.provider, kv.kind, kv.key, kv.value, l.project_id, l.currency
     ), actual AS (
       SELECT customer_id, billing_account_id, usage_date, provider, label_kind, label_key, label_value, project_id, cost, credits, currency, amortisation FROM cost_daily_label
     )
     SELECT count(*)::int AS n FROM ((SELECT * FROM expected EXCEPT ALL SELECT * FROM actual) UNION ALL (SELECT * FROM actual EXCEPT ALL SELECT * FROM expected)) d`,
  );
  return { daily: daily.rows[0].n, label: label.rows[0].n };
}

/**
 * Rollup rows the worker's sums (rollup-sums.ts) wrote that differ from what the file path's SQL
 * (billing-rebuild-rollups.sql, `rebuildRollups`) makes of the same stored lines: both grouping implementations run
 * over the same lines and are compared row for row, in a transaction rolled back afterwards.
 */
async function rebuildMismatches(pool: Pool): Promise<{ daily: number; label: number }> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query('CREATE TEMP TABLE streamed_daily ON COMMIT DROP AS SELECT * FROM cost_daily');
    await client.query('CREATE TEMP TABLE streamed_label ON COMMIT DROP AS SELECT * FROM cost_daily_label');
    const days = (await client.query<{ d: string }>(`SELECT DISTINCT to_char(usage_date, 'YYYY-MM-DD') AS d FROM cost_line`)).rows.map((r) => r.d);
    await rebuildRollups(client, { billingAccountId: ACME.billingAccountId, days });
    const diff = async (a: string, b: string) =>
      (await client.query(`SELECT count(*)::int AS n FROM ((SELECT * FROM ${a} EXCEPT ALL SELECT * FROM ${b}) UNION ALL (SELECT * FROM ${b} EXCEPT ALL SELECT * FROM ${a})) d`)).rows[0].n as number;
    return { daily: await diff('streamed_daily', 'cost_daily'), label: await diff('streamed_label', 'cost_daily_label') };
  } finally {
    await client.query('ROLLBACK');
    client.release();
  }
}

/**
 * Lines that lie outside every extent of their batch, provider and invoice month (cost_line_extent: where the readers
 * look for a batch's lines), and the extents of `batch` that are not exactly its lines' first and last days.
 */
async function extentMisses(pool: Pool, batch: string): Promise<{ outside: number; inexact: number }> {
  const outside = await pool.query(
    `SELECT count(*)::int AS n FROM cost_line l
      WHERE NOT EXISTS (SELECT 1 FROM cost_line_extent e
                         WHERE e.source_batch = l.source_batch AND e.provider = l.provider AND e.invoice_month = coalesce(l.invoice_month, '')
                           AND e.billing_account_id = l.billing_account_id AND e.customer_id = l.customer_id
                           AND l.usage_date BETWEEN e.first_day AND e.last_day)`,
  );
  const inexact = await pool.query(
    `WITH lines AS (
       SELECT provider, coalesce(invoice_month, '') AS invoice_month, min(usage_date) AS first_day, max(usage_date) AS last_day
         FROM cost_line WHERE source_batch = $1 GROUP BY 1, 2
     ), extents AS (SELECT provider, invoice_month, first_day, last_day FROM cost_line_extent WHERE source_batch = $1)
     SELECT count(*)::int AS n FROM ((SELECT * FROM lines EXCEPT SELECT * FROM extents) UNION ALL (SELECT * FROM extents EXCEPT SELECT * FROM lines)) d`,
    [batch],
  );
  return { outside: outside.rows[0].n, inexact: inexact.rows[0].n };
}

const count = async (pool: Pool, table: string) => (await pool.query(`SELECT count(*)::int AS n FROM ${table} WHERE customer_id = 'acme-corp'`)).rows[0].n as number;

t.test('rollups summed while the rows load equal the sums of the stored lines, across overlapping windows', async (t) => {
  const { pool } = await testEnv(t);
  await ingest(pool, '2026-03-01', '2026-03-20');
  t.same(await rollupMismatches(pool), { daily: 0, label: 0 });
  t.same(await rebuildMismatches(pool), { daily: 0, label: 0 }, "the worker's sums equal the file path's SQL rebuild of the same lines");
  t.ok((await count(pool, 'cost_daily_label')) > 0, 'label rollup rows were written');
  // An overlapping window replaces days 10..20 and adds 21..31: the rollups of the untouched days stay right too.
  await ingest(pool, '2026-03-10', '2026-03-31');
  t.same(await rollupMismatches(pool), { daily: 0, label: 0 });
  const before = (await pool.query(`SELECT (sum(cost) + sum(credits))::text AS s, count(*)::int AS n FROM cost_daily`)).rows[0];
  await ingest(pool, '2026-03-10', '2026-03-31');
  const after = (await pool.query(`SELECT (sum(cost) + sum(credits))::text AS s, count(*)::int AS n FROM cost_daily`)).rows[0];
  t.same(after, before, 'a re-ingest of the same window changes nothing');
  t.same(await rollupMismatches(pool), { daily: 0, label: 0 });
});

/** A windowed source of hand-made rows: renamed projects within a day, amortised figures, 12-decimal and negative amounts. */
function handMade(rows: CostRow[], window: { from: string; to: string }, providers = ['gcp']): BillingSource {
  return {
    label: 'hand-made rows',
    window,
    providers,
    async *rows() {
      let line = 0;
      for (const row of rows) yield { line: ++line, row: { ...row } };
    },
  };
}


t.test('sums made in the worker equal SQL sums: renames within a day, amortisation, undeclared providers', async (t) => {
  const { pool } = await testEnv(t);
  const window = { from: '2026-04-01', to: '2026-04-03' };
  const rows = [
    costRow({}),
    costRow({ project_name: 'Project One (renamed)', cost: '999999.999999999999', credits: '0' }),
    costRow({ project_name: 'Aardvark', sku: 'RAM', effective_cost: '0.5', resource_labels: { shard: 's1', app: 'x' } }),
    costRow({ usage_date: '2026-04-03', invoice_month: '202605', service: 'BigQuery', cost: '-3', credits: '-0.000000000001', effective_cost: '12.123456789012', resource_labels: { shard: 's1' } }),
    costRow({ project_id: 'p2', project_name: 'Two', project_labels: {}, resource_labels: { shard: 's2' } }),
    costRow({ provider: 'aws', provider_name: 'AWS', project_id: 'a1', currency: 'USD', invoice_month: null, project_labels: { team: 'web' } }),
    // another resource label set sharing shard=s1 with the third row: their pairs merge after the expansion
    costRow({ sku: 'Disk', effective_cost: '2', resource_labels: { shard: 's1' } }),
  ];
  const first = await runIngest({ pool, ...ACME, sourceKind: 'gcp-generated', source: handMade(rows, window) });
  t.same(await rollupMismatches(pool), { daily: 0, label: 0 });
  t.same(await rebuildMismatches(pool), { daily: 0, label: 0 }, "the worker's sums equal the file path's SQL rebuild of the same lines");
  t.same(await extentMisses(pool, first.batchId), { outside: 0, inexact: 0 }, 'the extents are where the lines are');
  const names = (await pool.query(`SELECT project_name FROM cost_daily WHERE project_id = 'p1' AND usage_date = '2026-04-02'`)).rows;
  t.same(names, [{ project_name: 'Project One (renamed)' }], 'the greatest name of the day, as max() picks it');
  const amort = (await pool.query(`SELECT sum(amortisation)::text AS a FROM cost_daily WHERE project_id = 'p1'`)).rows[0].a;
  t.equal(amort, '16.123456789011', 'amortised minus billed, per line, summed: (0.5 - 0.750000000001) + (12.123456789012 + 3.000000000001) + (2 - 0.750000000001)');

  // The same window again with one row less: the older lines of every slice go, the undeclared provider's too.
  const again = await runIngest({ pool, ...ACME, sourceKind: 'gcp-generated', source: handMade(rows.slice(1), window) });
  t.same(await rollupMismatches(pool), { daily: 0, label: 0 });
  t.same(await extentMisses(pool, again.batchId), { outside: 0, inexact: 0 }, 'the extents are where the lines are, after a replacement');
  t.equal((await pool.query(`SELECT count(*)::int AS n FROM cost_line`)).rows[0].n, rows.length - 1, 'no line twice');
  // And without a window (the bench's source): its days and providers come from its rows.
  await runIngest({ pool, ...ACME, sourceKind: 'gcp-generated', source: { ...handMade(rows.slice(2), window), window: undefined } });
  t.same(await rollupMismatches(pool), { daily: 0, label: 0 });
  t.equal((await pool.query(`SELECT count(*)::int AS n FROM cost_line`)).rows[0].n, rows.length - 2, 'the slices of its rows replaced: its own 5 lines');
});

t.test('the database refuses a provider id or currency code of the wrong shape in the daily rollups (migration 101)', async (t) => {
  const { pool } = await testEnv(t);
  const insert = (table: string, provider: string, currency: string) =>
    table === 'cost_daily'
      ? pool.query(
          `INSERT INTO cost_daily (customer_id, billing_account_id, usage_date, provider, provider_name, project_id, project_name, service, cost, credits, currency)
           VALUES ('acme-corp', 'acct', '2026-04-01', $1, 'x', 'p', 'p', 's', 1, 0, $2)`,
          [provider, currency],
        )
      : pool.query(
          `INSERT INTO cost_daily_label (customer_id, billing_account_id, usage_date, provider, label_kind, label_key, label_value, project_id, cost, credits, currency)
           VALUES ('acme-corp', 'acct', '2026-04-01', $1, 'project', 'k', 'v', 'p', 1, 0, $2)`,
          [provider, currency],
        );
  for (const table of ['cost_daily', 'cost_daily_label']) {
    await t.rejects(insert(table, 'Oracle Cloud', 'EUR'), { code: '23514' }, `${table}: provider`);
    await t.rejects(insert(table, 'oracle', 'eur'), { code: '23514' }, `${table}: currency`);
    await t.resolves(insert(table, 'oracle', 'EUR'), `${table}: a good row`);
  }
});

t.test("deleting a customer deletes its cost lines and rollups", async (t) => {
  const { pool } = await testEnv(t);
  await ingest(pool, '2026-03-01', '2026-03-05');
  for (const table of ['cost_line', 'cost_daily', 'cost_daily_label', 'cost_monthly', 'cost_monthly_label']) t.ok((await count(pool, table)) > 0, `${table} has rows`);
  await pool.query(`DELETE FROM customer WHERE customer_id = 'acme-corp'`);
  for (const table of ['cost_line', 'cost_daily', 'cost_daily_label', 'cost_monthly', 'cost_monthly_label', 'ingest_batch']) t.equal(await count(pool, table), 0, `${table} is empty`);
});
