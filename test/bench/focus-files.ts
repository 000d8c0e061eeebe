/**
 * FOCUS 1.0 files for the file-ingest benchmark, made from the real FOCUS sample's rows: a wide file (every column
 * of the sample, Tags as JSON) and a narrow one (17 columns). Each row varies the resource, its tags and its SKU so
 * the rollups see many lines per day; the dates stay the sample's (one billing period).
 */
import { createWriteStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { once } from 'node:events';
import { parse } from 'csv-parse/sync';
import { ParquetWriter, schemaFromColumnData } from 'hyparquet-writer';
import { fileWriter } from 'hyparquet-writer';

export const FOCUS_SAMPLE = 'infra/data/focus-1.0/focus_sample.csv';

export const NARROW_COLUMNS = [
  'BilledCost', 'BillingCurrency', 'BillingPeriodStart', 'BillingPeriodEnd', 'ChargeCategory', 'ChargeClass', 'ChargePeriodStart',
  'ChargePeriodEnd', 'EffectiveCost', 'ProviderName', 'ResourceId', 'ServiceName', 'SkuId', 'SubAccountId', 'SubAccountName', 'RegionId', 'Tags',
];

const quote = (v: string | null) => (v === null ? 'NULL' : `"${v.replace(/"/g, '""')}"`);

/** The sample's header and the `rows` data rows made of it (`columns` null: every column of the sample). */
async function* focusRows(rows: number, columns: string[] | null): AsyncGenerator<string[] | (string | null)[]> {
  const records = parse(await readFile(FOCUS_SAMPLE), { bom: true, cast: (v, ctx) => (!ctx.quoting && v === 'NULL' ? null : v) }) as (string | null)[][];
  const [sampleHeader, ...sample] = records as [string[], ...(string | null)[][]];
  const header = columns ?? sampleHeader;
  yield header;
  const idx = header.map((c) => sampleHeader.indexOf(c));
  const at = (name: string) => header.indexOf(name);
  const [resource, tags, sku] = [at('ResourceId'), at('Tags'), at('SkuId')];
  for (let i = 0; i < rows; i++) {
    const base = sample[i % sample.length];
    const k = Math.floor(i / sample.length);
    const row = idx.map((j) => (j < 0 ? null : base[j]));
    row[resource] = `${base[sampleHeader.indexOf('ResourceId')] ?? 'res'}/${k % 5000}`;
    row[tags] = JSON.stringify({ team: `t${k % 20}`, env: k % 3 === 0 ? 'prod' : 'dev', 'cost-center': `cc-${k % 7}` });
    row[sku] = `${base[sampleHeader.indexOf('SkuId')] ?? 'sku'}-${k % 40}`;
    yield row;
  }
}

/** Writes `rows` data rows to `path` as CSV (NULL for absent values); `columns` null: every column of the sample. */
export async function writeFocusCsv(path: string, rows: number, columns: string[] | null): Promise<void> {
  const out = createWriteStream(path);
  let chunk = '';
  for await (const row of focusRows(rows, columns)) {
    chunk += `${row.map(quote).join(',')}\n`;
    if (chunk.length > 1 << 20) {
      if (!out.write(chunk)) await once(out, 'drain');
      chunk = '';
    }
  }
  out.end(chunk);
  await once(out, 'finish');
}

/**
 * Rows (the first one the header) written as Parquet, every column an optional string, cut into row groups of
 * `groupRows` as the providers' exports are (a column chunk per column per group). `options`: the writer's own
 * (codec, statistics).
 */
export async function writeParquetRows(
  path: string,
  rows: AsyncIterable<(string | null)[]>,
  groupRows: number,
  options: Partial<Pick<ConstructorParameters<typeof ParquetWriter>[0], 'codec' | 'statistics'>> = {},
): Promise<void> {
  let header: string[] | null = null;
  let writer: ParquetWriter | null = null;
  let group: (string | null)[][] = [];
  const flush = () => {
    if (!header || !group.length) return;
    const columnData = header.map((name, i) => ({ name, data: group.map((r) => r[i]), type: 'STRING' as const, nullable: true }));
    writer ??= new ParquetWriter({ writer: fileWriter(path), schema: schemaFromColumnData({ columnData }), ...options });
    writer.write({ columnData, rowGroupSize: group.length });
    group = [];
  };
  for await (const row of rows) {
    if (!header) header = row as string[];
    else group.push(row);
    if (group.length === groupRows) flush();
  }
  flush();
  (writer as ParquetWriter | null)?.finish();
}

/** The same rows written as Parquet directly (not through a CSV): snappy pages, row groups of `groupRows`. */
export function writeFocusParquet(path: string, rows: number, columns: string[] | null, groupRows = 100_000): Promise<void> {
  return writeParquetRows(path, focusRows(rows, columns), groupRows, { codec: 'SNAPPY', statistics: false });
}

if (process.argv[1]?.endsWith('focus-files.ts')) {
  const [path, n, kind] = process.argv.slice(2);
  const columns = kind === 'narrow' ? NARROW_COLUMNS : null;
  await (path.endsWith('.parquet') ? writeFocusParquet(path, Number(n), columns) : writeFocusCsv(path, Number(n), columns));
}
