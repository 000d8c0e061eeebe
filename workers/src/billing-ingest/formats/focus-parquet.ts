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

/** The rows of a Parquet file, row group by row group; `progress` gets the bytes read so far (approximately). */
export async function* parquetItems(file: IngestFile, state: FocusRowState, progress: (done: number) => void): AsyncGenerator<SourceItem> {
  const buffer = handleBuffer(file);
  const metadata = await metadataOf(file, buffer);
  if (typeof metadata === 'string') {
    yield { line: 1, error: metadata };
    return;
  }
  const names = parquetSchema(metadata).children.map((c) => c.element.name);
  const missing = missingColumns(names);
  if (missing.length) {
    yield { line: 1, error: `the Parquet schema is missing FOCUS column${missing.length > 1 ? 's' : ''} ${missing.join(', ')}` };
    return;
  }
  state.hasEffectiveColumn = names.includes('EffectiveCost');
  const columns = USED.filter((c) => names.includes(c));
  const index: Record<string, number> = Object.create(null) as Record<string, number>;
  columns.forEach((c, i) => (index[c] = i));
  let values: unknown[] = [];
  const record = {
    text: (name: string) => {
      const i = index[name];
      return i === undefined ? null : parquetText(values[i]);
    },
    tags: () => (index.Tags === undefined ? null : values[index.Tags]),
  };
  let rowStart = 0;
  for (const [g, group] of metadata.row_groups.entries()) {
    const rowEnd = rowStart + Number(group.num_rows);
    let rows: unknown[][] = [];
    try {
      await parquetRead({ file: buffer, metadata, compressors, columns, rowStart, rowEnd, onComplete: (r: unknown[][]) => (rows = r) });
    } catch (err) {
      yield { line: rowStart + 1, error: `row group ${g + 1} (rows ${rowStart + 1}–${rowEnd}) is unreadable: ${(err as Error).message}` };
      return;
    }
    if (rows.length !== rowEnd - rowStart) {
      yield { line: rowStart + 1, error: `row group ${g + 1} (rows ${rowStart + 1}–${rowEnd}) holds ${rows.length} rows, its metadata says ${rowEnd - rowStart}` };
      return;
    }
    for (let i = 0; i < rows.length; i++) {
      values = rows[i];
      const line = rowStart + i + 1;
      const row = focusRow(record, state);
      yield typeof row === 'string' ? { line, error: row } : { line, row };
    }
    rowStart = rowEnd;
    progress(Math.round((file.size * rowStart) / Math.max(1, Number(metadata.num_rows))));
  }
}
