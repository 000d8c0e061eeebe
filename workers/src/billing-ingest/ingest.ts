/**
 * The billing ingest: source rows → validation → COPY into a session-local staging table → one
 * transaction that replaces the affected (billing account, day) slices and rebuilds their rollups.
 * The worker job and the `cc ingest` CLI both run exactly this (through command.ts); tests, benches and the demo
 * spike call it with a source of their own.
 */
import { Readable } from 'node:stream';
import type { PoolClient } from 'pg';
import type { Pool } from '@cc/shared/db/pool.ts';
import type { BillingSource } from '@cc/shared/ports/billing-source.ts';
import {
  batchTotals,
  copyIntoStaging,
  createStaging,
  deleteSlices,
  dropStaging,
  insertStaged,
  lockBillingAccount,
  markBatchFailed,
  markBatchRejected,
  markBatchSucceeded,
  rebuildRollups,
  stagedDays,
  stagedProviders,
  startBatch,
  toCopyLine,
  tuneReplaceTransaction,
  type IngestSourceKind,
} from '@cc/shared/db/billing-ingest.ts';
import { validateRow } from './row-checks.ts';

/** How many bad lines a rejection lists (the issue: the first 100). */
export const MAX_LISTED_ERRORS = 100;
const PROGRESS_EVERY_ROWS = 5_000;
// COPY data goes out in chunks of about this many characters rather than one write per row.
const COPY_CHUNK_CHARS = 256 * 1024;

export interface RowError {
  line: number;
  reason: string;
}

/** A source with bad rows: nothing of it was loaded. */
export class IngestRejected extends Error {
  constructor(
    readonly errors: RowError[],
    readonly errorCount: number,
    readonly batchId: string,
  ) {
    super(`rejected: ${errorCount} bad line${errorCount === 1 ? '' : 's'}; first: line ${errors[0]?.line}: ${errors[0]?.reason}`);
    this.name = 'IngestRejected';
  }
}

export interface IngestProgress {
  phase: 'reading' | 'replacing' | 'done';
  rows: number;
  errors: number;
  /** 0..1 of the source read, when the source can tell. */
  fraction?: number;
}

export interface IngestRequest {
  pool: Pool;
  customerId: string;
  billingAccountId: string;
  sourceKind: IngestSourceKind;
  source: BillingSource;
  fileName?: string;
  fileHash?: string;
  onProgress?: (p: IngestProgress) => unknown;
  /**
   * Fault-injection seam for tests: runs inside the replace transaction right after the old slices
   * were deleted, where a crash would hurt most. Production callers never set it.
   */
  afterDelete?: (tx: PoolClient) => Promise<void>;
}

export interface IngestSummary {
  batchId: string;
  rows: number;
  days: number;
  from: string | null;
  to: string | null;
  /** Spend (cost + credits) of the loaded rows per provider and currency, decimal strings summed in SQL. */
  totals: { provider: string; provider_name: string; currency: string; cost: string; credits: string; spend: string }[];
}

export async function runIngest(req: IngestRequest): Promise<IngestSummary> {
  const { pool, source } = req;
  const progress = async (p: IngestProgress) => {
    await req.onProgress?.(p);
  };
  const batchId = await startBatch(pool, {
    customerId: req.customerId,
    billingAccountId: req.billingAccountId,
    source: req.sourceKind,
    fileName: req.fileName,
    fileHash: req.fileHash,
  });
  const client = await pool.connect();
  let broken = false;
  // A checked-out client whose connection dies emits 'error'; unheard, that would crash the process.
  // The failing query rejects anyway, so only remember not to hand the connection back.
  const onConnectionError = () => {
    broken = true;
  };
  client.on('error', onConnectionError);
  try {
    await createStaging(client);
    const errors: RowError[] = [];
    let errorCount = 0;
    let rows = 0;
    let lastLine = 0;
    const fraction = () => {
      const pos = source.position?.();
      return pos && pos.total > 0 ? Math.min(1, pos.done / pos.total) : undefined;
    };

    // Every row is read and checked even after the first error, so the rejection lists them all
    // (up to MAX_LISTED_ERRORS); rows after an error are no longer sent to COPY.
    async function* copyText(): AsyncGenerator<string> {
      let chunk = '';
      for await (const item of source.rows()) {
        lastLine = item.line;
        const row = item.row;
        const reason = row ? validateRow(row, source.window) : item.error;
        if (reason !== null || !row) {
          errorCount++;
          if (errors.length < MAX_LISTED_ERRORS) errors.push({ line: item.line, reason: reason ?? 'unreadable row' });
          chunk = '';
          continue;
        }
        rows++;
        if (errorCount === 0) {
          chunk += toCopyLine(row);
          if (chunk.length >= COPY_CHUNK_CHARS) {
            yield chunk;
            chunk = '';
          }
        }
        if (rows % PROGRESS_EVERY_ROWS === 0) await progress({ phase: 'reading', rows, errors: errorCount, fraction: fraction() });
      }
      if (chunk && errorCount === 0) yield chunk;
    }
    await copyIntoStaging(client, Readable.from(copyText(), { objectMode: false }));
    await progress({ phase: 'reading', rows, errors: errorCount, fraction: 1 });

    if (rows === 0 && errorCount === 0) {
      errorCount = 1;
      errors.push({ line: Math.max(lastLine, 1), reason: 'the source has no data rows' });
    }
    if (errorCount > 0) {
      await markBatchRejected(pool, batchId, rows, { errors, error_count: errorCount });
      throw new IngestRejected(errors, errorCount, batchId);
    }

    await progress({ phase: 'replacing', rows, errors: 0, fraction: 1 });
    let days: string[] = [];
    try {
      await client.query('BEGIN');
      await tuneReplaceTransaction(client);
      await lockBillingAccount(client, req.billingAccountId);
      days = await stagedDays(client, source.window);
      const providers = await stagedProviders(client, source.providers);
      await deleteSlices(client, { billingAccountId: req.billingAccountId, days, providers });
      await req.afterDelete?.(client);
      const inserted = await insertStaged(client, { customerId: req.customerId, billingAccountId: req.billingAccountId, batchId });
      await rebuildRollups(client, { billingAccountId: req.billingAccountId, days });
      await markBatchSucceeded(client, batchId, inserted, days.length);
      await client.query('COMMIT');
    } catch (err) {
      await client.query('ROLLBACK').catch(() => {
        broken = true;
      });
      throw err;
    }
    await progress({ phase: 'done', rows, errors: 0, fraction: 1 });
    return { batchId, rows, days: days.length, from: days[0] ?? null, to: days.at(-1) ?? null, totals: await batchTotals(pool, batchId) };
  } catch (err) {
    if (!(err instanceof IngestRejected)) await markBatchFailed(pool, batchId, err instanceof Error ? err.message : String(err)).catch(() => undefined);
    throw err;
  } finally {
    if (!broken) await dropStaging(client).catch(() => (broken = true));
    client.off('error', onConnectionError);
    // A connection that died mid-transaction (killed backend) must not go back to the pool.
    client.release(broken);
  }
}
