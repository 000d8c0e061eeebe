/**
 * FOCUS files load straight into cost_line with their rollups summed on the way, and only the slices that keep lines
 * of other batches are rebuilt from the lines in SQL. Whatever path a slice took, every daily, label and monthly
 * rollup row equals the sums of the stored lines (taken here independently, in SQL), through a sequence of exports,
 * another provider on the same days, a correction file, its duplicate, a re-delivered export missing a day, rows
 * without a billing period, and the same with the sums given up (too many groups for the worker's memory). And a first
 * load writes each line once and reads none back.
 */
import t, { type Test } from 'tap';
import type { Pool } from '@cc/shared/db/pool.ts';
import type { BillingSource, CostRow } from '@cc/shared/ports/billing-source.ts';
import { batchTotals } from '@cc/shared/db/billing-ingest/batches.ts';
import { runIngest, type IngestSummary } from '../../workers/src/billing-ingest/ingest.ts';
import { testEnv } from '../helper.ts';
import { costRow } from '../fixtures/cost-row.ts';

const ACME = { customerId: 'acme-corp', billingAccountId: '01A2B3-C4D5E6-F7A8B9' };

/** A FOCUS file as the ingest sees it: rows with their lines, no window, no declared providers. */
function file(rows: CostRow[]): BillingSource {
  return {
    label: 'hand-made file',
    async *rows() {
      let line = 1;
      for (const row of rows) yield { line: ++line, row: { ...row } };
    },
  };
}

let hashes = 0;
const load = (pool: Pool, rows: CostRow[], opts: { fileHash?: string; rollupLimit?: number } = {}) =>
  runIngest({ pool, ...ACME, sourceKind: 'focus-file', source: file(rows), fileName: 'f.csv', fileHash: opts.fileHash ?? `hash-${++hashes}`, rollupLimit: opts.rollupLimit });

/** Rows of a table (a query's columns) that differ from the same rows computed from cost_line; 0 when they agree. */
async function differ(pool: Pool, expected: string, actual: string): Promise<number> {
  const { rows } = await pool.query(
    `WITH expected AS (${expected}), actual AS (${actual})
     SELECT count(*)::int AS n FROM ((SELECT * FROM expected EXCEPT ALL SELECT * FROM actual) UNION ALL (SELECT * FROM actual EXCEPT ALL SELECT * FROM expected)) d`,
  );
  return rows[0].n;
}

const LABELS = `CROSS JOIN LATERAL (SELECT 'project' AS kind, key, value FROM jsonb_each_text(l.project_labels)
                            UNION ALL SELECT 'resource', key, value FROM jsonb_each_text(l.resource_labels)) kv`;

/** Mismatched rows of each rollup against the sums of the stored lines (names by max(), as the rollups take them). */
async function mismatches(pool: Pool): Promise<{ daily: number; label: number; monthly: number; monthlyLabel: number }> {
  return {
    daily: await differ(
      pool,
      `SELECT customer_id, billing_account_id, usage_date, provider, max(provider_name), project_id, max(project_name), service,
              sum(cost), sum(credits), currency, sum(amortisation)
         FROM cost_line GROUP BY customer_id, billing_account_id, usage_date, provider, project_id, service, currency`,
      `SELECT customer_id, billing_account_id, usage_date, provider, provider_name, project_id, project_name, service, cost, credits, currency, amortisation FROM cost_daily`,
    ),
    label: await differ(
      pool,
      `SELECT l.customer_id, l.billing_account_id, l.usage_date, l.provider, kv.kind, kv.key, kv.value, l.project_id,
              sum(l.cost), sum(l.credits), l.currency, sum(l.amortisation)
         FROM cost_line l ${LABELS}
        GROUP BY l.customer_id, l.billing_account_id, l.usage_date, l.provider, kv.kind, kv.key, kv.value, l.project_id, l.currency`,
      `SELECT customer_id, billing_account_id, usage_date, provider, label_kind, label_key, label_value, project_id, cost, credits, currency, amortisation FROM cost_daily_label`,
    ),
    monthly: await differ(
      pool,
      `SELECT customer_id, billing_account_id, date_trunc('month', usage_date)::date, provider, max(provider_name), project_id, max(project_name),
              service, sum(cost), sum(credits), currency, sum(amortisation)
         FROM cost_line GROUP BY customer_id, billing_account_id, date_trunc('month', usage_date)::date, provider, project_id, service, currency`,
      `SELECT customer_id, billing_account_id, month, provider, provider_name, project_id, project_name, service, cost, credits, currency, amortisation FROM cost_monthly`,
    ),
    monthlyLabel: await differ(
      pool,
      `SELECT l.customer_id, l.billing_account_id, date_trunc('month', l.usage_date)::date, l.provider, kv.kind, kv.key, kv.value, l.project_id,
              sum(l.cost), sum(l.credits), l.currency, sum(l.amortisation)
         FROM cost_line l ${LABELS}
        GROUP BY l.customer_id, l.billing_account_id, date_trunc('month', l.usage_date)::date, l.provider, kv.kind, kv.key, kv.value, l.project_id, l.currency`,
      `SELECT customer_id, billing_account_id, month, provider, label_kind, label_key, label_value, project_id, cost, credits, currency, amortisation FROM cost_monthly_label`,
    ),
  };
}

