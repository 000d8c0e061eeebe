/**
 * Billing ingest batches: one ingest_batch row per run, from start to its outcome (succeeded, duplicate, rejected,
 * failed), an earlier appended file looked up by its hash, what a batch loaded, and the customer it loads for.
 */
import type { Queryable } from '../pool.ts';

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
