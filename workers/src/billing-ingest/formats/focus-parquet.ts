/**
 * FOCUS 1.0 exports in Parquet (AWS Data Exports and Azure cost exports write snappy, gzip or zstd pages) through
 * hyparquet and its compressors, one row group at a time so memory stays bounded by the largest row group of the
 * columns read, never the file. A Parquet row is named by its row number (1 = the first row), the "line" of a CSV.
 */
import { parquetMetadataAsync, parquetRead, parquetSchema, type AsyncBuffer, type FileMetaData } from 'hyparquet';
import { compressors } from 'hyparquet-compressors';
import type { IngestFile } from '@cc/shared/commands/ingest-file.ts';
import type { SourceItem } from '@cc/shared/ports/billing-source.ts';
import { MONEY_SCALE } from '@cc/shared/decimal.ts';
import { focusRow, missingColumns, READ_COLUMNS, type FocusRowState } from './focus-row.ts';

// The columns the mapping reads (focus-row.ts); the others are not decoded.
const USED = READ_COLUMNS;

/** The opened file as hyparquet reads it: ranges read from the handle, never the whole file. */
function handleBuffer(file: IngestFile): AsyncBuffer {
  return {
    byteLength: file.size,
    async slice(start: number, end?: number): Promise<ArrayBuffer> {
      const to = Math.min(end ?? file.size, file.size);
      const buf = new Uint8Array(Math.max(0, to - start));
      if (buf.length) await file.handle.read(buf, 0, buf.length, start);
      return buf.buffer;
    },
  };
}

/** A Parquet value as the text a FOCUS CSV would hold (null: absent). */
export function parquetText(v: unknown): string | null {
  if (v === null || v === undefined || v === '') return null;
  if (typeof v === 'string') return v;
  if (v instanceof Date) return v.toISOString();
  if (typeof v === 'number') {
    const s = String(v);
    if (!s.includes('e')) return s;
    // Doubles in exponent form (8e-7) as plain decimals at the stored scale, trailing zeros dropped.
    return Math.abs(v) >= 1e21 ? s : v.toFixed(MONEY_SCALE).replace(/\.?0+$/, '');
  }
  if (typeof v === 'bigint' || typeof v === 'boolean') return String(v);
  return JSON.stringify(v);
}

const PAR1 = Buffer.from('PAR1');

async function metadataOf(file: IngestFile, buffer: AsyncBuffer): Promise<FileMetaData | string> {
  const tail = Buffer.alloc(4);
  if (file.size >= 12) await file.handle.read(tail, 0, 4, file.size - 4);
  if (file.size < 12 || !tail.equals(PAR1)) return 'the Parquet file is truncated (no PAR1 footer at its end)';
  try {
    return await parquetMetadataAsync(buffer);
  } catch (err) {
    return `the Parquet file's metadata is unreadable: ${(err as Error).message}`;
  }
}

/** Rows handed on at a time: enough that the async hand-over costs nothing per row, few enough to stay small. */
const BATCH_ROWS = 2048;

/** A column of one row group as hyparquet decoded it, page by page, read row after row without joining the pages. */
class ColumnCursor {
  private readonly pieces: { rowStart: number; data: ArrayLike<unknown> }[] = [];
  private k = 0;
  rows = 0;

  add(rowStart: number, data: ArrayLike<unknown>): void {
    this.pieces.push({ rowStart, data });
    this.rows += data.length;
  }

  /** Starts the first piece at `rowStart` (the pieces come in order); false when they do not cover the rows in one run. */
  ready(rowStart: number): boolean {
    this.pieces.sort((a, b) => a.rowStart - b.rowStart);
    let at = rowStart;
    for (const p of this.pieces) {
      if (p.rowStart !== at) return false;
      at += p.data.length;
    }
    return true;
  }

  /** The value of row `row` (absolute); rows are asked for in order. */
  at(row: number): unknown {
    let p = this.pieces[this.k];
    while (row >= p.rowStart + p.data.length) p = this.pieces[++this.k];
    return p.data[row - p.rowStart];
  }
}

/**
 * The rows of a Parquet file, row group by row group, in batches; `progress` gets the bytes read so far
 * (approximately). Each group's columns are read as hyparquet decodes them (its pages), and rows made of them a batch
 * at a time: neither a flattened copy of each column nor an array per row of the group is built, so memory is the
 * group's decoded columns and one batch.
 */
export async function* parquetBatches(file: IngestFile, state: FocusRowState, progress: (done: number) => void): AsyncGenerator<SourceItem[]> {
  const buffer = handleBuffer(file);
  const metadata = await metadataOf(file, buffer);
  if (typeof metadata === 'string') {
    yield [{ line: 1, error: metadata }];
    return;
  }
  const names = parquetSchema(metadata).children.map((c) => c.element.name);
  const missing = missingColumns(names);
  if (missing.length) {
    yield [{ line: 1, error: `the Parquet schema is missing FOCUS column${missing.length > 1 ? 's' : ''} ${missing.join(', ')}` }];
    return;
  }
  state.hasEffectiveColumn = names.includes('EffectiveCost');
  const columns = USED.filter((c) => names.includes(c));
  let cursors = new Map<string, ColumnCursor>();
  let row = 0;
  const record = {
    text: (name: string) => {
      const c = cursors.get(name);
      return c === undefined ? null : parquetText(c.at(row));
    },
    tags: () => cursors.get('Tags')?.at(row) ?? null,
  };
  let rowStart = 0;
  for (const [g, group] of metadata.row_groups.entries()) {
    const rowEnd = rowStart + Number(group.num_rows);
    const where = `row group ${g + 1} (rows ${rowStart + 1}–${rowEnd})`;
    cursors = new Map(columns.map((c) => [c, new ColumnCursor()]));
    try {
      await parquetRead({ file: buffer, metadata, compressors, columns, rowStart, rowEnd, onChunk: (c) => cursors.get(c.columnName)?.add(c.rowStart, c.columnData) });
    } catch (err) {
      yield [{ line: rowStart + 1, error: `${where} is unreadable: ${(err as Error).message}` }];
      return;
    }
    for (const c of cursors.values()) {
      if (c.rows !== rowEnd - rowStart || !c.ready(rowStart)) {
        yield [{ line: rowStart + 1, error: `${where} holds ${c.rows} rows, its metadata says ${rowEnd - rowStart}` }];
        return;
      }
    }
    for (let from = rowStart; from < rowEnd; from += BATCH_ROWS) {
      const out: SourceItem[] = [];
      for (row = from; row < Math.min(rowEnd, from + BATCH_ROWS); row++) {
        const line = row + 1;
        const r = focusRow(record, state);
        out.push(typeof r === 'string' ? { line, error: r } : { line, row: r });
      }
      yield out;
    }
    cursors = new Map();
    rowStart = rowEnd;
    progress(Math.round((file.size * rowStart) / Math.max(1, Number(metadata.num_rows))));
  }
}
