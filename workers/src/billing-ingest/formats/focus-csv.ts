/**
 * FOCUS 1.0 files (AWS, Azure, Oracle and any other FOCUS producer) as providers deliver them: CSV, gzip CSV or
 * Parquet, told apart by their first bytes (ingest-format.ts), streamed so a file of any size is read in bounded
 * memory. CSV is split by csv-fast.ts, which makes strings only of the columns the mapping reads, and hands anything
 * unusual over to csv-parse (as bare arrays: its per-field and per-record bookkeeping, `info` and a `cast` with
 * context, was most of the ingest's time; each record's line is read from the parser's own count as it leaves it).
 * Mapping decisions: docs/decisions-billing.md.
 */
import { pipeline } from 'node:stream';
import { createGunzip } from 'node:zlib';
import type { Readable } from 'node:stream';
import { parse, CsvError, type Parser } from 'csv-parse';
import { headOf, openIngestFile, type IngestFile } from '@cc/shared/commands/ingest-file.ts';
import { fileFormatOf } from '@cc/shared/commands/ingest-format.ts';
import type { SourceItem } from '@cc/shared/ports/billing-source.ts';
import { checkedText, TextRefused, type CheckedText } from './checked-text.ts';
import { focusRow, missingColumns, MONEY_FIELDS, NO_EFFECTIVE_COST_COLUMN, noEffectiveCostRows, READ_COLUMNS, type FocusRowState } from './focus-row.ts';
import { fastCsvRecords, Unhandled } from './csv-fast.ts';
import { parquetBatches } from './focus-parquet.ts';
import type { BatchedSource } from './batched-source.ts';

export { providerId, PORTAL_PROVIDERS, NO_EFFECTIVE_COST_COLUMN, noEffectiveCostRows } from './focus-row.ts';

/**
 * The longest record (characters) and the most bytes without a record ending: a FOCUS row is a few kilobytes, so
 * anything near these is not FOCUS CSV, and stopping there bounds the parser's memory and time (a 2 GB file of NUL
 * bytes or blank lines is refused after a few MiB instead of being parsed for an hour).
 */
export const MAX_RECORD_CHARS = 1024 * 1024;
export const MAX_BYTES_WITHOUT_RECORD = 4 * 1024 * 1024;
/** FOCUS has fewer than 100 columns: a record of more fields is not FOCUS. */
export const MAX_FIELDS = 10_000;

// Bytes read from the file (and gunzipped) at a time: fewer chunks for the CSV reader to split (1 MiB held more garbage
// for no less CPU).
const READ_CHUNK = 256 * 1024;

const NOT_COMMA_SEPARATED = ` (the file is not comma-separated: FOCUS CSV files use ',')`;

/** A parser error as a bad line's reason: the record-size limit in the file's terms, the others as csv-parse says them. */
function csvReason(err: CsvError, header: string[] | null): string {
  if (err.code === 'CSV_MAX_RECORD_SIZE') return `a record is longer than ${MAX_RECORD_CHARS / 1024} KiB characters: the file is not FOCUS CSV`;
  const hint = header === null && /got "[;\t]"/.test(err.message) ? NOT_COMMA_SEPARATED : '';
  return `unreadable CSV: ${err.message}${hint}`;
}

/** CR LF pairs inside the record's (quoted) fields: csv-parse counts each as two lines. */
function quotedCrLf(record: string[]): number {
  let n = 0;
  for (let i = 0; i < record.length; i++) {
    const f = record[i];
    for (let at = f.indexOf('\r\n'); at !== -1; at = f.indexOf('\r\n', at + 2)) n++;
  }
  return n;
}

/** A record as csvBatches reads it: the values (by column; csv-fast leaves the unread ones undefined), its fields' count and line. */
interface CsvRecord {
  values: (string | undefined)[];
  fields: number;
  line: number;
}

