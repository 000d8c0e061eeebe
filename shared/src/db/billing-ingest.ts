/**
 * Billing ingest repository: batches, the session-local staging table that COPY fills, the slice
 * replacement and the rollup rebuild. The caller owns connections and transactions and passes them in.
 */
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import { from as copyFrom } from 'pg-copy-streams';
import type { PoolClient } from 'pg';
import type { Queryable } from './pool.ts';
import { loadSql } from './load-sql.ts';
import type { CostRow } from '../ports/billing-source.ts';

const REBUILD_MONTHLY_SQL = loadSql('billing-rebuild-monthly').text;
const REBUILD_MONTHLY_LABEL_SQL = loadSql('billing-rebuild-monthly-label').text;

export type IngestSourceKind = 'focus-file' | 'gcp-generated' | 'bigquery';

export async function startBatch(
  db: Queryable,
  b: { customerId: string; billingAccountId: string; source: IngestSourceKind; fileName?: string | null; fileHash?: string | null },
): Promise<string> {
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO ingest_batch (customer_id, billing_account_id, source, file_name, file_hash) VALUES ($1, $2, $3, $4, $5) RETURNING id`,
    [b.customerId, b.billingAccountId, b.source, b.fileName ?? null, b.fileHash ?? null],
  );
  return rows[0].id;
}

/** What a file means for what is already loaded (docs/decisions-billing.md, "Files: exports, corrections, duplicates"). */
export type IngestMode = 'replace' | 'append';

export async function markBatchSucceeded(
  tx: Queryable,
  id: string,
  rowCount: number,
  daysReplaced: number,
  how: { mode: IngestMode; billingPeriods: string[] } = { mode: 'replace', billingPeriods: [] },
): Promise<void> {
  await tx.query(
    `UPDATE ingest_batch SET status = 'succeeded', row_count = $2, days_replaced = $3, mode = $4, billing_periods = $5, finished_at = now()
     WHERE id = $1`,
    [id, rowCount, daysReplaced, how.mode, how.billingPeriods],
  );
}

/** The file's content was loaded before as `duplicateOf` (a correction file): nothing was loaded this time. */
export async function markBatchDuplicate(tx: Queryable, id: string, rowCount: number, mode: IngestMode, duplicateOf: string): Promise<void> {
  await tx.query(`UPDATE ingest_batch SET status = 'duplicate', row_count = $2, mode = $3, duplicate_of = $4, finished_at = now() WHERE id = $1`, [
    id,
    rowCount,
    mode,
    duplicateOf,
  ]);
}

/**
 * An earlier batch of the account that appended this very content (same SHA-256) and whose lines are still there,
 * or null. Called under the account's lock, so two runs of one correction file cannot both append it. Its lines are
 * looked for within its extents (cost_line_extent), by the (account, day) index.
 */
export async function findAppendedFile(tx: Queryable, billingAccountId: string, fileHash: string): Promise<string | null> {
  const { rows } = await tx.query<{ id: string }>(
    `SELECT b.id FROM ingest_batch b
     WHERE b.billing_account_id = $1 AND b.file_hash = $2 AND b.mode = 'append' AND b.status = 'succeeded'
       AND EXISTS (SELECT 1 FROM cost_line_extent e
                    WHERE e.source_batch = b.id
                      AND EXISTS (SELECT 1 FROM cost_line c
                                   WHERE c.billing_account_id = $1 AND c.usage_date BETWEEN e.first_day AND e.last_day AND c.source_batch = b.id))
     ORDER BY b.id LIMIT 1`,
    [billingAccountId, fileHash],
  );
  return rows[0]?.id ?? null;
}

/** Where a batch's lines of one provider and invoice month lie: a cost_line_extent row (migration 100). */
export interface LineExtent {
  provider: string;
  /** '' for lines without one. */
  invoice_month: string;
  first_day: string;
  last_day: string;
}

/** Records where a windowed source's batch put its lines (the extents its rows were summed into). */
export async function saveExtents(tx: Queryable, b: { customerId: string; billingAccountId: string; batchId: string }, extents: LineExtent[]): Promise<void> {
  if (extents.length === 0) return;
  await tx.query(
    `INSERT INTO cost_line_extent (source_batch, customer_id, billing_account_id, provider, invoice_month, first_day, last_day)
     SELECT $1, $2, $3, e.provider, e.invoice_month, e.first_day, e.last_day
       FROM unnest($4::text[], $5::text[], $6::date[], $7::date[]) AS e(provider, invoice_month, first_day, last_day)`,
    [
      b.batchId,
      b.customerId,
      b.billingAccountId,
      extents.map((e) => e.provider),
      extents.map((e) => e.invoice_month),
      extents.map((e) => e.first_day),
      extents.map((e) => e.last_day),
    ],
  );
}

/** Records where a file's batch put its lines: the extents of the staged rows. */
async function saveStagedExtents(tx: Queryable, b: { customerId: string; billingAccountId: string; batchId: string }): Promise<void> {
  await tx.query(
    `INSERT INTO cost_line_extent (source_batch, customer_id, billing_account_id, provider, invoice_month, first_day, last_day)
     SELECT $1, $2, $3, provider, coalesce(invoice_month, ''), min(usage_date), max(usage_date)
       FROM cost_line_staging GROUP BY provider, coalesce(invoice_month, '')`,
    [b.batchId, b.customerId, b.billingAccountId],
  );
}

export async function markBatchRejected(db: Queryable, id: string, rowCount: number, error: { errors: { line: number; reason: string }[]; error_count: number }): Promise<void> {
  await db.query(`UPDATE ingest_batch SET status = 'rejected', row_count = $2, error = $3, finished_at = now() WHERE id = $1`, [
    id,
    rowCount,
    JSON.stringify(error),
  ]);
}

export async function markBatchFailed(db: Queryable, id: string, message: string): Promise<void> {
  await db.query(`UPDATE ingest_batch SET status = 'failed', error = $2, finished_at = now() WHERE id = $1 AND status = 'running'`, [
    id,
    JSON.stringify({ message }),
  ]);
}

/**
 * The columns a source row fills, in COPY order: name, staging type, and the row's value as COPY text (null: \N).
 * The one list the COPY line (`toCopyLine`), the staging table and the benchmark's raw-COPY table derive from, so they
 * cannot drift apart; a new column a source feeds is added here (and to `insertStaged`, and the rollups if rolled up).
 */
export const COPY_COLUMNS: readonly (readonly [name: string, type: string, value: (r: CostRow) => string | null])[] = [
  ['provider', 'text NOT NULL', (r) => r.provider],
  ['provider_name', 'text NOT NULL', (r) => r.provider_name],
  ['usage_date', 'date NOT NULL', (r) => r.usage_date],
  ['project_id', 'text NOT NULL', (r) => r.project_id],
  ['project_name', 'text NOT NULL', (r) => r.project_name],
  ['service', 'text NOT NULL', (r) => r.service],
  ['sku', 'text NOT NULL', (r) => r.sku],
  ['cost', 'numeric(24,12) NOT NULL', (r) => r.cost],
  ['credits', 'numeric(24,12) NOT NULL', (r) => r.credits],
  ['currency', 'text NOT NULL', (r) => r.currency],
  ['invoice_month', 'text', (r) => r.invoice_month],
  ['cost_type', 'text', (r) => r.cost_type],
  ['project_labels', 'jsonb NOT NULL', (r) => JSON.stringify(r.project_labels)],
  ['resource_labels', 'jsonb NOT NULL', (r) => JSON.stringify(r.resource_labels)],
  ['resource_id', 'text NOT NULL', (r) => r.resource_id ?? ''],
  ['correction', 'boolean NOT NULL', (r) => (r.correction ? 't' : 'f')],
  // FOCUS EffectiveCost; null where the source has none (amortised = billed then, see insertStaged)
  ['effective_cost', 'numeric(24,12)', (r) => r.effective_cost ?? null],
];

/** `CREATE ... TABLE <name> (<COPY_COLUMNS>)`; `kind` e.g. 'TEMP' or 'UNLOGGED'. */
export function copyTableDdl(name: string, kind = ''): string {
  return `CREATE ${kind} TABLE ${name} (${COPY_COLUMNS.map(([c, t]) => `${c} ${t}`).join(', ')})`;
}

/** `COPY <name> (<COPY_COLUMNS>) FROM STDIN`. */
export function copyFromStdin(name: string): string {
  return `COPY ${name} (${COPY_COLUMNS.map(([c]) => c).join(', ')}) FROM STDIN`;
}

/**
 * Creates the session-local staging table. Temporary tables are private to the connection and skip
 * the WAL, so a rejected or crashed load leaves nothing behind in shared tables; pooled connections
 * are reused, hence the drop first.
 */
export async function createStaging(client: PoolClient): Promise<void> {
  await client.query('DROP TABLE IF EXISTS cost_line_staging');
  await client.query(copyTableDdl('cost_line_staging', 'TEMP'));
}

export async function dropStaging(client: PoolClient): Promise<void> {
  await client.query('DROP TABLE IF EXISTS cost_line_staging');
}

// The cost_line columns a source row fills: the staging columns but the file-only ones (a correction flag decides a
// file's mode; the amortised figure is stored as `amortisation`, computed by the caller).
const LINE_COLUMNS = COPY_COLUMNS.filter(([name]) => name !== 'correction' && name !== 'effective_cost');

/** What the ingest computed for a row once and shares between its COPY line and its sums. */
export interface LineExtras {
  /** Amortised minus billed (0 without an amortised figure), decimal text. */
  amortisation: string;
  /** The row's label objects as JSON text. */
  project_labels: string;
  resource_labels: string;
}

/** The cost_line columns `costLineCopy` writes, in its lines' order. */
export const COST_LINE_COPY_COLUMNS = ['customer_id', 'billing_account_id', 'source_batch', ...LINE_COLUMNS.map(([c]) => c), 'amortisation'] as const;

/**
 * COPY of a windowed source's rows straight into `cost_line` (no staging, issue 19): the statement, and each row's
 * line with the batch's constant columns first, the labels as the given JSON text, and the amortisation last. Rows
 * must have passed validateRow: the day, money, currency and invoice month it checked cannot hold a character COPY
 * would need escaped, so only free text is escaped. Written out rather than looped over LINE_COLUMNS, a tenth of the
 * worker's time per row; billing-ingest-copy.test.ts holds it to LINE_COLUMNS' values.
 */
export function costLineCopy(b: { customerId: string; billingAccountId: string; batchId: string }): { sql: string; line: (r: CostRow, x: LineExtras) => string } {
  const prefix = `${copyValue(b.customerId)}\t${copyValue(b.billingAccountId)}\t${b.batchId}`;
  return {
    sql: `COPY cost_line (${COST_LINE_COPY_COLUMNS.join(', ')}) FROM STDIN`,
    line: (r, x) =>
      `${prefix}\t${escapeCopy(r.provider)}\t${escapeCopy(r.provider_name)}\t${r.usage_date}\t${escapeCopy(r.project_id)}\t${escapeCopy(r.project_name)}` +
      `\t${escapeCopy(r.service)}\t${escapeCopy(r.sku)}\t${r.cost}\t${r.credits}\t${r.currency}\t${r.invoice_month ?? '\\N'}\t${copyValue(r.cost_type)}` +
      `\t${escapeCopy(x.project_labels)}\t${escapeCopy(x.resource_labels)}\t${escapeCopy(r.resource_id ?? '')}\t${x.amortisation}\n`,
  };
}

/** Streams COPY text into `sql` (a `COPY … FROM STDIN`); resolves with the row count. */
export async function copyText(client: PoolClient, sql: string, lines: Readable): Promise<number> {
  const copy = client.query(copyFrom(sql));
  await pipeline(lines, copy);
  return copy.rowCount;
}

// COPY text format: backslash, tab, newline and carriage return must be escaped; \N is NULL. Most values need no
// escaping, and testing for that first is cheaper than a replace per value (a million rows: ~15 million values).
const NEEDS_ESCAPE = /[\\\t\n\r]/;
const escapeCopy = (v: string) =>
  NEEDS_ESCAPE.test(v) ? v.replace(/[\\\t\n\r]/g, (c) => (c === '\\' ? '\\\\' : c === '\t' ? '\\t' : c === '\n' ? '\\n' : '\\r')) : v;
const copyValue = (v: string | null) => (v === null ? '\\N' : escapeCopy(v));

/** One validated row as a line of COPY text format, columns as `COPY_COLUMNS`; built as one string, no arrays. */
export function toCopyLine(r: CostRow): string {
  let line = copyValue(COPY_COLUMNS[0][2](r));
  for (let i = 1; i < COPY_COLUMNS.length; i++) line += '\t' + copyValue(COPY_COLUMNS[i][2](r));
  return line + '\n';
}

/**
 * Memory for the replace transaction's sorts and hash aggregates (the rollup rebuild groups every line of the
 * replaced days): at the default 4 MB they spill to disk and a year of a big account takes several times longer.
 * LOCAL: ends with the transaction, the pooled connection keeps its default.
 */
export async function tuneReplaceTransaction(tx: PoolClient): Promise<void> {
  await tx.query(`SET LOCAL work_mem = '128MB'`);
}

/**
 * Keeps the customer from being deleted until the transaction ends: what the cost lines' foreign key checked once per
 * inserted row, once (migration 065). False when the customer is gone.
 */
export async function lockCustomer(tx: PoolClient, customerId: string): Promise<boolean> {
  const { rowCount } = await tx.query('SELECT 1 FROM customer WHERE customer_id = $1 FOR KEY SHARE', [customerId]);
  return rowCount === 1;
}

/**
 * Planner statistics of the staged rows. Temporary tables are never analysed automatically, and without them the
 * rollup's estimates are guesses.
 */
export async function analyzeStaging(client: PoolClient): Promise<void> {
  await client.query('ANALYZE cost_line_staging');
}

/** Planner statistics of the rollups the charts read (after a big load; autovacuum's thresholds lag behind it). */
export async function analyzeRollups(client: PoolClient): Promise<void> {
  await client.query('ANALYZE cost_daily, cost_daily_label, cost_monthly, cost_monthly_label');
}

/**
 * Serialises ingests of one billing account: two overlapping jobs would otherwise both delete the
 * old slice and both insert, double counting. Held until the transaction ends.
 */
export async function lockBillingAccount(tx: PoolClient, billingAccountId: string): Promise<void> {
  await tx.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 7301))', [`billing-ingest/${billingAccountId}`]);
}

/** Days the staged rows cover, plus every day of the source's window (YYYY-MM-DD, sorted). */
export async function stagedDays(tx: PoolClient, window?: { from: string; to: string }): Promise<string[]> {
  const { rows } = await tx.query<{ days: string[] | null }>(
    `SELECT array_agg(d::text ORDER BY d) AS days FROM (
       SELECT DISTINCT usage_date AS d FROM cost_line_staging
       UNION
       SELECT generate_series($1::date, $2::date, interval '1 day')::date
     ) x`,
    [window?.from ?? null, window?.to ?? null],
  );
  return rows[0].days ?? [];
}

/** The providers a run replaces: those the source speaks for, plus any present in its staged rows. */
export async function stagedProviders(tx: PoolClient, declared: readonly string[] = []): Promise<string[]> {
  const { rows } = await tx.query<{ providers: string[] | null }>(
    `SELECT array_agg(p ORDER BY p) AS providers FROM (
       SELECT DISTINCT provider AS p FROM cost_line_staging
       UNION
       SELECT unnest($1::text[])
     ) x`,
    [declared],
  );
  return rows[0].providers ?? [];
}

/**
 * Whether the account has rollup rows for any of these (day, provider) slices, i.e. whether the slices hold lines
 * (the ingest keeps the two together in one transaction): a first load need not search its own lines for older ones.
 */
export async function slicesHaveRollups(tx: PoolClient, s: { billingAccountId: string; days: string[]; providers: string[] }): Promise<boolean> {
  const { rowCount } = await tx.query(
    'SELECT 1 FROM cost_daily WHERE billing_account_id = $1 AND usage_date = ANY($2::date[]) AND provider = ANY($3::text[]) LIMIT 1',
    [s.billingAccountId, s.days, s.providers],
  );
  return (rowCount ?? 0) > 0;
}

/** Deletes the account's cost lines of `providers` for `days`, but those of batch `keep` (just loaded); returns how many went. */
export async function deleteSlices(tx: PoolClient, s: { billingAccountId: string; days: string[]; providers: string[]; keep?: string }): Promise<number> {
  const { rowCount } = await tx.query(
    'DELETE FROM cost_line WHERE billing_account_id = $1 AND usage_date = ANY($2::date[]) AND provider = ANY($3::text[]) AND source_batch IS DISTINCT FROM $4::bigint',
    [s.billingAccountId, s.days, s.providers, s.keep ?? null],
  );
  return rowCount ?? 0;
}

/**
 * What the staged file holds: its billing periods (YYYYMM), the days of rows without one, and whether every row is
 * a FOCUS correction (ChargeClass 'Correction'), which makes it a correction file.
 */
export async function stagedFileShape(tx: PoolClient): Promise<{ billingPeriods: string[]; daysWithoutPeriod: string[]; allCorrections: boolean }> {
  const { rows } = await tx.query<{ periods: string[] | null; days: string[] | null; all_corrections: boolean | null }>(
    `SELECT array_agg(DISTINCT invoice_month ORDER BY invoice_month) FILTER (WHERE invoice_month IS NOT NULL) AS periods,
       array_agg(DISTINCT usage_date::text ORDER BY usage_date::text) FILTER (WHERE invoice_month IS NULL) AS days,
       bool_and(correction) AS all_corrections
     FROM cost_line_staging`,
  );
  return { billingPeriods: rows[0].periods ?? [], daysWithoutPeriod: rows[0].days ?? [], allCorrections: rows[0].all_corrections ?? false };
}

/**
 * A provider's export replaces what earlier exports ('replace' batches) loaded for the same providers and billing
 * periods (and, for rows without a period, the same days); lines appended by correction files stay. Returns the
 * days that lost lines, whose rollups must be rebuilt with the staged ones. The periods' lines are looked for between
 * the first and last day their batches' extents name, by the (account, day) index.
 */
export async function deleteBillingPeriods(
  tx: PoolClient,
  s: { billingAccountId: string; providers: string[]; billingPeriods: string[]; days: string[] },
): Promise<string[]> {
  const { rows } = await tx.query<{ days: string[] | null }>(
    `WITH span AS (
       SELECT min(first_day) AS first_day, max(last_day) AS last_day FROM cost_line_extent
        WHERE billing_account_id = $1 AND invoice_month = ANY($3::text[]) AND provider = ANY($2::text[])
     ), gone AS (
       DELETE FROM cost_line c USING ingest_batch b
       WHERE c.source_batch = b.id AND b.mode = 'replace'
         AND c.billing_account_id = $1 AND c.provider = ANY($2::text[])
         AND ((c.invoice_month = ANY($3::text[]) AND c.usage_date BETWEEN (SELECT first_day FROM span) AND (SELECT last_day FROM span))
              OR c.usage_date = ANY($4::date[]))
       RETURNING c.usage_date
     )
     SELECT array_agg(DISTINCT usage_date::text) AS days FROM gone`,
    [s.billingAccountId, s.providers, s.billingPeriods, s.days],
  );
  return rows[0].days ?? [];
}

/** A staged row's amortisation: amortised minus billed; a source without amortisation: 0 (docs/decisions-billing.md, "Billed / Amortised"). */
const STAGED_AMORTISATION = 'coalesce(effective_cost - (cost + credits), 0)';

/** Inserts every staged row as a cost line of the account and batch, and their extents; returns how many. */
export async function insertStaged(tx: PoolClient, s: { customerId: string; billingAccountId: string; batchId: string }): Promise<number> {
  await saveStagedExtents(tx, s);
  const { rowCount } = await tx.query(
    `INSERT INTO cost_line (customer_id, provider, provider_name, billing_account_id, usage_date, project_id, project_name,
       service, sku, cost, credits, currency, invoice_month, cost_type, project_labels, resource_labels, resource_id, source_batch,
       amortisation)
     SELECT $1, provider, provider_name, $2, usage_date, project_id, project_name,
       service, sku, cost, credits, currency, invoice_month, cost_type, project_labels, resource_labels, resource_id, $3,
       ${STAGED_AMORTISATION}
     FROM cost_line_staging`,
    [s.customerId, s.billingAccountId, s.batchId],
  );
  return rowCount ?? 0;
}

/**
 * Where the rollup rebuild reads its lines ($1 billing account, $2 days): only the columns the rollups use, since the
 * statement materialises its lines once, and SKUs and resource ids are wide. A new rolled-up column is added here.
 */
const ROLLUP_LINES =
  'SELECT customer_id, billing_account_id, usage_date, provider, provider_name, project_id, project_name, service, cost, credits, currency, project_labels, resource_labels, amortisation FROM cost_line WHERE billing_account_id = $1 AND usage_date = ANY($2::date[])';
const ROLLUPS_FROM_LINES = loadSql('billing-rebuild-rollups', { LINES: ROLLUP_LINES }).text;

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

/** COPY of rows (any iterable: written while it is still producing), constant columns first, then `columns` in order. */
async function copyRows<T>(tx: PoolClient, table: string, columns: readonly (keyof T & string)[], constant: Record<string, string>, rows: Iterable<T>): Promise<void> {
  const prefix = Object.values(constant).map(copyValue).join('\t');
  const copy = tx.query(copyFrom(`COPY ${table} (${[...Object.keys(constant), ...columns].join(', ')}) FROM STDIN`));
  async function* text() {
    let chunk = '';
    for (const r of rows) {
      chunk += prefix;
      for (const c of columns) chunk += '\t' + copyValue(r[c] as string);
      chunk += '\n';
      if (chunk.length >= 256 * 1024) {
        yield chunk;
        chunk = '';
      }
    }
    if (chunk) yield chunk;
  }
  await pipeline(Readable.from(text(), { objectMode: false }), copy);
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
  await copyRows(tx, 'cost_daily', ['usage_date', 'provider', 'provider_name', 'project_id', 'project_name', 'service', 'currency', 'cost', 'credits', 'amortisation'], constant, s.daily);
  await copyRows(tx, 'cost_daily_label', ['usage_date', 'provider', 'label_kind', 'label_key', 'label_value', 'project_id', 'currency', 'cost', 'credits', 'amortisation'], constant, s.labels);
  await tx.query('SET LOCAL enable_sort = off');
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

/** Spend of one batch's lines per provider and currency (sums in SQL, decimal strings out), read within its extents. */
export async function batchTotals(
  db: Queryable,
  batchId: string,
): Promise<{ provider: string; provider_name: string; currency: string; cost: string; credits: string; spend: string; effective_cost: string }[]> {
  const { rows } = await db.query(
    `SELECT provider, max(provider_name) AS provider_name, currency, sum(cost)::text AS cost, sum(credits)::text AS credits,
       (sum(cost) + sum(credits))::text AS spend, (sum(cost) + sum(credits) + sum(amortisation))::text AS effective_cost
     FROM cost_line
     WHERE source_batch = $1
       AND billing_account_id = (SELECT billing_account_id FROM ingest_batch WHERE id = $1)
       AND usage_date BETWEEN (SELECT min(first_day) FROM cost_line_extent WHERE source_batch = $1)
                          AND (SELECT max(last_day) FROM cost_line_extent WHERE source_batch = $1)
     GROUP BY provider, currency ORDER BY provider, currency`,
    [batchId],
  );
  return rows;
}

/** The customer's billing accounts and currency, or null when the customer does not exist. */
export async function findCustomerBilling(db: Queryable, customerId: string): Promise<{ billing_account_ids: string[]; billing_currency: string } | null> {
  const { rows } = await db.query<{ billing_account_ids: string[]; billing_currency: string }>(
    'SELECT billing_account_ids, billing_currency FROM customer WHERE customer_id = $1',
    [customerId],
  );
  return rows[0] ?? null;
}
