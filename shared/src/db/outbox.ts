/**
 * The outbox (migration 040): queued work recorded in PostgreSQL. Rows are written before a job is added to
 * BullMQ (or by a trigger in the transaction of the work they follow), published by the reconciler, and closed
 * by the worker when their job completed or failed for good.
 */
import type { Queryable } from './pool.ts';
import { isInfrastructureMessage } from '../unavailable.ts';

export interface OutboxRow {
  id: string;
  queue: string;
  job_name: string;
  data: unknown;
  job_id: string;
  opts: Record<string, unknown>;
}

/**
 * `publishing`: the caller adds the job right after, so the row is written as published (one statement less on the
 * request's path); if the add fails the caller reopens it, and if the process dies in between, the reconciler's
 * lost-job check publishes it after OUTBOX_LOST_AFTER_MS.
 */
export async function recordOutbox(db: Queryable, r: Omit<OutboxRow, 'id'>, publishing = false): Promise<string> {
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO outbox (queue, job_name, data, job_id, opts, published_at, publish_count)
     VALUES ($1, $2, $3, $4, $5, CASE WHEN $6 THEN now() END, CASE WHEN $6 THEN 1 ELSE 0 END) RETURNING id`,
    [r.queue, r.job_name, JSON.stringify(r.data), r.job_id, JSON.stringify(r.opts), publishing],
  );
  return rows[0].id;
}

/** The add did not happen (Redis away, or a run of the same job still active): the reconciler publishes it. */
export async function reopenOutbox(db: Queryable, id: string, message?: string): Promise<void> {
  await db.query('UPDATE outbox SET published_at = NULL, last_error = $2 WHERE id = $1', [id, message?.slice(0, 1000) ?? null]);
}

export async function markOutboxPublished(db: Queryable, ids: string[]): Promise<void> {
  await db.query('UPDATE outbox SET published_at = now(), publish_count = publish_count + 1, last_error = NULL WHERE id = ANY($1::bigint[])', [ids]);
}

export async function markOutboxError(db: Queryable, id: string, message: string): Promise<void> {
  await db.query('UPDATE outbox SET last_error = $2 WHERE id = $1', [id, message.slice(0, 1000)]);
}

/** Rows never published, oldest first. */
export async function pendingOutbox(db: Queryable, limit: number): Promise<OutboxRow[]> {
  const { rows } = await db.query<OutboxRow>(
    'SELECT id, queue, job_name, data, job_id, opts FROM outbox WHERE published_at IS NULL ORDER BY id LIMIT $1',
    [limit],
  );
  return rows;
}

/** Rows published at least `olderThanMs` ago whose job never reported back: Redis may have lost them. */
export async function unfinishedOutbox(db: Queryable, olderThanMs: number, limit: number): Promise<OutboxRow[]> {
  const { rows } = await db.query<OutboxRow>(
    `SELECT id, queue, job_name, data, job_id, opts FROM outbox
      WHERE done_at IS NULL AND published_at < now() - make_interval(secs => $1::double precision / 1000)
      ORDER BY id LIMIT $2`,
    [olderThanMs, limit],
  );
  return rows;
}

/** Whether the row is still open (not done): read again right before a job missing from Redis is queued anew. */
export async function isOutboxOpen(db: Queryable, id: string): Promise<boolean> {
  const { rows } = await db.query('SELECT 1 FROM outbox WHERE id = $1 AND done_at IS NULL', [id]);
  return rows.length > 0;
}

/**
 * The job ended (completed, or failed for good): no reconciler publishes its rows again. A job given up because
 * PostgreSQL or Redis was away (`isInfrastructureMessage`: the worker defers such attempts, so this is a job whose
 * deferral itself failed) did not fail at its work: its rows go back to pending, with the reason in `last_error`,
 * and the reconciler queues the job again (the failed job is replaced).
 */
export async function markOutboxDone(db: Queryable, queue: string, jobId: string, error?: string): Promise<void> {
  // A quick job can end before the transaction that published it committed its mark (the row still reads pending);
  // waiting for that transaction's row lock first lets the UPDATE below see the mark, instead of leaving the row open
  // for the reconciler to take the finished job for a lost one and run it again.
  await db.query('SELECT 1 FROM outbox WHERE queue = $1 AND job_id = $2 AND done_at IS NULL FOR UPDATE', [queue, jobId]);
  if (isInfrastructureMessage(error)) {
    await db.query(
      `UPDATE outbox SET published_at = NULL, last_error = $3
        WHERE queue = $1 AND job_id = $2 AND done_at IS NULL AND published_at IS NOT NULL`,
      [queue, jobId, `re-queued after an outage: ${error}`.slice(0, 1000)],
    );
    return;
  }
  await db.query(
    `UPDATE outbox SET done_at = now(), last_error = COALESCE($3, last_error)
      WHERE queue = $1 AND job_id = $2 AND done_at IS NULL AND published_at IS NOT NULL`,
    [queue, jobId, error ?? null],
  );
}

/**
 * Ingest batches left `running` by a process that died are marked failed (the job's retry makes a new batch): any
 * older than `staleSeconds`, and, when no billing-ingest job is active anywhere (`noActiveJobs`), any older than
 * `orphanAfterMs` (a batch is written by an active job, so without one it has no owner; a `cc ingest` CLI run
 * outside the queue may be marked failed meanwhile and turns succeeded when it commits).
 */
export async function failStaleIngestBatches(db: Queryable, staleSeconds: number, orphan?: { noActiveJobs: boolean; orphanAfterMs: number }): Promise<number> {
  const { rowCount } = await db.query(
    `UPDATE ingest_batch SET status = 'failed', finished_at = now(),
       error = jsonb_build_object('message', 'abandoned: its worker stopped while it was running')
      WHERE status = 'running' AND (started_at < now() - make_interval(secs => $1)
        OR ($2 AND started_at < now() - make_interval(secs => $3::double precision / 1000)))`,
    [staleSeconds, orphan?.noActiveJobs ?? false, orphan?.orphanAfterMs ?? 0],
  );
  return rowCount ?? 0;
}

/** The data version of billing accounts (bumped by the ingest's commit), for chart cache keys. */
export async function billingDataVersion(db: Queryable, billingAccountId: string): Promise<string> {
  const { rows } = await db.query<{ version: string }>('SELECT version::text FROM billing_data_version WHERE billing_account_id = $1', [billingAccountId]);
  return rows[0]?.version ?? '0';
}
