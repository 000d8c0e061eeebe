/**
 * FOCUS Tags in Parquet: AWS and Azure write them as a MAP<string, string> column, not JSON text. The reader turns the
 * map into the same tags a CSV's JSON gives, exactly: every key and value as written (unicode, quotes, commas), an
 * empty map and a null column as no tags, a null value dropped as in JSON. The file was written by a real Parquet
 * writer (hyparquet-writer, test/fixtures/focus-parquet/make-tags.ts) with the MAP logical type, in row groups of two
 * so the map crosses row-group bounds.
 */
import t from 'tap';
import { copyFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parquetMetadata, parquetSchema } from 'hyparquet';
import type { Pool } from '@cc/shared/db/pool.ts';
import { fileSha256 } from '@cc/shared/commands/billing-ingest.ts';
import { focusCsvSource } from '../../workers/src/billing-ingest/formats/focus-csv.ts';
import { runIngest } from '../../workers/src/billing-ingest/ingest.ts';
import { testEnv } from '../helper.ts';
import { ROWS, TEXT_COLUMNS, textRow } from '../fixtures/focus-parquet/tags-rows.ts';

const ACME = { customerId: 'acme-corp', billingAccountId: '01FFEE-DDCCBB-AA9988' };
const GLOBEX = { customerId: 'globex', billingAccountId: '02B3C4-D5E6F7-A8B9C0' };

/** What cost_line.resource_labels must hold for each row. */
const EXPECTED: Record<string, Record<string, string>> = {
  '1.01': { team: 'web', env: 'prod' },
  '1.02': {},
  '1.03': {},
  '1.04': { 'cost-center': 'cc-410', 'Ünïcode key': 'värde ✓', 'quote"key': 'a,b "c"', 'aws:createdBy': 'IAMUser:AIDA:alice' },
  '1.05': { team: 'data' },
};

const quote = (s: string) => (/[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s);
const focusCsv = () =>
  `${[[...TEXT_COLUMNS, 'Tags'], ...ROWS.map(([cost, tags]) => [...textRow(cost), tags === null ? '' : JSON.stringify(tags)])].map((r) => r.map(quote).join(',')).join('\n')}\n`;

async function labelsByCost(pool: Pool, account: string): Promise<Record<string, unknown>> {
  const { rows } = await pool.query<{ cost: string; labels: unknown }>(
    `SELECT trim(trailing '0' FROM cost::text) AS cost, resource_labels AS labels FROM cost_line WHERE billing_account_id = $1 ORDER BY cost`,
    [account],
  );
  return Object.fromEntries(rows.map((r) => [r.cost, r.labels]));
}

t.test('FOCUS Tags as a Parquet MAP column load as exactly the tags the same rows give in CSV', async (t) => {
  const { pool } = await testEnv(t);
  const dir = await mkdtemp(join(tmpdir(), 'cc-parquet-tags-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const parquet = join(dir, 'focus-tags.parquet');
  const csv = join(dir, 'focus-tags.csv');
  await copyFile(new URL('../fixtures/focus-parquet/focus_tags_map.parquet', import.meta.url), parquet);
  await writeFile(csv, focusCsv());

  // the writer really wrote the MAP logical type, in three row groups
  const bytes = await readFile(parquet);
  const metadata = parquetMetadata(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
  const tagsColumn = parquetSchema(metadata).children.find((c) => c.element.name === 'Tags');
  t.equal(tagsColumn?.element.converted_type, 'MAP', 'Tags is a MAP column');
  t.equal(metadata.row_groups.length, 3, 'three row groups');

  const ingest = async (path: string, account: typeof ACME) =>
    runIngest({ pool, ...account, sourceKind: 'focus-file', source: focusCsvSource(path), fileName: path, fileHash: await fileSha256(path) });
  t.equal((await ingest(parquet, ACME)).rows, ROWS.length, 'every Parquet row loaded');
  t.equal((await ingest(csv, GLOBEX)).rows, ROWS.length, 'every CSV row loaded');

  const fromParquet = await labelsByCost(pool, ACME.billingAccountId);
  t.same(fromParquet, EXPECTED, 'the Parquet map gives the tags exactly');
  t.same(await labelsByCost(pool, GLOBEX.billingAccountId), fromParquet, 'the same tags as the CSV JSON');
  const { rows } = await pool.query<{ label_key: string; label_value: string }>(
    `SELECT DISTINCT label_key, label_value FROM cost_daily_label WHERE billing_account_id = $1 AND label_kind = 'resource' ORDER BY 1, 2`,
    [ACME.billingAccountId],
  );
  t.same(
    rows,
    Object.values(EXPECTED)
      .flatMap((tags) => Object.entries(tags).map(([label_key, label_value]) => ({ label_key, label_value })))
      .sort((a, b) => (a.label_key === b.label_key ? (a.label_value < b.label_value ? -1 : 1) : a.label_key < b.label_key ? -1 : 1)),
    'the label rollup holds every tag key and value',
  );
});
