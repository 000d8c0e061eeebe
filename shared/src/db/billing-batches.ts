/** Looking up earlier ingest batches (the loader's own statements are in billing-ingest.ts). */
import type { Queryable } from './pool.ts';
import type { IngestMode } from './billing-ingest/batches.ts';

export interface CurrentFileBatch {
  id: string;
  row_count: number;
  days_replaced: number;
  mode: IngestMode;
  billing_periods: string[];
  first_day: string | null;
  last_day: string | null;
}

/**
 * The batch that loaded this very file (same SHA-256) into the account when nothing was loaded into the account
 * after it, or null: then what the file would replace holds exactly its lines, and loading it again changes nothing
 * (a job run again after its process died right after COMMIT). Any later batch, whatever it replaced, makes the
 * file worth loading again: only the account's last load is taken as current.
 */
export async function findCurrentFileBatch(db: Queryable, billingAccountId: string, fileHash: string): Promise<CurrentFileBatch | null> {
  const { rows } = await db.query<CurrentFileBatch>(
    `SELECT b.id, b.row_count::int AS row_count, b.days_replaced, b.mode, b.billing_periods,
            (SELECT min(first_day)::text FROM cost_line_extent e WHERE e.source_batch = b.id) AS first_day,
            (SELECT max(last_day)::text FROM cost_line_extent e WHERE e.source_batch = b.id) AS last_day
       FROM ingest_batch b
      WHERE b.billing_account_id = $1 AND b.file_hash = $2 AND b.status = 'succeeded'
        AND NOT EXISTS (SELECT 1 FROM ingest_batch later
                         WHERE later.billing_account_id = $1 AND later.status = 'succeeded' AND later.id <> b.id
                           AND later.finished_at >= b.finished_at)
      ORDER BY b.finished_at DESC LIMIT 1`,
    [billingAccountId, fileHash],
  );
  return rows[0] ?? null;
}
