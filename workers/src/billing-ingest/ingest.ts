/**
 * The billing ingest: source rows → validation → COPY straight into `cost_line`, inside one transaction that replaces
 * what the source speaks for and the rollups of it, summed while the rows stream (RollupSums). Windowed sources
 * ((account, day, provider) slices: GCP export, generator) know what they replace before reading (loadWindowed);
 * FOCUS files learn it from what they hold (the billing periods of an export, nothing for a correction file, which
 * adds), so their older lines go after the COPY, and the slices that keep lines of other batches have their rollups
 * rebuilt in SQL (loadFile). The worker job and the `cc ingest` CLI both run exactly this (through command.ts);
 * tests, benches and the demo spike call it with a source of their own.
 *
 * Longer than 300 lines on purpose: the two load paths share one batch lifecycle (open, reject, abandon, succeed) and
 * its error types, and the order of statements inside the replace transaction is the point of the file; what stands
 * alone (COPY text, slices, rollups, extents) lives in shared/src/db/billing-ingest/.
 */
import { Readable } from 'node:stream';
import type { PoolClient } from 'pg';
import type { Pool } from '@cc/shared/db/pool.ts';
import type { BillingSource, CostRow, SourceItem } from '@cc/shared/ports/billing-source.ts';
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
import { copyText, costLineCopy } from '@cc/shared/db/billing-ingest/copy.ts';
import { deleteBillingPeriods, deleteSlices, slicesHaveRollups } from '@cc/shared/db/billing-ingest/slices.ts';
import { analyzeRollups, greatestNames, replaceRollups, writeFileRollups } from '@cc/shared/db/billing-ingest/rollups.ts';
import { lockBillingAccount, lockCustomer, tuneReplaceTransaction } from '@cc/shared/db/billing-ingest/replace-transaction.ts';
import { otherExtents, saveExtents, type OtherExtent } from '@cc/shared/db/billing-ingest/extents.ts';
import { saveGcpExportRates } from '@cc/shared/db/fx-rates.ts';
import { validateRow } from './row-checks.ts';
import { copyErrorLine, CopiedLines } from './copy-errors.ts';
import { ingestNotes, unlistedProviders } from './notes.ts';
import { RollupSums, sliceKey } from './rollup-sums.ts';
import { hasBatches } from './formats/batched-source.ts';

/** How many bad lines a rejection lists (the issue: the first 100). */
export const MAX_LISTED_ERRORS = 100;
const PROGRESS_EVERY_ROWS = 5_000;
/** Loads at least this big refresh the rollups' planner statistics (analyzeRollups). */
const ANALYZE_AFTER_ROWS = 100_000;
// COPY data goes out in chunks of about this many characters rather than one write per row.
const COPY_CHUNK_CHARS = 256 * 1024;
/**
 * The most (day, project) groups, services and label sets a file's rollups are summed in (about half a kilobyte each):
 * past it the sums are dropped and the file's slices rebuilt from the lines in SQL, so the worker's memory stays
 * bounded whatever the file holds (a file of a million distinct resource tags still loads, more slowly).
 */
