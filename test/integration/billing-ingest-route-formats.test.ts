/**
 * The admin's drop-folder ingest (POST /v2/billing/ingest) takes the files as the providers deliver them: a `.csv.gz`
 * and a Parquet part without extension (told by content) are queued and loaded exactly as the same rows in CSV. A
 * gzip that is corrupt from its start is refused by the api at once with a 400 naming the line; one cut later fails
 * its job with the line where it broke, and a Parquet file with a broken row group with that row group; nothing of
 * either is loaded.
 */
import t from 'tap';
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { parquetMetadata } from 'hyparquet';
import type { Pool } from '@cc/shared/db/pool.ts';
import { createProducer } from '@cc/shared/producer.ts';
import { chartCache } from '@cc/shared/billing/chart-cache.ts';
import { createLogger } from '@cc/shared/logger.ts';
import { billingIngestHandler } from '../../workers/src/jobs/billing-ingest.ts';
import { startWorkers } from '../../workers/src/worker-host.ts';
import { build, login, bearer } from '../helper.ts';
import { REDIS_URL } from '../db.ts';
import { jobOutcomes } from '../job-outcomes.ts';

const SAMPLE = new URL('../../infra/data/focus-1.0/focus_sample.csv', import.meta.url).pathname;
const PARQUET = new URL('../fixtures/focus-parquet/focus_sample.snappy.parquet', import.meta.url).pathname;
const GLOBEX = { customer_id: 'globex', billing_account_id: '02B3C4-D5E6F7-A8B9C0' };

/** The account's lines and daily rollup, batch ids left out. */
async function snapshot(pool: Pool): Promise<unknown[][]> {
  const q = async (sql: string) => (await pool.query(sql, [GLOBEX.billing_account_id])).rows;
  return [
    await q(
      `SELECT usage_date::text, provider, project_id, service, sku, resource_id, cost::text, credits::text, amortisation::text, currency, invoice_month, resource_labels::text
         FROM cost_line WHERE billing_account_id = $1 ORDER BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 12`,
    ),
    await q(`SELECT usage_date::text, provider, project_id, service, currency, cost::text, credits::text FROM cost_daily WHERE billing_account_id = $1 ORDER BY 1, 2, 3, 4, 5`),
  ];
}

t.test('the drop-folder route loads .csv.gz and Parquet exactly, and refuses a corrupt gzip or row group by line or group', async (t) => {
  const root = await mkdtemp(join(tmpdir(), 'cc-route-formats-'));
  t.teardown(() => rm(root, { recursive: true, force: true }));
  const dropDir = join(root, 'drop');
  await mkdir(dropDir);
  const csv = await readFile(SAMPLE);
  const gz = gzipSync(csv);
  await copyFile(SAMPLE, join(dropDir, 'focus.csv'));
  await writeFile(join(dropDir, 'focus.csv.gz'), gz);
  await copyFile(PARQUET, join(dropDir, 'part-00001'));
  // gzip magic, then bytes no deflate stream starts with
  await writeFile(join(dropDir, 'garbled.csv.gz'), Buffer.concat([gz.subarray(0, 10), Buffer.alloc(64, 0xff)]));
  await writeFile(join(dropDir, 'cut.csv.gz'), gz.subarray(0, gz.length >> 1));
  const parquet = await readFile(PARQUET);
  const meta = parquetMetadata(parquet.buffer.slice(parquet.byteOffset, parquet.byteOffset + parquet.length));
  const group2 = Number(meta.row_groups[1].columns[0].meta_data!.data_page_offset);
  await writeFile(join(dropDir, 'broken-group.parquet'), Buffer.from(parquet).fill(0xff, group2, group2 + 1024));

  const app = await build(t, { config: { INGEST_DROP_DIR: dropDir } });
  const { pool, config } = app.env;
  const admin = bearer(await login(app, 'admin@commandcenter.local'));
  const producer = createProducer(REDIS_URL, config.QUEUE_PREFIX, () => undefined);
  t.teardown(() => producer.close());
  const host = await startWorkers({
    redisUrl: REDIS_URL,
    prefix: config.QUEUE_PREFIX,
    queues: ['billing-ingest'],
    handlers: {
      'billing-ingest': billingIngestHandler({
        pool,
        billingSources: { dropDir },
        chartCache: chartCache(producer.redis, config.QUEUE_PREFIX, createLogger('silent')),
        enqueue: producer.enqueue,
      }),
    },
  });
  t.teardown(() => host.close());
  const outcome = await jobOutcomes(t, 'billing-ingest', { redisUrl: REDIS_URL, prefix: config.QUEUE_PREFIX });
  const post = (file: string) => app.inject({ method: 'POST', url: '/v2/billing/ingest', headers: admin, payload: { ...GLOBEX, source: 'focus-file', file } });
  const load = async (file: string) => {
    const res = await post(file);
    t.equal(res.statusCode, 202, `${file}: accepted (${res.body})`);
    return outcome(res.json().job_id);
  };

  t.match(await load('focus.csv'), { rows: 1000 }, 'the CSV: 1,000 rows');
  const reference = await snapshot(pool);
  t.equal(reference[0].length, 1000, 'the CSV: 1,000 lines');
  for (const file of ['focus.csv.gz', 'part-00001']) {
    t.match(await load(file), { rows: 1000 }, `${file}: 1,000 rows`);
    t.same(await snapshot(pool), reference, `${file}: the same lines and rollups as the CSV`);
  }

  await pool.query('DELETE FROM cost_line WHERE billing_account_id = $1', [GLOBEX.billing_account_id]);
  const garbled = await post('garbled.csv.gz');
  t.equal(garbled.statusCode, 400, 'a gzip corrupt from its start: refused at once');
  t.same(garbled.json(), { detail: 'file rejected, nothing loaded: line 1: the gzip file is truncated or corrupt at line 1: invalid block type' });

  for (const [file, reason] of [
    ['cut.csv.gz', /^file rejected, nothing loaded \(batch \d+, 1 bad lines\): line \d+: the gzip file is truncated or corrupt at line \d+: unexpected end of file$/],
    ['broken-group.parquet', /^file rejected, nothing loaded \(batch \d+, 1 bad lines\): line 301: row group 2 \(rows 301–600\) is unreadable: /],
  ] as const) {
    const res = await post(file);
    t.equal(res.statusCode, 202, `${file}: its start is sound, so the worker reads it`);
    await t.rejects(outcome(res.json().job_id), reason, `${file}: failed with the line or row group where it broke`);
  }
  const { rows } = await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM cost_line WHERE billing_account_id = $1', [GLOBEX.billing_account_id]);
  t.equal(rows[0].n, 0, 'nothing of the broken files loaded');
});
