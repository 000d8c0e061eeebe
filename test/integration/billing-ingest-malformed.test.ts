/**
 * Malformed files are rejected with their line number, nothing loaded, and the job fails once (UnrecoverableError),
 * never five times (retries cannot fix a file); a rejected file fixed and dropped again under its name runs again.
 */
import t from 'tap';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { Queue, QueueEvents } from 'bullmq';
import type { Pool } from '@cc/shared/db/pool.ts';
import { jobOptions } from '@cc/shared/queues.ts';
import { createProducer } from '@cc/shared/producer.ts';
import { chartCache } from '@cc/shared/billing/chart-cache.ts';
import { createLogger } from '@cc/shared/logger.ts';
import { focusCsvSource } from '../../workers/src/billing-ingest/formats/focus-csv.ts';
import { runIngest, IngestRejected } from '../../workers/src/billing-ingest/ingest.ts';
import { billingIngestHandler } from '../../workers/src/jobs/billing-ingest.ts';
import { startWorkers } from '../../workers/src/worker-host.ts';
import { build, login, bearer, testEnv } from '../helper.ts';
import { REDIS_URL } from '../db.ts';
import { waitFor } from '../faults.ts';
import { jobOutcomes } from '../job-outcomes.ts';

const FOCUS_SAMPLE = new URL('../../infra/data/focus-1.0/focus_sample.csv', import.meta.url).pathname;
const GLOBEX = { customerId: 'globex', billingAccountId: '02B3C4-D5E6F7-A8B9C0' };

const quote = (v: string | null) => (v === null ? 'NULL' : `"${v.replace(/"/g, '""')}"`);

/** The sample's header and its first `n` data rows as cells, re-written with one cell changed where asked. */
async function sampleRows(n: number): Promise<{ header: string[]; rows: (string | null)[][] }> {
  const records = parse(await readFile(FOCUS_SAMPLE), { bom: true, cast: (v, ctx) => (!ctx.quoting && v === 'NULL' ? null : v) }) as (string | null)[][];
  return { header: records[0] as string[], rows: records.slice(1, 1 + n) };
}
const toCsv = (header: string[], rows: (string | null)[][], sep = ',') => [header.map(quote).join(sep), ...rows.map((r) => r.map(quote).join(sep))].join('\n') + '\n';