const EXACT = { daily: 0, label: 0, monthly: 0, monthlyLabel: 0 };

const aws = (over: Partial<CostRow>) =>
  costRow({ provider: 'aws', provider_name: 'AWS', currency: 'USD', invoice_month: '202605', project_id: 'acct-1', project_name: 'Shop', project_labels: {}, ...over });
const azure = (over: Partial<CostRow>) =>
  costRow({ provider: 'azure', provider_name: 'Microsoft', currency: 'USD', invoice_month: '202605', project_id: 'sub-1', project_name: 'Web', project_labels: {}, ...over });

/** An AWS export of May 2026: three days, two accounts, renamed within a day, tags, amortisation, 12 decimals. */
const mayExport = (scale: string, days = ['2026-05-01', '2026-05-02', '2026-05-03']) =>
  days.flatMap((day) => [
    aws({ usage_date: day, service: 'EC2', sku: 'm5', cost: `${scale}.000000000001`, credits: '-0.5', resource_id: 'i-1', resource_labels: { team: 'web', env: 'prod' } }),
    aws({ usage_date: day, service: 'EC2', sku: 'gp3', cost: '2', effective_cost: '1.25', resource_id: 'vol-1', resource_labels: { team: 'web' } }),
    aws({ usage_date: day, service: 'S3', sku: 'std', project_name: 'Shop (renamed)', cost: '0.333333333333', resource_labels: {} }),
    aws({ usage_date: day, project_id: 'acct-2', project_name: 'Data', service: 'EC2', sku: 'c5', cost: `${scale}`, resource_labels: { team: 'data' } }),
  ]);

/** The summary's totals equal the batch's lines summed in SQL (batchTotals). */
async function totalsAgree(t: Test, pool: Pool, s: IngestSummary, what: string) {
  t.same(s.totals, await batchTotals(pool, s.batchId), `${what}: the totals are the batch's lines summed`);
}

