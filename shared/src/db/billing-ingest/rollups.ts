/**
 * The rollups of the replaced slices: written from the sums a load's rows made while they streamed in (rollup-sums.ts
 * in the worker) where those rows are all the slice holds, or rebuilt in SQL from the account's cost lines where a
 * file's slice keeps lines of other batches; the monthly rollups then follow from the daily ones.
 * docs/decisions-billing.md ("Two groupings of the daily rollups") says why both exist.
 */
import type { PoolClient } from 'pg';
import type { Queryable } from '../pool.ts';
import { loadSql } from '../load-sql.ts';
import { copyRows } from './copy.ts';

const REBUILD_MONTHLY_SQL = loadSql('billing-rebuild-monthly').text;
const REBUILD_MONTHLY_LABEL_SQL = loadSql('billing-rebuild-monthly-label').text;

/**
 * Where the rollup rebuild reads its lines ($1 billing account, $2 days): only the columns the rollups use, since the
 * statement materialises its lines once, and SKUs and resource ids are wide. A new rolled-up column is added here.
 */
const ROLLUP_LINES =
  'SELECT customer_id, billing_account_id, usage_date, provider, provider_name, project_id, project_name, service, cost, credits, currency, project_labels, resource_labels, amortisation FROM cost_line WHERE billing_account_id = $1 AND usage_date = ANY($2::date[])';
const ROLLUPS_FROM_LINES = loadSql('billing-rebuild-rollups', { LINES: ROLLUP_LINES }).text;
// the same, of some providers only ($3)
const ROLLUPS_FROM_SLICE_LINES = loadSql('billing-rebuild-rollups', { LINES: `${ROLLUP_LINES} AND provider = ANY($3::text[])` }).text;

// The columns of the rollup rows the worker writes (after the constant customer and account).
const DAILY_COLUMNS = ['usage_date', 'provider', 'provider_name', 'project_id', 'project_name', 'service', 'currency', 'cost', 'credits', 'amortisation'] as const;
const LABEL_COLUMNS = ['usage_date', 'provider', 'label_kind', 'label_key', 'label_value', 'project_id', 'currency', 'cost', 'credits', 'amortisation'] as const;

const monthsOf = `SELECT DISTINCT date_trunc('month', d)::date FROM unnest($2::date[]) AS d`;

/** Rebuilds cost_monthly and cost_monthly_label for the months of `days` from the daily rollups (read by the 12-month charts). */
async function rebuildMonthly(tx: PoolClient, billingAccountId: string, days: string[]): Promise<void> {
  if (days.length === 0) return;
  const params = [billingAccountId, days];
  await tx.query(`DELETE FROM cost_monthly WHERE billing_account_id = $1 AND month IN (${monthsOf})`, params);
  await tx.query(REBUILD_MONTHLY_SQL, params);
  await tx.query(`DELETE FROM cost_monthly_label WHERE billing_account_id = $1 AND month IN (${monthsOf})`, params);
  await tx.query(REBUILD_MONTHLY_LABEL_SQL, params);
}

/**
 * Rebuilds cost_daily and cost_daily_label for exactly `days` of the account from its cost lines, and the monthly
 * rollups for their months. Files take this path: a file's days may keep lines of earlier batches (corrections, other
 * billing periods), so only the lines themselves know the days' sums.
 */
export async function rebuildRollups(tx: PoolClient, s: { billingAccountId: string; days: string[] }): Promise<void> {
  const params = [s.billingAccountId, s.days];
  await tx.query('DELETE FROM cost_daily WHERE billing_account_id = $1 AND usage_date = ANY($2::date[])', params);
  await tx.query('DELETE FROM cost_daily_label WHERE billing_account_id = $1 AND usage_date = ANY($2::date[])', params);
  // Label sets are grouped by jsonb and the label rows by text: sorting those (collation-aware comparisons) took most
  // of the rebuild, and the planner, misled by jsonb_each_text's default estimate of 100 rows, chose it. Hashing is
  // exact too. JIT only adds compile time to statements that run once (off for the rest of the transaction).
  await tx.query('SET LOCAL enable_sort = off');
  await tx.query('SET LOCAL jit = off');
  await tx.query(ROLLUPS_FROM_LINES, params);
  await rebuildMonthly(tx, s.billingAccountId, s.days);
  await tx.query('SET LOCAL enable_sort = on');
}

/** A cost_daily row of one account, as the ingest writes it (money as decimal text). */
export interface DailyRollupRow {
  usage_date: string;
  provider: string;
  provider_name: string;
  project_id: string;
  project_name: string;
  service: string;
  currency: string;
  cost: string;
  credits: string;
  amortisation: string;
}

