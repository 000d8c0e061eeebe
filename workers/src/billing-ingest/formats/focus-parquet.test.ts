/**
 * A large row group is read in slices (SLICE_ROWS) and gives exactly the rows read whole: the FOCUS sample (row
 * groups of 300, one page a column, so every slice starts inside a page) and the Tags-as-MAP file (a nested column,
 * decoded once a group while its flat columns are sliced), each read with tiny slices and with whole groups.
 */
import t from 'tap';
import type { SourceItem } from '@cc/shared/ports/billing-source.ts';
import { openIngestFile } from '@cc/shared/commands/ingest-file.ts';
import { parquetBatches, SLICE_ROWS } from './focus-parquet.ts';

const FIXTURE = (name: string) => new URL(`../../../../test/fixtures/focus-parquet/${name}`, import.meta.url).pathname;

async function batches(path: string, sliceRows: number): Promise<SourceItem[][]> {
  const file = await openIngestFile(path);
  const out: SourceItem[][] = [];
  try {
    for await (const batch of parquetBatches(file, { hasEffectiveColumn: true, rowsWithoutEffective: 0 }, () => undefined, sliceRows)) out.push(batch);
  } finally {
    await file.handle.close();
  }
  return out;
}

for (const [name, slice] of [['focus_sample.snappy.parquet', 7], ['focus_sample.zstd.parquet', 64], ['focus_tags_map.parquet', 1]] as const) {
  t.test(`${name} in slices of ${slice} rows reads as in whole groups`, async (t) => {
    const whole = await batches(FIXTURE(name), SLICE_ROWS);
    const sliced = await batches(FIXTURE(name), slice);
    t.ok(whole.flat().length > slice, 'the file has more rows than a slice');
    t.ok(whole.flat().every((i) => 'row' in i), 'every row of the fixture maps');
    t.same(sliced.flat(), whole.flat(), 'the same rows, lines and reasons');
    t.ok(sliced.every((b) => b.length <= slice), 'no batch spans more than one slice: the group was decoded a slice at a time');
    t.ok(whole.some((b) => b.length > slice), 'read whole, a batch holds more than a slice');
  });
}
