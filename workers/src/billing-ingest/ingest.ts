/**
 * The billing ingest: source rows → validation → COPY into a session-local staging table → one
 * transaction that replaces what the source speaks for (windowed sources: (account, day, provider) slices; FOCUS
 * files: the billing periods of an export, nothing for a correction file, which adds) and rebuilds the rollups.
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
  deleteBillingPeriods,
  deleteSlices,
  dropStaging,
  findAppendedFile,
  insertStaged,
  analyzeStaging,
  lockBillingAccount,
  lockCustomer,
  markBatchDuplicate,
  markBatchFailed,
  markBatchRejected,
  markBatchSucceeded,
  rebuildRollups,
  stagedDays,
  stagedFileShape,
  stagedProviders,
  startBatch,
  toCopyLine,
  tuneReplaceTransaction,
  type IngestMode,
  type IngestSourceKind,
} from '@cc/shared/db/billing-ingest.ts';
import { saveGcpExportRates } from '@cc/shared/db/fx-rates.ts';
import { validateRow } from './row-checks.ts';
import { copyErrorLine } from './copy-errors.ts';
import { ingestNotes, unlistedProviders } from './notes.ts';

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
  totals: { provider: string; provider_name: string; currency: string; cost: string; credits: string; spend: string; effective_cost: string }[];
  /** replace: an export (or a windowed source); append: a correction file, added to what is loaded. */
  mode: IngestMode;
  /** The billing periods (YYYYMM) a file replaced; empty for windowed sources and correction files. */
  billingPeriods: string[];
  /** Set when this very correction file was loaded before (that batch): nothing was loaded this time. */
  duplicateOf: string | null;
  /** Loaded providers the dashboard does not list by name (kept under their own id, shown under All). */
  unlistedProviders: { provider: string; provider_name: string }[];
  /** The above in words, for the CLI and the job's result. */
  notes: string[];
}

// Reasons go into jsonb (no U+0000) and into job results: keep them printable and short.
const printable = (reason: string) => {
  const clean = reason.replaceAll('\u0000', '\\0');
  return clean.length > 300 ? `${clean.slice(0, 300)}…` : clean;
};

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

    // The file line of each row sent to COPY, so a row PostgreSQL refuses is reported by its line in the file.
    const copiedLines: number[] = [];
    // Every row is read and checked even after the first error, so the rejection lists them all
    // (up to MAX_LISTED_ERRORS); rows after an error are no longer sent to COPY.
    async function* copyText(): AsyncGenerator<string> {
      let chunk = '';
      for await (const item of source.rows()) {
        lastLine = item.line;
        const row = item.row;
        const reason = row ? validateRow(row, source.window, source.moneyFields) : item.error;
        if (reason !== null || !row) {
          errorCount++;
          if (errors.length < MAX_LISTED_ERRORS) errors.push({ line: item.line, reason: printable(reason ?? 'unreadable row') });
          chunk = '';
          continue;
        }
        rows++;
        if (errorCount === 0) {
          chunk += toCopyLine(row);
          copiedLines.push(item.line);
          if (chunk.length >= COPY_CHUNK_CHARS) {
            yield chunk;
            chunk = '';
          }
        }
        if (rows % PROGRESS_EVERY_ROWS === 0) await progress({ phase: 'reading', rows, errors: errorCount, fraction: fraction() });
      }
      if (chunk && errorCount === 0) yield chunk;
    }
    try {
      await copyIntoStaging(client, Readable.from(copyText(), { objectMode: false }));
    } catch (err) {
      // A value the checks let through but PostgreSQL refuses is still the file's fault: reject it with its line.
      const refused = copyErrorLine(err, copiedLines);
      if (!refused) throw err;
      errorCount++;
      errors.push({ line: refused.line, reason: printable(refused.reason) });
    }
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
    await analyzeStaging(client);
    let days: string[] = [];
    let mode: IngestMode = 'replace';
    let billingPeriods: string[] = [];
    let duplicateOf: string | null = null;
    try {
      await client.query('BEGIN');
      await tuneReplaceTransaction(client);
      await lockBillingAccount(client, req.billingAccountId);
      if (!(await lockCustomer(client, req.customerId))) throw new Error(`customer ${req.customerId} no longer exists`);
      const providers = await stagedProviders(client, source.providers);
      if (req.sourceKind === 'focus-file') {
        // Files as providers publish them: an export replaces its billing periods, a correction file adds to them.
        const shape = await stagedFileShape(client);
        mode = shape.allCorrections ? 'append' : 'replace';
        if (mode === 'append' && req.fileHash) duplicateOf = await findAppendedFile(client, req.billingAccountId, req.fileHash);
        if (duplicateOf === null) {
          let emptied: string[] = [];
          if (mode === 'replace') {
            billingPeriods = shape.billingPeriods;
            emptied = await deleteBillingPeriods(client, { billingAccountId: req.billingAccountId, providers, billingPeriods, days: shape.daysWithoutPeriod });
          }
          days = [...new Set([...(await stagedDays(client)), ...emptied])].sort();
        }
      } else {
        // Windowed sources (GCP export, generator) speak for their providers' every day in the window.
        days = await stagedDays(client, source.window);
        await deleteSlices(client, { billingAccountId: req.billingAccountId, days, providers });
      }
      if (duplicateOf !== null) {
        await markBatchDuplicate(client, batchId, rows, mode, duplicateOf);
      } else {
        await req.afterDelete?.(client);
        const inserted = await insertStaged(client, { customerId: req.customerId, billingAccountId: req.billingAccountId, batchId });
        // A windowed source's staged rows are the whole of the slices it replaced: its rollups are summed from them.
        const fromStaging = req.sourceKind === 'focus-file' ? undefined : { customerId: req.customerId, providers };
        await rebuildRollups(client, { billingAccountId: req.billingAccountId, days, fromStaging });
        // the GCP export's own rates (currency_conversion_rate) win over the ECB's for the days they cover
        if (source.exportRates) await saveGcpExportRates(client, source.exportRates());
        await markBatchSucceeded(client, batchId, inserted, days.length, { mode, billingPeriods });
      }
      await client.query('COMMIT');
    } catch (err) {
      await client.query('ROLLBACK').catch(() => {
        broken = true;
      });
      throw err;
    }
    await progress({ phase: 'done', rows, errors: 0, fraction: 1 });
    const totals = await batchTotals(pool, batchId);
    const unlisted = unlistedProviders(totals);
    return {
      batchId,
      rows,
      days: days.length,
      from: days[0] ?? null,
      to: days.at(-1) ?? null,
      totals,
      mode,
      billingPeriods,
      duplicateOf,
      unlistedProviders: unlisted,
      notes: [...ingestNotes({ mode, billingPeriods, duplicateOf, unlistedProviders: unlisted }), ...(source.notes?.() ?? [])],
    };
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