/** Bad files, each with the line the rejection must name and what it must say. */
async function badFiles(dir: string): Promise<{ name: string; path: string; line: number; reason: RegExp }[]> {
  const { header, rows } = await sampleRows(5);
  const col = (name: string) => header.indexOf(name);
  const withCell = (row: number, name: string, value: string) => rows.map((r, i) => (i === row ? r.map((c, j) => (j === col(name) ? value : c)) : r));
  const good = toCsv(header, rows).split('\n');
  const files: { name: string; text: string; line: number; reason: RegExp }[] = [
    {
      // csv-parse's INVALID_OPENING_QUOTE (no CSV_ prefix) used to escape as a crash.
      name: 'stray-quote',
      text: [...good.slice(0, 3), good[3].replace('"SunBird"', 'Sun"Bird'), ...good.slice(4)].join('\n'),
      line: 4,
      reason: /^unreadable CSV: Invalid Opening Quote/,
    },
    { name: 'semicolons', text: toCsv(header, rows, ';'), line: 1, reason: /^unreadable CSV: Invalid Closing Quote.* \(the file is not comma-separated/ },
    {
      name: 'semicolons-unquoted',
      text: toCsv(header, rows, ';').replace(/"/g, ''),
      line: 1,
      reason: /^header is missing FOCUS columns BilledCost, .* \(the file is not comma-separated/,
    },
    // A NUL in the first kilobytes makes the file binary; further on it is one bad value.
    { name: 'nul-byte', text: toCsv(header, withCell(2, 'ServiceName', 'Amazon Simple\u0000 Queue Service')), line: 4, reason: /^the file is binary, not CSV text \(a NUL byte on line 4\)$/ },
    {
      name: 'nul-byte-late',
      text: toCsv(header, [...rows, ...rows, ...rows, ...withCell(2, 'ServiceName', 'Amazon Simple\u0000 Queue Service')]),
      line: 19,
      reason: /^service name contains a NUL character$/,
    },
    {
      name: 'long-label',
      text: toCsv(header, withCell(3, 'Tags', JSON.stringify({ team: 'x'.repeat(3000) }))),
      line: 5,
      reason: /^resource label 'team' value is 3000 bytes long, the limit is 1024$/,
    },
    { name: 'long-service', text: toCsv(header, withCell(1, 'ServiceName', 'S'.repeat(10 * 1024))), line: 3, reason: /^service name is 10240 bytes long, the limit is 512$/ },
    { name: 'impossible-date', text: toCsv(header, withCell(4, 'ChargePeriodStart', '2026-02-30 22:00:00')), line: 6, reason: /^invalid ChargePeriodStart '2026-02-30 22:00:00'$/ },
    { name: 'hour-24', text: toCsv(header, withCell(0, 'ChargePeriodStart', '2024-09-18 24:00:00')), line: 2, reason: /^invalid ChargePeriodStart/ },
    { name: 'impossible-period', text: toCsv(header, withCell(0, 'BillingPeriodStart', '2024-13-01 00:00:00')), line: 2, reason: /^invalid BillingPeriodStart/ },
    // A bad amount names its FOCUS column, as every other FOCUS error does.
    { name: 'effective-cost-text', text: toCsv(header, withCell(1, 'EffectiveCost', 'n/a')), line: 3, reason: /^EffectiveCost 'n\/a' is not a number$/ },
    { name: 'billed-cost-scale', text: toCsv(header, withCell(2, 'BilledCost', '1.0000000000001')), line: 4, reason: /^BilledCost '1\.0000000000001' has more than 12 decimal places$/ },
  ];
  const out = [];
  for (const f of files) {
    const path = join(dir, `${f.name}.csv`);
    await writeFile(path, f.text);
    out.push({ name: f.name, path, line: f.line, reason: f.reason });
  }
  return out;
}

async function lineCount(pool: Pool): Promise<number> {
  const { rows } = await pool.query('SELECT count(*)::int AS n FROM cost_line WHERE billing_account_id = $1', [GLOBEX.billingAccountId]);
  return rows[0].n;
}

t.test('each malformed file: rejected with its line number, nothing loaded, the job failed once', async (t) => {
  const { pool, config } = await testEnv(t);
  const dir = await mkdtemp(join(tmpdir(), 'cc-bad-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const files = await badFiles(dir);

  for (const f of files) {
    const err = await runIngest({ pool, ...GLOBEX, sourceKind: 'focus-file', source: focusCsvSource(f.path), fileName: f.name }).catch((e) => e);
    t.type(err, IngestRejected, `${f.name}: rejected, not crashed (${err instanceof Error ? err.message : err})`);
    t.equal((err as IngestRejected).errors[0]?.line, f.line, `${f.name}: line ${f.line}`);
    t.match((err as IngestRejected).errors[0]?.reason, f.reason, f.name);
    t.equal(await lineCount(pool), 0, `${f.name}: nothing loaded`);
  }
  const { rows: batches } = await pool.query(`SELECT status, count(*)::int AS n FROM ingest_batch GROUP BY status`);
  t.same(batches, [{ status: 'rejected', n: files.length }], 'every batch recorded as rejected, none failed');

  // Through the queue: one attempt each (attempts: 5 is the default for everything else).
  const producer = createProducer(REDIS_URL, config.QUEUE_PREFIX, () => undefined);
  t.teardown(() => producer.close());
  const host = await startWorkers({
    redisUrl: REDIS_URL,
    prefix: config.QUEUE_PREFIX,
    queues: ['billing-ingest'],
    handlers: {
      'billing-ingest': billingIngestHandler({ pool, billingSources: {}, chartCache: chartCache(producer.redis, config.QUEUE_PREFIX, createLogger('silent')), enqueue: producer.enqueue }),
    },
  });
  t.teardown(() => host.close());
  const queue = new Queue('billing-ingest', { connection: { url: REDIS_URL }, prefix: config.QUEUE_PREFIX });
  t.teardown(() => queue.close());
  const outcome = await jobOutcomes(t, 'billing-ingest', { redisUrl: REDIS_URL, prefix: config.QUEUE_PREFIX });
  for (const f of files) {
    const cmd = { customer_id: GLOBEX.customerId, billing_account_id: GLOBEX.billingAccountId, source: 'focus-file' as const, file: f.path };
    const opts = jobOptions('billing-ingest', cmd);
    t.equal(opts.attempts, 5);
    const job = await queue.add('billing.ingest', cmd, opts);
    await t.rejects(outcome(job.id!), new RegExp(`file rejected, nothing loaded .*line ${f.line}: `), f.name);
    const failed = await queue.getJob(job.id!);
    t.equal(failed?.attemptsMade, 1, `${f.name}: failed once, not retried`);
  }
  t.equal(await lineCount(pool), 0);
});

t.test('a value PostgreSQL refuses inside COPY is reported with its file line', async (t) => {
  const { pool } = await testEnv(t);
  const dir = await mkdtemp(join(tmpdir(), 'cc-bad-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  // A label the checks allow but jsonb refuses: a lone surrogate escape in Tags JSON is valid JSON to JavaScript,
  // and PostgreSQL's jsonb rejects \ud800 without its pair.
  const { header, rows } = await sampleRows(3);
  const tags = header.indexOf('Tags');
  rows[2][tags] = '{"team":"\\ud800"}';
  const path = join(dir, 'surrogate.csv');
  await writeFile(path, toCsv(header, rows));
  const err = await runIngest({ pool, ...GLOBEX, sourceKind: 'focus-file', source: focusCsvSource(path) }).catch((e) => e);
  t.type(err, IngestRejected, String(err));
  t.equal((err as IngestRejected).errors[0]?.line, 4);
  t.match((err as IngestRejected).errors[0]?.reason, /^the database refused the row: /);
  t.equal(await lineCount(pool), 0);
});

t.test('POST /v2/billing/ingest: a rejected file, fixed and dropped again under its name, runs again', async (t) => {
  const dropDir = await mkdtemp(join(tmpdir(), 'cc-drop-'));
  t.teardown(() => rm(dropDir, { recursive: true, force: true }));
  const app = await build(t, { config: { INGEST_DROP_DIR: dropDir } });
  const { pool, config } = app.env;
  const producer = createProducer(REDIS_URL, config.QUEUE_PREFIX, () => undefined);
  t.teardown(() => producer.close());
  const host = await startWorkers({
    redisUrl: REDIS_URL,
    prefix: config.QUEUE_PREFIX,
    queues: ['billing-ingest'],
    handlers: {
      'billing-ingest': billingIngestHandler({ pool, billingSources: {}, chartCache: chartCache(producer.redis, config.QUEUE_PREFIX, createLogger('silent')), enqueue: producer.enqueue }),
    },
  });
  t.teardown(() => host.close());
  const queue = new Queue('billing-ingest', { connection: { url: REDIS_URL }, prefix: config.QUEUE_PREFIX });
  t.teardown(() => queue.close());
  const events = new QueueEvents('billing-ingest', { connection: { url: REDIS_URL }, prefix: config.QUEUE_PREFIX });
  t.teardown(() => events.close());
  await events.waitUntilReady();
  const outcome = await jobOutcomes(t, 'billing-ingest', { redisUrl: REDIS_URL, prefix: config.QUEUE_PREFIX });
  const admin = bearer(await login(app, 'admin@commandcenter.local'));
  const post = () =>
    app.inject({
      method: 'POST',
      url: '/v2/billing/ingest',
      headers: admin,
      payload: { customer_id: GLOBEX.customerId, billing_account_id: GLOBEX.billingAccountId, source: 'focus-file', file: 'september.csv' },
    });
  const finished = (jobId: string) => outcome(jobId) as Promise<{ rows: number; notes: unknown }>;

  const { header, rows } = await sampleRows(20);
  const bad = rows.map((r, i) => (i === 6 ? r.map((c, j) => (j === header.indexOf('ChargePeriodStart') ? '2024-09-31 10:00:00' : c)) : r));
  await writeFile(join(dropDir, 'september.csv'), toCsv(header, bad));
  const first = await post();
  t.equal(first.statusCode, 202, first.body);
  await t.rejects(finished(first.json().job_id), /line 8: invalid ChargePeriodStart '2024-09-31 10:00:00'/);
  t.equal((await queue.getJob(first.json().job_id))?.attemptsMade, 1);
  t.equal(await lineCount(pool), 0);

  // The operator fixes the file and drops it again under the same name.
  await writeFile(join(dropDir, 'september.csv'), toCsv(header, rows));
  const second = await post();
  t.equal(second.statusCode, 202, second.body);
  t.not(second.json().job_id, first.json().job_id, 'new content, new job');
  const result = await finished(second.json().job_id);
  t.equal(result.rows, 20);
  t.equal(await lineCount(pool), 20);
  t.ok(Array.isArray(result.notes) && result.notes.some((n: string) => /billing period 2024-09/.test(n)), `the job result carries the notes: ${JSON.stringify(result.notes)}`);

  // The same content posted again is the same job id. A completed job is not kept (removeOnComplete), so it may run
  // again: an export replaces its billing period, so a second run loads the same lines in place of the first's.
  const third = await post();
  t.equal(third.json().job_id, second.json().job_id);
  const again = await queue.getJob(third.json().job_id);
  if (again) await again.waitUntilFinished(events, 60_000).catch(() => undefined);
  await waitFor('no batch running', async () => (await pool.query(`SELECT 1 FROM ingest_batch WHERE status = 'running'`)).rowCount === 0);
  t.equal(await lineCount(pool), 20, 'nothing doubled');
  const { rows: batches } = await pool.query(`SELECT status FROM ingest_batch ORDER BY id`);
  t.match(batches.map((b) => b.status).join(','), /^rejected,succeeded(,succeeded)?$/);
});