/** csv-parse's records of `text` (already checked), each with the file line where it ends. */
async function* csvParseRecords(text: CheckedText, read: { lines: () => number }): AsyncGenerator<CsvRecord[]> {
  const parser: Parser = parse({ bom: true, relax_column_count: true, skip_empty_lines: true, max_record_size: MAX_RECORD_CHARS });
  // The parser counts lines itself (quoted line breaks and skipped blank lines too) and `info` is where it keeps the
  // count: read here as each record leaves the parser, so each record carries the line where it ends.
  const push = parser.push.bind(parser);
  parser.push = (record: unknown, encoding?: BufferEncoding) => {
    if (record === null) return push(null, encoding);
    text.recordEnded(parser.info.bytes, parser.info.lines);
    return push({ record, line: parser.info.lines }, encoding);
  };
  pipeline(text.stream, parser, () => undefined);
  // Lines csv-parse counted twice so far (a CR LF inside quotes), taken off its count.
  let counted = 0;
  read.lines = () => parser.info.lines - counted;
  try {
    for await (const item of parser as AsyncIterable<{ record: string[]; line: number }>) {
      counted += quotedCrLf(item.record);
      yield [{ values: item.record, fields: item.record.length, line: item.line - counted }];
    }
  } catch (err) {
    if (err instanceof CsvError && typeof err.lines === 'number') err.lines -= counted;
    throw err;
  }
}

/** csv-fast's records of `text` (already checked), the columns the mapping reads made strings. */
async function* fastRecords(text: CheckedText): AsyncGenerator<CsvRecord[]> {
  const wanted = (header: string[]) => READ_COLUMNS.map((c) => header.indexOf(c)).filter((i) => i >= 0);
  for await (const batch of fastCsvRecords(text.stream, wanted, { maxRecordBytes: MAX_RECORD_CHARS, maxFields: MAX_FIELDS })) {
    const last = batch[batch.length - 1];
    text.recordEnded(last.bytes, last.line);
    yield batch;
  }
}

/**
 * The rows of CSV text (`bytes`: the file, or its gunzip), each with the file line where it ends, in batches (one per
 * chunk the reader split: a row at a time through async generators cost more than the rows' own work). `fast`: split
 * by csv-fast, which throws Unhandled where csv-parse must take over; `skip`: records already read that way (header
 * included), read again by csv-parse but not yielded again.
 */
async function* csvBatches(bytes: Readable, fileSize: number, state: FocusRowState, gzip: boolean, how: { fast: boolean; skip: number }): AsyncGenerator<SourceItem[]> {
  const text = checkedText({ fileSize, maxBytesWithoutRecord: MAX_BYTES_WITHOUT_RECORD });
  // Any stage failing destroys the others with its error, which the loop below then meets; the file closes.
  pipeline(bytes, text.stream, () => undefined);
  let header: string[] | null = null;
  let col: Record<string, number> = {};
  let record: (string | undefined)[] = [];
  let records = 0;
  let line = 1;
  const read = { lines: () => line };
  // Exports write SQL-style NULL unquoted (a quoted "NULL" is read as NULL too: no FOCUS column holds that word).
  const at = (i: number | undefined) => {
    if (i === undefined) return null;
    const v = record[i];
    return v === '' || v === 'NULL' || v === undefined ? null : v;
  };
  const fields = {
    text: (name: string) => at(col[name]),
    tags: () => at(col.Tags),
  };
  try {
    for await (const batch of how.fast ? fastRecords(text) : csvParseRecords(text, read)) {
      const out: SourceItem[] = [];
      for (const item of batch) {
        record = item.values;
        line = item.line;
        const skipped = ++records <= how.skip;
        if (item.fields > MAX_FIELDS) {
          out.push({ line, error: `a record has more than ${MAX_FIELDS} fields: the file is not FOCUS CSV` });
          yield out;
          return;
        }
        if (!header) {
          header = record.slice(0, item.fields) as string[];
          col = Object.create(null) as Record<string, number>;
          header.forEach((h, i) => (col[h] ??= i));
          const missing = missingColumns(header);
          if (missing.length) {
            // A file from a spreadsheet in a comma-decimal locale comes as one ';'-separated column.
            const hint = header.length === 1 && /[;\t]/.test(header[0]) ? NOT_COMMA_SEPARATED : '';
            out.push({ line, error: `header is missing FOCUS column${missing.length > 1 ? 's' : ''} ${missing.join(', ')}${hint}` });
            yield out;
            return;
          }
          state.hasEffectiveColumn = col.EffectiveCost !== undefined;
          continue;
        }
        if (skipped) continue;
        if (item.fields !== header.length) {
          out.push({ line, error: `has ${item.fields} fields, the header has ${header.length}` });
          continue;
        }
        const row = focusRow(fields, state);
        out.push(typeof row === 'string' ? { line, error: row } : { line, row });
      }
      // what the loop met after this batch (a parser error below) comes after its rows
      if (out.length) yield out;
    }
  } catch (err) {
    if (err instanceof Unhandled) throw new Unhandled(records);
    // A broken quote or similar stops the parser; report where, as one more bad line. Every parser error is
    // the file's fault (some codes, e.g. INVALID_OPENING_QUOTE, lack the CSV_ prefix); a read error is not.
    if (err instanceof CsvError) {
      yield [{ line: typeof err.lines === 'number' ? Math.max(1, err.lines) : 1, error: csvReason(err, header) }];
      return;
    }
    if (err instanceof TextRefused) {
      yield [{ line: err.problem.line, error: err.problem.reason }];
      return;
    }
    // zlib's errors (Z_BUF_ERROR: cut short, Z_DATA_ERROR: corrupt) are the file's fault too; csv-parse's count of
    // the lines read says where, so the fast reader leaves them to it.
    if (gzip && typeof (err as { code?: unknown }).code === 'string' && (err as { code: string }).code.startsWith('Z_')) {
      if (how.fast) throw new Unhandled(records);
      const after = read.lines();
      yield [{ line: after, error: `the gzip file is truncated or corrupt at line ${after}: ${(err as Error).message}` }];
      return;
    }
    throw err;
  }
}

