/**
 * Issue 19's ingest changes keep the data the same: a windowed source's rollups, now summed from its staged rows,
 * equal the rollups of its lines in cost_line (summed here independently); re-ingesting changes nothing; and deleting
 * a customer still deletes its billing data (a trigger since the per-row foreign keys went, migration 065).
 */
import t from 'tap';
import type { Pool } from '@cc/shared/db/pool.ts';
import { gcpGeneratedSource } from '../../workers/src/billing-ingest/sources/gcp-generator.ts';
import { runIngest } from '../../workers/src/billing-ingest/ingest.ts';
import { testEnv } from '../helper.ts';

const ACME = { customerId: 'acme-corp', billingAccountId: '01A2B3-C4D5E6-F7A8B9', currency: 'EUR' };

const ingest = (pool: Pool, from: string, to: string) =>
  runIngest({ pool, ...ACME, sourceKind: 'gcp-generated', source: gcpGeneratedSource({ ...ACME, from, to }) });

/** Rollup rows that differ from the same sums taken over cost_line (both directions); none when they agree. */
async function rollupMismatches(pool: Pool): Promise<{ daily: number; label: number }> {
  const daily = await pool.query(
    `WITH expected AS (
       SELECT customer_id, billing_account_id, usage_date, provider, max(provider_name) AS provider_name, project_id,
              max(project_name) AS project_name, service, sum(cost) AS cost, sum(credits) AS credits, currency
         FROM cost_line GROUP BY customer_id, billing_account_id, usage_date, provider, project_id, service, currency
     ), actual AS (
       SELECT customer_id, billing_account_id, usage_date, provider, provider_name, project_id, project_name, service, cost, credits, currency FROM cost_daily
     )
     SELECT count(*)::int AS n FROM ((SELECT * FROM expected EXCEPT SELECT * FROM actual) UNION ALL (SELECT * FROM actual EXCEPT SELECT * FROM expected)) d`,
  );
  const label = await pool.query(
    `WITH expected AS (
       SELECT l.customer_id, l.billing_account_id, l.usage_date, l.provider, kv.kind, kv.key, kv.value, l.project_id,
              sum(l.cost) AS cost, sum(l.credits) AS credits, l.currency
         FROM cost_line l
        CROSS JOIN LATERAL (SELECT 'project' AS kind, key, value FROM jsonb_each_text(l.project_labels)
                            UNION ALL SELECT 'resource', key, value FROM jsonb_each_text(l.resource_labels)) kv
        GROUP BY l.customer_id, l.billing_account_id, l.usage_date, l.provider, kv.kind, kv.key, kv.value, l.project_id, l.currency
     ), actual AS (
       SELECT customer_id, billing_account_id, usage_date, provider, label_kind, label_key, label_value, project_id, cost, credits, currency FROM cost_daily_label
     )
     SELECT count(*)::int AS n FROM ((SELECT * FROM expected EXCEPT SELECT * FROM actual) UNION ALL (SELECT * FROM actual EXCEPT SELECT * FROM expected)) d`,
  );
  return { daily: daily.rows[0].n, label: label.rows[0].n };
}

const count = async (pool: Pool, table: string) => (await pool.query(`SELECT count(*)::int AS n FROM ${table} WHERE customer_id = 'acme-corp'`)).rows[0].n as number;

t.test('rollups summed from staging equal the sums of the stored lines, across overlapping windows', async (t) => {
  const { pool } = await testEnv(t);
  await ingest(pool, '2026-03-01', '2026-03-20');
  t.same(await rollupMismatches(pool), { daily: 0, label: 0 });
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

t.test("deleting a customer deletes its cost lines and rollups", async (t) => {
  const { pool } = await testEnv(t);
  await ingest(pool, '2026-03-01', '2026-03-05');
  for (const table of ['cost_line', 'cost_daily', 'cost_daily_label', 'cost_monthly']) t.ok((await count(pool, table)) > 0, `${table} has rows`);
  await pool.query(`DELETE FROM customer WHERE customer_id = 'acme-corp'`);
  for (const table of ['cost_line', 'cost_daily', 'cost_daily_label', 'cost_monthly', 'ingest_batch']) t.equal(await count(pool, table), 0, `${table} is empty`);
});