/** A cost_daily_label row of one account, as the ingest writes it (money as decimal text). */
export interface LabelRollupRow {
  usage_date: string;
  provider: string;
  label_kind: 'project' | 'resource';
  label_key: string;
  label_value: string;
  project_id: string;
  currency: string;
  cost: string;
  credits: string;
  amortisation: string;
}

/**
 * Replaces the daily rollups of a windowed source's (day, provider) slices with the sums its rows made while they
 * were loaded (RollupSums): those rows are every line the slices now hold, so nothing is read back. Then the monthly
 * rollups of their months, from the daily ones.
 */
export async function replaceRollups(
  tx: PoolClient,
  s: { customerId: string; billingAccountId: string; days: string[]; providers: string[]; daily: Iterable<DailyRollupRow>; labels: Iterable<LabelRollupRow> },
): Promise<void> {
  const scope = 'billing_account_id = $1 AND usage_date = ANY($2::date[]) AND provider = ANY($3::text[])';
  const params = [s.billingAccountId, s.days, s.providers];
  await tx.query(`DELETE FROM cost_daily WHERE ${scope}`, params);
  await tx.query(`DELETE FROM cost_daily_label WHERE ${scope}`, params);
  const constant = { customer_id: s.customerId, billing_account_id: s.billingAccountId };
  await copyRows(tx, 'cost_daily', DAILY_COLUMNS, constant, s.daily);
  await copyRows(tx, 'cost_daily_label', LABEL_COLUMNS, constant, s.labels);
  await tx.query('SET LOCAL enable_sort = off');
  await rebuildMonthly(tx, s.billingAccountId, s.days);
  await tx.query('SET LOCAL enable_sort = on');
}

/**
 * The rollups of a file's (day, provider) slices, then the monthly rollups of their months (`days`). `summed`: the
 * slices whose every line is the file's (day and provider pairs, parallel arrays), written from the sums its rows
 * made (only those slices' rows). `rebuilt`: every slice of these days and providers, rebuilt from the stored lines
 * in SQL, since they keep lines of other batches (corrections, other billing periods) that the worker never saw.
 */
export async function writeFileRollups(
  tx: PoolClient,
  s: {
    customerId: string;
    billingAccountId: string;
    days: string[];
    summed: { days: string[]; providers: string[]; daily: Iterable<DailyRollupRow>; labels: Iterable<LabelRollupRow> };
    rebuilt: { days: string[]; providers: string[] };
  },
): Promise<void> {
  if (s.summed.days.length > 0) {
    const pairs = 'USING unnest($2::date[], $3::text[]) AS s(day, provider) WHERE r.billing_account_id = $1 AND r.usage_date = s.day AND r.provider = s.provider';
    const params = [s.billingAccountId, s.summed.days, s.summed.providers];
    await tx.query(`DELETE FROM cost_daily r ${pairs}`, params);
    await tx.query(`DELETE FROM cost_daily_label r ${pairs}`, params);
    const constant = { customer_id: s.customerId, billing_account_id: s.billingAccountId };
    await copyRows(tx, 'cost_daily', DAILY_COLUMNS, constant, s.summed.daily);
    await copyRows(tx, 'cost_daily_label', LABEL_COLUMNS, constant, s.summed.labels);
  }
  // as in rebuildRollups: hash aggregation, no JIT, for the rest of the transaction (sorts back on below)
  await tx.query('SET LOCAL enable_sort = off');
  await tx.query('SET LOCAL jit = off');
  if (s.rebuilt.days.length > 0) {
    const scope = 'billing_account_id = $1 AND usage_date = ANY($2::date[]) AND provider = ANY($3::text[])';
    const params = [s.billingAccountId, s.rebuilt.days, s.rebuilt.providers];
    await tx.query(`DELETE FROM cost_daily WHERE ${scope}`, params);
    await tx.query(`DELETE FROM cost_daily_label WHERE ${scope}`, params);
    await tx.query(ROLLUPS_FROM_SLICE_LINES, params);
  }
  await rebuildMonthly(tx, s.billingAccountId, s.days);
  await tx.query('SET LOCAL enable_sort = on');
}

/** The greatest of each list of names in the database's collation (what `max()` of the rollup SQL picks). */
export async function greatestNames(db: Queryable, lists: string[][]): Promise<string[]> {
  const { rows } = await db.query<{ i: number; name: string }>(
    'SELECT u.i, max(u.name) AS name FROM unnest($1::int[], $2::text[]) AS u(i, name) GROUP BY u.i ORDER BY u.i',
    [lists.flatMap((l, i) => l.map(() => i)), lists.flat()],
  );
  return rows.map((r) => r.name);
}

/** Planner statistics of the rollups the charts read (after a big load; autovacuum's thresholds lag behind it). */
export async function analyzeRollups(client: PoolClient): Promise<void> {
  await client.query('ANALYZE cost_daily, cost_daily_label, cost_monthly, cost_monthly_label');
}