t.test("a file's rollups equal the sums of the stored lines, whichever slices were summed and which rebuilt", async (t) => {
  const { pool } = await testEnv(t);
  const lines = async () => (await pool.query(`SELECT count(*)::int AS n FROM cost_line`)).rows[0].n as number;

  const first = await load(pool, mayExport('10'));
  t.same(await mismatches(pool), EXACT, 'a first export (every slice summed)');
  t.match(first, { rows: 12, days: 3, from: '2026-05-01', to: '2026-05-03', mode: 'replace', billingPeriods: ['202605'] });
  await totalsAgree(t, pool, first, 'first export');

  const other = await load(pool, [azure({ usage_date: '2026-05-02', service: 'VM', cost: '7' }), azure({ usage_date: '2026-05-04', service: 'VM', cost: '8', resource_labels: { team: 'web' } })]);
  t.same(await mismatches(pool), EXACT, "another provider's export on the same days leaves AWS's slices as they were");
  t.match(other, { days: 2, from: '2026-05-02', to: '2026-05-04' });

  const correction = [
    aws({ usage_date: '2026-05-02', invoice_month: '202606', service: 'EC2', sku: 'm5', cost: '-3', credits: '0', resource_id: 'i-1', correction: true, resource_labels: { team: 'web', env: 'prod' } }),
    aws({ usage_date: '2026-05-02', invoice_month: '202606', service: 'EC2', sku: 'm5', cost: '3', credits: '0', resource_id: 'i-2', correction: true, resource_labels: { team: 'data' } }),
  ];
  const corrected = await load(pool, correction, { fileHash: 'correction' });
  t.same(await mismatches(pool), EXACT, 'a correction file adds to a day holding an export (rebuilt from the lines)');
  t.match(corrected, { mode: 'append', days: 1, duplicateOf: null });
  await totalsAgree(t, pool, corrected, 'correction');
  const before = await lines();
  const again = await load(pool, correction, { fileHash: 'correction' });
  t.match(again, { duplicateOf: corrected.batchId, days: 0 }, 'the same correction file again is a duplicate');
  t.equal(await lines(), before, 'and loads nothing');
  t.same(await mismatches(pool), EXACT);

  // Re-delivered without 3 May: 1 May is the file's alone (summed), 2 May keeps the correction's lines (rebuilt),
  // 3 May loses its AWS lines (cleared) while Azure's 2 and 4 May stay.
  const redelivered = await load(pool, mayExport('20', ['2026-05-01', '2026-05-02']));
  t.same(await mismatches(pool), EXACT, 'a re-delivered export: summed, rebuilt and emptied slices');
  t.match(redelivered, { rows: 8, days: 3, from: '2026-05-01', to: '2026-05-03', billingPeriods: ['202605'] });
  await totalsAgree(t, pool, redelivered, 're-delivered export');
  t.same((await pool.query(`SELECT provider FROM cost_daily WHERE usage_date = '2026-05-03'`)).rows, [], 'nothing left on 3 May');
  t.equal(
    (await pool.query(`SELECT sum(cost)::text AS c FROM cost_line WHERE provider = 'aws' AND usage_date = '2026-05-02' AND resource_id LIKE 'i-%'`)).rows[0].c,
    '20.000000000001',
    "the correction's lines stay beside the new export's",
  );

  const noPeriod = await load(pool, [aws({ usage_date: '2026-05-04', invoice_month: null, service: 'Lambda', cost: '0.1' })]);
  t.same(await mismatches(pool), EXACT, 'rows without a billing period replace their days');
  t.match(noPeriod, { days: 1, billingPeriods: [] });
  const noPeriodAgain = await load(pool, [aws({ usage_date: '2026-05-04', invoice_month: null, service: 'Lambda', cost: '0.2' })]);
  t.same(await mismatches(pool), EXACT, 'and again: the older ones go');
  await totalsAgree(t, pool, noPeriodAgain, 'rows without a period');

  // The worker gives its sums up past the limit: every slice is rebuilt from the lines, the totals read from them.
  const overflowed = await load(pool, mayExport('30', ['2026-05-01', '2026-05-02', '2026-05-05']), { rollupLimit: 1 });
  t.same(await mismatches(pool), EXACT, 'sums given up: every slice rebuilt from its lines');
  t.match(overflowed, { rows: 12, days: 3, from: '2026-05-01', to: '2026-05-05' });
  await totalsAgree(t, pool, overflowed, 'sums given up');
});

/** cost_line's counters in pg_stat_user_tables (shared once the ingest's connection has flushed them). */
async function lineStats(pool: Pool): Promise<{ inserted: number; read: number }> {
  const { rows } = await pool.query<{ inserted: number; read: number }>(
    `SELECT n_tup_ins::int AS inserted, (seq_tup_read + coalesce(idx_tup_fetch, 0))::int AS read FROM pg_stat_user_tables WHERE relname = 'cost_line'`,
  );
  return rows[0];
}

t.test('a first load writes each line once and reads none of them back (rollups and totals from its own sums)', async (t) => {
  const { pool } = await testEnv(t);
  const rows = Array.from({ length: 30 }, (_, d) => mayExport(String(d + 1), [`2026-05-${String(d + 1).padStart(2, '0')}`])).flat();
  const before = await lineStats(pool);
  const summary = await load(pool, rows);
  // A backend publishes its counters within seconds of going idle: wait until the load's inserts show.
  let after = await lineStats(pool);
  for (let i = 0; i < 60 && after.inserted - before.inserted < rows.length; i++) {
    await new Promise((r) => setTimeout(r, 500));
    after = await lineStats(pool);
  }
  t.equal(summary.rows, rows.length);
  t.same({ inserted: after.inserted - before.inserted, read: after.read - before.read }, { inserted: rows.length, read: 0 });
  t.same(await mismatches(pool), EXACT);
});
