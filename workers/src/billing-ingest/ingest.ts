/**
 * The billing ingest: source rows → validation → COPY, and one transaction that replaces what the source speaks for
 * and the rollups of it. Windowed sources ((account, day, provider) slices: GCP export, generator) COPY straight into
 * cost_line inside that transaction and have their daily rollups summed on the way (loadWindowed); FOCUS files go
 * through a session-local staging table first, since what they replace depends on what they hold (the billing
 * periods of an export, nothing for a correction file, which adds), and rebuild their days' rollups in SQL (loadFile).
 * The worker job and the `cc ingest` CLI both run exactly this (through command.ts); tests, benches and the demo
 * spike call it with a source of their own.
 *
 * Longer than 300 lines on purpose: the two load paths share one batch lifecycle (open, reject, abandon, succeed) and
 * its error types, and the order of statements inside the replace transaction is the point of the file; what stands
 * alone (COPY text, staging DDL, slices, rollups, extents) lives in shared/src/db/billing-ingest/.
 */
import { Readable } from 'node:stream';
import type { PoolClient } from 'pg';
import type { Pool } from '@cc/shared/db/pool.ts';
import type { BillingSource, CostRow } from '@cc/shared/ports/billing-source.ts';
import { addDays } from '@cc/shared/time.ts';
import {
  batchTotals,
  findAppendedFile,
  markBatchDuplicate,
  markBatchFailed,
  markBatchRejected,
  markBatchSucceeded,
  startBatch,
  type IngestMode,
  type IngestSourceKind,
} from '@cc/shared/db/billing-ingest/batches.ts';
import { copyFromStdin, copyText, costLineCopy, toCopyLine } from '@cc/shared/db/billing-ingest/copy.ts';
import {
  createStaging,
  dropStaging,
  insertStaged,
  analyzeStaging,
  stagedDays,
  stagedFileShape,
  stagedProviders,
} from '@cc/shared/db/billing-ingest/staging.ts';
import { deleteBillingPeriods, deleteSlices, slicesHaveRollups } from '@cc/shared/db/billing-ingest/slices.ts';
import { analyzeRollups, greatestNames, rebuildRollups, replaceRollups } from '@cc/shared/db/billing-ingest/rollups.ts';
import { lockBillingAccount, lockCustomer, tuneReplaceTransaction } from '@cc/shared/db/billing-ingest/replace-transaction.ts';
import { saveExtents } from '@cc/shared/db/billing-ingest/extents.ts';
import { saveGcpExportRates } from '@cc/shared/db/fx-rates.ts';
import { validateRow } from './row-checks.ts';
import { copyErrorLine } from './copy-errors.ts';
import { ingestNotes, unlistedProviders } from './notes.ts';
import { RollupSums } from './rollup-sums.ts';

/** How many bad lines a rejection lists (the issue: the first 100). */
export const MAX_LISTED_ERRORS = 100;
const PROGRESS_EVERY_ROWS = 5_000;
/** Loads at least this big refresh the rollups' planner statistics (analyzeRollups). */
const ANALYZE_AFTER_ROWS = 100_000;
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
  /**
   * True when nothing was read: this very file was the account's last load (batch `batchId`), e.g. a job run again
   * after its process died right after COMMIT (command.ts). No batch, no follow-ups.
   */
  alreadyLoaded: boolean;
  /** Loaded providers the dashboard does not list by name (kept under their own id, shown under All). */
  unlistedProviders: { provider: string; provider_name: string }[];
  /** The above in words, for the CLI and the job's result. */
  notes: string[];
}

// Reasons go into jsonb (no U+0000) and into job results: keep them printable and short.
const printable = (reason: string) => {
  // eslint-disable-next-line no-control-regex -- control characters are what is replaced
  const clean = reason.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, (c) => (c === '\u0000' ? '\\0' : `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`));
  return clean.length > 300 ? `${clean.slice(0, 300)}…` : clean;
};

/** What reading a source into one COPY found: row count, bad lines (the first MAX_LISTED_ERRORS) and their count. */
interface ReadResult {
  rows: number;
  errors: RowError[];
  errorCount: number;
}

/**
 * Reads every row of the source, checks it and streams the good ones as COPY text (`format`) into `copySql`, until the
 * first bad row; after it the rest is still read and checked, so the rejection lists every bad line (up to
 * MAX_LISTED_ERRORS), but nothing more is sent. A value PostgreSQL refuses during COPY is reported with its file line.
 */
