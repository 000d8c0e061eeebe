/**
 * FOCUS files in the formats providers write them: CSV, gzip CSV and Parquet (snappy, gzip, zstd; the fixtures in
 * test/fixtures/focus-parquet are the FOCUS sample written by its make.ts), told apart by their content, not their
 * name. The same rows give the same lines and rollups whatever the format; a cut or corrupt file is refused with the
 * line or row group where it broke, and nothing of it is loaded.
 */
import t from 'tap';
import { copyFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Pool } from '@cc/shared/db/pool.ts';
import { fileSha256 } from '@cc/shared/commands/billing-ingest.ts';
import { focusCsvSource } from '../../workers/src/billing-ingest/formats/focus-csv.ts';
import { IngestRejected, runIngest } from '../../workers/src/billing-ingest/ingest.ts';
import { testEnv } from '../helper.ts';

const SAMPLE = new URL('../../infra/data/focus-1.0/focus_sample.csv', import.meta.url).pathname;
const PARQUET = (codec: string) => new URL(`../fixtures/focus-parquet/focus_sample.${codec}.parquet`, import.meta.url).pathname;
const GLOBEX = { customerId: 'globex', billingAccountId: '02B3C4-D5E6F7-A8B9C0' };

const ingest = async (pool: Pool, path: string) =>
  runIngest({ pool, ...GLOBEX, sourceKind: 'focus-file', source: focusCsvSource(path), fileName: path, fileHash: await fileSha256(path) });

/** Everything the dashboard reads of the account, batch ids left out: lines, daily and label rollups, monthly. */
async function snapshot(pool: Pool): Promise<Record<string, unknown[]>> {
  const q = async (sql: string) => (await pool.query(sql, [GLOBEX.billingAccountId])).rows;
  return {
    lines: await q(
      `SELECT usage_date::text, provider, provider_name, project_id, project_name, service, sku, resource_id, cost::text, credits::text,
              amortisation::text, currency, invoice_month, cost_type, resource_labels::text
         FROM cost_line WHERE billing_account_id = $1 ORDER BY 1, 2, 4, 6, 7, 8, 9, 10, 11, 15`,
    ),
    daily: await q(`SELECT usage_date::text, provider, project_id, service, currency, cost::text, credits::text, amortisation::text FROM cost_daily WHERE billing_account_id = $1 ORDER BY 1, 2, 3, 4, 5`),
    labels: await q(
      `SELECT usage_date::text, provider, label_kind, label_key, label_value, project_id, currency, cost::text, credits::text, amortisation::text
         FROM cost_daily_label WHERE billing_account_id = $1 ORDER BY 1, 2, 3, 4, 5, 6, 7`,
    ),
    monthly: await q(`SELECT month::text, provider, provider_name, project_id, project_name, service, currency, cost::text, credits::text, amortisation::text FROM cost_monthly WHERE billing_account_id = $1 ORDER BY 1, 2, 4, 6, 7`),
  };
}

const lineCount = async (pool: Pool) =>
  (await pool.query('SELECT count(*)::int AS n FROM cost_line WHERE billing_account_id = $1', [GLOBEX.billingAccountId])).rows[0].n as number;