/**
 * `dropDir`: the file must lie inside it, checked again when it is opened (the worker; the CLI reads any path).
 * Reads CSV, gzip CSV and Parquet alike (the name is older than the formats). `reader: 'csv-parse'`: CSV through
 * csv-parse only (tests compare the two readers).
 */
export function focusCsvSource(path: string, opts: { dropDir?: string; reader?: 'csv-parse' } = {}): BatchedSource {
  let bytesRead = 0;
  let size = 0;
  // EffectiveCost is mandatory in FOCUS, yet hand-made or older files lack it: counted, and said in the ingest output.
  const state: FocusRowState = { hasEffectiveColumn: true, rowsWithoutEffective: 0 };
  async function* rowBatches(): AsyncGenerator<SourceItem[]> {
    const opened = await openIngestFile(path, opts);
    size = opened.size;
    const format = fileFormatOf(await headOf(opened));
    if (format === 'parquet') {
      try {
        yield* parquetBatches(opened, state, (done) => (bytesRead = done));
      } finally {
        await opened.handle.close();
      }
      return;
    }
    const batches = (file: IngestFile, how: { fast: boolean; skip: number }) => {
      const bytes = file.handle.createReadStream({ start: 0, highWaterMark: READ_CHUNK });
      bytes.on('data', (c) => (bytesRead += c.length));
      if (format === 'gzip') {
        const gunzip = createGunzip({ chunkSize: READ_CHUNK });
        pipeline(bytes, gunzip, () => undefined);
        // The decompressed size is unknown: the first chunk is never taken for the whole file.
        return csvBatches(gunzip, Number.MAX_SAFE_INTEGER, state, true, how);
      }
      return csvBatches(bytes, size, state, false, how);
    };
    try {
      yield* batches(opened, { fast: opts.reader !== 'csv-parse', skip: 0 });
    } catch (err) {
      if (!(err instanceof Unhandled)) throw err;
      // csv-parse takes over from the record csv-fast could not read, so what it says about the file is its own
      bytesRead = 0;
      yield* batches(await openIngestFile(path, opts), { fast: false, skip: err.records });
    }
  }
  return {
    label: path,
    moneyFields: MONEY_FIELDS,
    position: () => (size ? { done: bytesRead, total: size } : undefined),
    notes: () => (!state.hasEffectiveColumn ? [NO_EFFECTIVE_COST_COLUMN] : state.rowsWithoutEffective > 0 ? [noEffectiveCostRows(state.rowsWithoutEffective)] : []),
    rowBatches,
    async *rows(): AsyncGenerator<SourceItem> {
      for await (const batch of rowBatches()) for (const item of batch) yield item;
    },
  };
}