export const FILE_ROLLUP_LIMIT = 250_000;

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
  /** A file's FILE_ROLLUP_LIMIT; tests set a small one to take the rebuild-from-lines path. */
  rollupLimit?: number;
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
  const copiedLines = new CopiedLines();
  async function* text(): AsyncGenerator<string> {
    let chunk = '';
    let nextProgress = PROGRESS_EVERY_ROWS;
    const take = (item: SourceItem) => {
      lastLine = item.line;
      const row = item.row;
      const reason = row ? validateRow(row, source.window, source.moneyFields) : item.error;
      if (reason !== null || !row) {
        errorCount++;
        if (errors.length < MAX_LISTED_ERRORS) errors.push({ line: item.line, reason: printable(reason ?? 'unreadable row') });
        chunk = '';
        return;
      }
      rows++;
      if (errorCount === 0) {
        chunk += format(row);
        copiedLines.push(item.line);
      }
    };
    const report = () => {
      nextProgress = rows - (rows % PROGRESS_EVERY_ROWS) + PROGRESS_EVERY_ROWS;
      return progress({ phase: 'reading', rows, errors: errorCount, fraction: fraction() });
    };
    // After each batch of rows (or each row of a source without batches): the COPY text goes out once it is big
    // enough, progress every so many rows.
    if (hasBatches(source)) {
      for await (const batch of source.rowBatches()) {
        for (let i = 0; i < batch.length; i++) take(batch[i]);
        if (chunk.length >= COPY_CHUNK_CHARS) {
          yield chunk;
          chunk = '';
        }
        if (rows >= nextProgress) await report();
      }
    } else {
      for await (const item of source.rows()) {
        take(item);
        if (chunk.length >= COPY_CHUNK_CHARS) {
          yield chunk;
          chunk = '';
        }
        if (rows >= nextProgress) await report();
      }
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

/** What a file holds that decides what it replaces: its billing periods, the days of rows without one, its corrections. */
class FileShape {
  readonly periods = new Set<string>();
  readonly daysWithoutPeriod = new Set<string>();
  allCorrections = true;
  private lastPeriod: string | null = null;

  add(row: CostRow): void {
    if (row.invoice_month === null) this.daysWithoutPeriod.add(row.usage_date);
    else if (row.invoice_month !== this.lastPeriod) {
      this.periods.add(row.invoice_month);
      this.lastPeriod = row.invoice_month;
    }
    if (!row.correction) this.allCorrections = false;
  }
}

/**
 * Which of a file's (day, provider) slices keep lines of other batches after its replacement (their rollups are
 * rebuilt from the lines): those an extent of another batch covers, unless the file replaced that batch's lines there
 * (an export's billing periods, and the days of its rows without one, of 'replace' batches). Extents bound where a
 * batch's lines can be, so a slice found clean holds only the file's lines; one found mixed may not, and is rebuilt
 * from its lines anyway, which is exact either way.
 */
function keepsOtherLines(slice: { day: string; provider: string }, extents: OtherExtent[], periods: ReadonlySet<string>, daysWithoutPeriod: ReadonlySet<string>): boolean {
  const { day, provider } = slice;
  return extents.some(
    (e) => e.provider === provider && e.first_day <= day && day <= e.last_day && !(e.replaceable && (periods.has(e.invoice_month) || daysWithoutPeriod.has(day))),
  );
}

/**
 * A FOCUS file in one transaction: its rows are COPYed straight into `cost_line` and summed on the way (RollupSums), as
 * a windowed source's are; what it replaces depends on what it held, so it is worked out after the COPY: an export
 * deletes the older lines of its billing periods (not its own), all corrections make a correction file, which adds (or
 * is a duplicate, and everything rolls back). The rollups of the slices it touched come from its sums where it is all
 * they hold, and are rebuilt from the lines in SQL where other batches' lines stay beside it (corrections, other
 * periods). A bad row rolls the whole transaction back: nothing of the file stays.
 */
async function loadFile({ req, client, batchId, progress }: LoadContext): Promise<Loaded | ReadResult> {
  const { source } = req;
  const target = { customerId: req.customerId, billingAccountId: req.billingAccountId };
  await client.query('BEGIN');
  await tuneReplaceTransaction(client);
  await lockBillingAccount(client, req.billingAccountId);
  if (!(await lockCustomer(client, req.customerId))) throw new Error(`customer ${req.customerId} no longer exists`);
  const sums = new RollupSums(req.rollupLimit ?? FILE_ROLLUP_LIMIT);
  const shape = new FileShape();
  const line = costLineCopy({ ...target, batchId });
  const read = await readInto(client, line.sql, source, (row) => {
    shape.add(row);
    return line.line(row, sums.add(row));
  }, progress);
  if (read.errorCount > 0) {
    await client.query('ROLLBACK');
    return read;
  }
  await progress({ phase: 'replacing', rows: read.rows, errors: 0, fraction: 1 });
  const providers = sortedUnion(source.providers ?? [], sums.providers);
  // Files as providers publish them: an export replaces its billing periods, a correction file adds to them.
  const mode: IngestMode = shape.allCorrections ? 'append' : 'replace';
  if (mode === 'append' && req.fileHash) {
    const duplicateOf = await findAppendedFile(client, req.billingAccountId, req.fileHash);
    if (duplicateOf !== null) {
      // the lines just copied go with the rollback; the batch says which one loaded this file
      await client.query('ROLLBACK');
      await markBatchDuplicate(client, batchId, read.rows, mode, duplicateOf);
      return { rows: read.rows, days: [], mode, billingPeriods: [], duplicateOf, totals: () => batchTotals(req.pool, batchId) };
    }
  }
  const periods = mode === 'replace' ? shape.periods : new Set<string>();
  const daysWithoutPeriod = mode === 'replace' ? shape.daysWithoutPeriod : new Set<string>();
  const billingPeriods = [...periods].sort();
  const ownDays = [...sums.days].sort();
  const extents = await otherExtents(client, { ...target, batchId, providers, from: ownDays[0], to: ownDays.at(-1)!, periods: billingPeriods });
  // Only an earlier 'replace' batch of these periods (or of the days without one) has lines to delete: a first load
  // skips the search through its own lines.
  const replaces = extents.some((e) => e.replaceable && (periods.has(e.invoice_month) || ownDays.some((d) => daysWithoutPeriod.has(d) && e.first_day <= d && d <= e.last_day)));
  const emptied = replaces
    ? await deleteBillingPeriods(client, { billingAccountId: req.billingAccountId, providers, billingPeriods, days: [...daysWithoutPeriod].sort(), keep: batchId })
    : [];
  await req.afterDelete?.(client);
  const touched = new Map(sums.slices);
  for (const e of emptied) touched.set(sliceKey(e.day, e.provider), e);
  const mixed = [...touched.values()].filter((t) => sums.overflowed || keepsOtherLines(t, extents, periods, daysWithoutPeriod));
  // the slices rebuilt in SQL: every slice of the mixed ones' days and providers (rebuilding a clean one is exact too)
  const rebuiltDays = new Set(mixed.map((t) => t.day));
  const rebuiltProviders = new Set(mixed.map((t) => t.provider));
  const summed = [...touched.entries()].filter(([, t]) => !(rebuiltDays.has(t.day) && rebuiltProviders.has(t.provider)));
  const summedKeys = new Set(summed.map(([key]) => key));
  const days = sortedUnion([], [...touched.values()].map((t) => t.day));
  const greatest = (lists: string[][]) => greatestNames(client, lists);
  await writeFileRollups(client, {
    ...target,
    days,
    summed: {
      days: summed.map(([, t]) => t.day),
      providers: summed.map(([, t]) => t.provider),
      daily: summed.length > 0 ? await sums.dailyRows(greatest, summedKeys) : [],
      labels: summed.length > 0 ? sums.labelRows(summedKeys) : [],
    },
    rebuilt: { days: [...rebuiltDays].sort(), providers: [...rebuiltProviders].sort() },
  });
  await saveExtents(client, { ...target, batchId }, sums.extents());
  await markBatchSucceeded(client, batchId, read.rows, days.length, { mode, billingPeriods });
  const totals = sums.overflowed ? null : await sums.totals(greatest);
  await client.query('COMMIT');
  return { rows: read.rows, days, mode, billingPeriods, duplicateOf: null, totals: totals ? async () => totals : () => batchTotals(req.pool, batchId) };
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
    client.off('error', onConnectionError);
    // A connection that died mid-transaction (killed backend) must not go back to the pool.
    client.release(broken);
  }
}
