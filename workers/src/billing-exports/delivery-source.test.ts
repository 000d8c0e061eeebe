import t from 'tap';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SourceItem } from '@cc/shared/ports/billing-source.ts';
import { hasBatches } from '../billing-ingest/formats/batched-source.ts';
import { deliverySource } from './delivery-source.ts';

const SAMPLE = new URL('../../../infra/data/focus-1.0/focus_sample.csv', import.meta.url).pathname;

t.test('a delivery hands its parts over in batches, errors named by part and line', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'cc-delivery-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const [header, ...rows] = (await readFile(SAMPLE, 'utf8')).split('\n');
  const a = join(dir, '0001-part-a.csv');
  const b = join(dir, '0002-part-b.csv');
  await writeFile(a, [header, ...rows.slice(0, 300)].join('\n') + '\n');
  // line 4 of part b has one field too few
  await writeFile(b, [header, rows[300], rows[301], rows[302].slice(0, rows[302].lastIndexOf(',')), rows[303]].join('\n') + '\n');

  const source = deliverySource('delivery', [a, b]);
  t.ok(hasBatches(source), 'the ingest takes its rows in batches');
  if (!hasBatches(source)) return;
  const batched: SourceItem[] = [];
  let batches = 0;
  for await (const batch of source.rowBatches()) {
    batches++;
    batched.push(...batch);
  }
  t.ok(batches < batched.length, `fewer batches (${batches}) than rows (${batched.length})`);
  const oneByOne: SourceItem[] = [];
  for await (const item of deliverySource('delivery', [a, b]).rows()) oneByOne.push(item);
  t.same(batched, oneByOne, 'rows() yields the same items');
  t.equal(batched.length, 304);
  t.same(batched.filter((i) => i.error !== undefined), [{ line: 4, error: `part-b.csv: has ${header.split(',').length - 1} fields, the header has ${header.split(',').length}` }]);
  t.same(batched.slice(300).map((i) => i.line), [2, 3, 4, 5], 'lines are each part\'s own');

  const single = deliverySource('one part', [b]);
  const errors: SourceItem[] = [];
  for await (const item of single.rows()) if (item.error !== undefined) errors.push(item);
  t.same(errors, [{ line: 4, error: `has ${header.split(',').length - 1} fields, the header has ${header.split(',').length}` }], 'one part: no name');
});