t.test('the FOCUS sample as CSV, gzip CSV and Parquet (snappy, gzip, zstd): the same lines and rollups', async (t) => {
  const { pool } = await testEnv(t);
  const dir = await mkdtemp(join(tmpdir(), 'cc-formats-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const csv = await readFile(SAMPLE);
  // No extension on any of them: the content says what each is.
  const files: [string, string][] = [['csv', join(dir, 'plain')], ['gzip csv', join(dir, 'gzipped')]];
  await writeFile(files[0][1], csv);
  await writeFile(files[1][1], gzipSync(csv));
  for (const codec of ['snappy', 'gzip', 'zstd']) {
    const path = join(dir, `export-${codec}`);
    await copyFile(PARQUET(codec), path);
    files.push([`parquet ${codec}`, path]);
  }
  let reference: Record<string, unknown[]> | null = null;
  for (const [name, path] of files) {
    const summary = await ingest(pool, path);
    t.equal(summary.rows, 1000, `${name}: the sample's 1,000 rows`);
    const snap = await snapshot(pool);
    if (!reference) {
      reference = snap;
      t.equal(snap.lines.length, 1000);
      t.ok(snap.daily.length > 0 && snap.labels.length > 0 && snap.monthly.length > 0, 'rollups written');
    } else {
      for (const k of Object.keys(reference)) t.same(snap[k], reference[k], `${name}: ${k} identical to the CSV's`);
    }
  }
});

t.test('a cut or corrupt file in each format: refused where it broke, nothing loaded', async (t) => {
  const { pool } = await testEnv(t);
  const dir = await mkdtemp(join(tmpdir(), 'cc-formats-bad-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const csv = await readFile(SAMPLE);
  const gz = gzipSync(csv);
  const parquet = await readFile(PARQUET('gzip'));
  // The second row group's pages, overwritten: the column chunks of group 2 start after group 1's.
  const corrupt = Buffer.from(parquet);
  const cases: { name: string; bytes: Buffer; line: RegExp | number; reason: RegExp }[] = [
    { name: 'gzip cut in half', bytes: gz.subarray(0, gz.length >> 1), line: /\d+/, reason: /^the gzip file is truncated or corrupt at line \d+: unexpected end of file$/ },
    { name: 'parquet cut short', bytes: parquet.subarray(0, parquet.length - 100), line: 1, reason: /^the Parquet file is truncated \(no PAR1 footer at its end\)$/ },
    { name: 'parquet corrupt pages', bytes: corrupt, line: 301, reason: /^row group 2 \(rows 301–600\) is unreadable: / },
  ];
  // Find group 2's data by its metadata and zero the first kilobyte of it.
  const { parquetMetadata } = await import('hyparquet');
  const meta = parquetMetadata(parquet.buffer.slice(parquet.byteOffset, parquet.byteOffset + parquet.length));
  const group2 = Number(meta.row_groups[1].columns[0].meta_data!.data_page_offset);
  corrupt.fill(0xff, group2, group2 + 1024);

  for (const c of cases) {
    const path = join(dir, c.name.replace(/ /g, '-'));
    await writeFile(path, c.bytes);
    const err = await ingest(pool, path).catch((e: unknown) => e);
    t.ok(err instanceof IngestRejected, `${c.name}: rejected`);
    const first = (err as IngestRejected).errors[0];
    t.match(first, { line: c.line, reason: c.reason }, `${c.name}: ${first?.line}: ${first?.reason}`);
    t.equal(await lineCount(pool), 0, `${c.name}: nothing loaded`);
  }
});

t.test('CSV lines are counted as the file has them: quoted line breaks and blank lines count', async (t) => {
  const { pool } = await testEnv(t);
  const dir = await mkdtemp(join(tmpdir(), 'cc-formats-lines-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const [header, ...rows] = (await readFile(SAMPLE, 'utf8')).split('\n');
  const multiline = rows[0].replace('"Amazon Simple Queue Service"', '"Amazon Simple\nQueue\r\nService"');
  const bad = rows[0].replace('"2024-09-18 22:00:00"', '"2024-09-31 22:00:00"');
  t.not(multiline, rows[0], 'the multi-line row differs');
  t.not(bad, rows[0], 'the bad row differs');
  // header 1, row 2, row 3-5 (two breaks inside a quoted field), blank 6, row 7, bad row 8
  const text = [header, rows[1], multiline, '', rows[2], bad, rows[4]].join('\n');
  for (const [name, bytes] of [['text', Buffer.from(text)], ['gzip', gzipSync(text)]] as const) {
    const path = join(dir, name);
    await writeFile(path, bytes);
    const err = await ingest(pool, path).catch((e: unknown) => e);
    t.ok(err instanceof IngestRejected, `${name}: rejected`);
    t.same((err as IngestRejected).errors, [{ line: 8, reason: "invalid ChargePeriodStart '2024-09-31 22:00:00'" }], `${name}: line 8`);
  }
});