async function readInto(
  client: PoolClient,
  copySql: string,
  source: BillingSource,
  format: (row: CostRow) => string,
  progress: (p: IngestProgress) => Promise<void>,
): Promise<ReadResult> {
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
  async function* text(): AsyncGenerator<string> {
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
        chunk += format(row);
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
    await copyText(client, copySql, Readable.from(text(), { objectMode: false }));
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
  return { rows, errors, errorCount };
}

/** Every day from `from` to `to` (YYYY-MM-DD, inclusive). */
function daysOf(window: { from: string; to: string } | undefined): string[] {
  const out: string[] = [];
  if (window) for (let d = window.from; d <= window.to; d = addDays(d, 1)) out.push(d);
  return out;
}

const sortedUnion = (a: Iterable<string>, b: Iterable<string>) => [...new Set([...a, ...b])].sort();

type Totals = IngestSummary['totals'];

interface Loaded {
  rows: number;
  days: string[];
  mode: IngestMode;
  billingPeriods: string[];
  duplicateOf: string | null;
  totals: () => Promise<Totals>;
}

interface LoadContext {
  req: IngestRequest;
  client: PoolClient;
  batchId: string;
  progress: (p: IngestProgress) => Promise<void>;
}

/**
 * A windowed source (GCP export, generator) in one transaction: its rows are COPYed straight into `cost_line` and
 * summed on the way (RollupSums), the slices it speaks for lose their older lines, and the daily rollups of those
 * slices are written from the sums (for speed: no staging table, no second write of the lines, nothing read back).
 * A bad row rolls the whole transaction back: nothing of the source stays.
 */
async function loadWindowed({ req, client, batchId, progress }: LoadContext): Promise<Loaded | ReadResult> {
  const { source } = req;
  const target = { customerId: req.customerId, billingAccountId: req.billingAccountId };
  const windowDays = daysOf(source.window);
  const declared = source.providers ?? [];
  await client.query('BEGIN');
  await tuneReplaceTransaction(client);
  await lockBillingAccount(client, req.billingAccountId);
  if (!(await lockCustomer(client, req.customerId))) throw new Error(`customer ${req.customerId} no longer exists`);
  // What the source speaks for is known before reading when it has a window: those slices go first.
  const early = windowDays.length > 0 && declared.length > 0;
  if (early) await deleteSlices(client, { ...target, days: windowDays, providers: [...declared] });
  const sums = new RollupSums();
  const line = costLineCopy({ ...target, batchId });
  const read = await readInto(client, line.sql, source, (row) => line.line(row, sums.add(row)), progress);
  if (read.errorCount > 0) {
    await client.query('ROLLBACK');
    return read;
  }
  await progress({ phase: 'replacing', rows: read.rows, errors: 0, fraction: 1 });
  const days = sortedUnion(windowDays, sums.days);
  const providers = sortedUnion(declared, sums.providers);
  // Rows of a provider or day the source did not declare: those slices' older lines go now (this batch's stay).
  if (!early || providers.length > declared.length || days.length > windowDays.length) {
    if (await slicesHaveRollups(client, { ...target, days, providers })) await deleteSlices(client, { ...target, days, providers, keep: batchId });
  }
  await req.afterDelete?.(client);
  const greatest = (lists: string[][]) => greatestNames(client, lists);
  await replaceRollups(client, { ...target, days, providers, daily: await sums.dailyRows(greatest), labels: sums.labelRows() });
  await saveExtents(client, { ...target, batchId }, sums.extents());
  // the GCP export's own rates (currency_conversion_rate) win over the ECB's for the days they cover
  if (source.exportRates) await saveGcpExportRates(client, source.exportRates());
  await markBatchSucceeded(client, batchId, read.rows, days.length, { mode: 'replace', billingPeriods: [] });
  const totals = await sums.totals(greatest);
  await client.query('COMMIT');
  return { rows: read.rows, days, mode: 'replace', billingPeriods: [], duplicateOf: null, totals: async () => totals };
}

/**
 * A FOCUS file: read into a session-local staging table first, since what it replaces depends on what it holds (its
 * billing periods; all corrections make it a correction file, which adds), then one transaction replaces and rebuilds
 * the rollups of its days from `cost_line` (a file's days may keep lines of earlier batches).
 */
async function loadFile({ req, client, batchId, progress }: LoadContext): Promise<Loaded | ReadResult> {
  const { source } = req;
  await createStaging(client);
  const read = await readInto(client, copyFromStdin('cost_line_staging'), source, toCopyLine, progress);
  if (read.errorCount > 0) return read;
  await progress({ phase: 'replacing', rows: read.rows, errors: 0, fraction: 1 });
  await analyzeStaging(client);
  let days: string[] = [];
  let mode: IngestMode = 'replace';
  let billingPeriods: string[] = [];
  let duplicateOf: string | null = null;
  await client.query('BEGIN');
  await tuneReplaceTransaction(client);
  await lockBillingAccount(client, req.billingAccountId);
  if (!(await lockCustomer(client, req.customerId))) throw new Error(`customer ${req.customerId} no longer exists`);
  const providers = await stagedProviders(client, source.providers);
  // Files as providers publish them: an export replaces its billing periods, a correction file adds to them.
  const shape = await stagedFileShape(client);
  mode = shape.allCorrections ? 'append' : 'replace';
  if (mode === 'append' && req.fileHash) duplicateOf = await findAppendedFile(client, req.billingAccountId, req.fileHash);
  if (duplicateOf !== null) {
    await markBatchDuplicate(client, batchId, read.rows, mode, duplicateOf);
  } else {
    let emptied: string[] = [];
    if (mode === 'replace') {
      billingPeriods = shape.billingPeriods;
      emptied = await deleteBillingPeriods(client, { billingAccountId: req.billingAccountId, providers, billingPeriods, days: shape.daysWithoutPeriod });
    }
    days = sortedUnion(await stagedDays(client), emptied);
    await req.afterDelete?.(client);
    const inserted = await insertStaged(client, { customerId: req.customerId, billingAccountId: req.billingAccountId, batchId });
    await rebuildRollups(client, { billingAccountId: req.billingAccountId, days });
    await markBatchSucceeded(client, batchId, inserted, days.length, { mode, billingPeriods });
  }
  await client.query('COMMIT');
  return { rows: read.rows, days, mode, billingPeriods, duplicateOf, totals: () => batchTotals(req.pool, batchId) };
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
  const windowed = req.sourceKind !== 'focus-file';
  try {
    let loaded: Loaded | ReadResult;
    try {
      loaded = await (windowed ? loadWindowed : loadFile)({ req, client, batchId, progress });
    } catch (err) {
      await client.query('ROLLBACK').catch(() => {
        broken = true;
      });
      throw err;
    }
    if (!('days' in loaded)) {
      await markBatchRejected(pool, batchId, loaded.rows, { errors: loaded.errors, error_count: loaded.errorCount });
      throw new IngestRejected(loaded.errors, loaded.errorCount, batchId);
    }
    // A big load changes the rollups' statistics more than autovacuum notices at once: without fresh ones the
    // charts read right after it were planned with sorts on disk (12-month chart p50 30 → 20 ms on 5M
    // lines). Best effort, after COMMIT: a failure here loses nothing, autovacuum analyses later anyway.
    if (loaded.rows >= ANALYZE_AFTER_ROWS) await analyzeRollups(client).catch(() => undefined);
    await progress({ phase: 'done', rows: loaded.rows, errors: 0, fraction: 1 });
    const totals = await loaded.totals();
    const unlisted = unlistedProviders(totals);
    const { days, mode, billingPeriods, duplicateOf } = loaded;
    return {
      batchId,
      rows: loaded.rows,
      days: days.length,
      from: days[0] ?? null,
      to: days.at(-1) ?? null,
      totals,
      mode,
      billingPeriods,
      duplicateOf,
      alreadyLoaded: false,
      unlistedProviders: unlisted,
      notes: [...ingestNotes({ mode, billingPeriods, duplicateOf, unlistedProviders: unlisted }), ...(source.notes?.() ?? [])],
    };
  } catch (err) {
    if (!(err instanceof IngestRejected)) await markBatchFailed(pool, batchId, err instanceof Error ? err.message : String(err)).catch(() => undefined);
    throw err;
  } finally {
    if (!broken && !windowed) await dropStaging(client).catch(() => (broken = true));
    client.off('error', onConnectionError);
    // A connection that died mid-transaction (killed backend) must not go back to the pool.
    client.release(broken);
  }
}
