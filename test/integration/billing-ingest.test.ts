import t from 'tap';
import { mkdtemp, readFile, writeFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { parse } from 'csv-parse/sync';
import { Queue, QueueEvents } from 'bullmq';
import type { Pool } from '@cc/shared/db/pool.ts';
import { jobOptions } from '@cc/shared/queues.ts';
import { createProducer } from '@cc/shared/producer.ts';
import { chartCache } from '@cc/shared/billing/chart-cache.ts';
import { createLogger } from '@cc/shared/logger.ts';
import { addDays } from '@cc/shared/time.ts';
import { focusCsvSource } from '../../workers/src/billing-ingest/formats/focus-csv.ts';
import { gcpGeneratedSource, generatedRowsForDay, isSpikeDay } from '@cc/shared/adapters/bigquery/local.ts';
import { runIngest, IngestRejected, type IngestProgress } from '../../workers/src/billing-ingest/ingest.ts';
import { billingIngestHandler } from '../../workers/src/jobs/billing-ingest.ts';
import { startWorkers } from '../../workers/src/worker-host.ts';
import { testEnv } from '../helper.ts';
import { REDIS_URL } from '../db.ts';
import { jobOutcomes } from '../job-outcomes.ts';

const FOCUS_SAMPLE = new URL('../../infra/data/focus-1.0/focus_sample.csv', import.meta.url).pathname;
// Seeded accounts: acme-corp (EUR) and globex (USD).
const ACME = { customerId: 'acme-corp', billingAccountId: '01A2B3-C4D5E6-F7A8B9' };
const GLOBEX = { customerId: 'globex', billingAccountId: '02B3C4-D5E6F7-A8B9C0' };

/**
 * Exact decimal sum kept in the test on purpose, independent of the code under test: BigInt in
 * units of 10^-12 (the money scale), formatted the way PostgreSQL prints numeric(24,12) sums.
 */
const SCALE = 12;
function toUnits(s: string): bigint {
  const neg = s.startsWith('-');
  const [i, f = ''] = s.replace(/^[-+]/, '').split('.');
  if (f.length > SCALE) throw new Error(`test fixture value ${s} has more than ${SCALE} decimals`);
  const v = BigInt(i || '0') * 10n ** BigInt(SCALE) + BigInt((f + '0'.repeat(SCALE)).slice(0, SCALE));
  return neg ? -v : v;
}
function fromUnits(v: bigint): string {
  const neg = v < 0n;
  const a = neg ? -v : v;
  const s = `${a / 10n ** BigInt(SCALE)}.${(a % 10n ** BigInt(SCALE)).toString().padStart(SCALE, '0')}`;
  return neg ? `-${s}` : s;
}

async function spendByProvider(pool: Pool, table: 'cost_line' | 'cost_daily', billingAccountId: string) {
  const { rows } = await pool.query<{ provider: string; spend: string }>(
    `SELECT provider, (sum(cost) + sum(credits))::text AS spend FROM ${table} WHERE billing_account_id = $1 GROUP BY provider ORDER BY provider`,
    [billingAccountId],
  );
  return Object.fromEntries(rows.map((r) => [r.provider, r.spend]));
}

async function lineCount(pool: Pool, billingAccountId: string): Promise<number> {
  const { rows } = await pool.query('SELECT count(*)::int AS n FROM cost_line WHERE billing_account_id = $1', [billingAccountId]);
  return rows[0].n;
}

const ingestFocus = (pool: Pool, file: string, extra: Partial<Parameters<typeof runIngest>[0]> = {}) =>
  runIngest({ pool, ...GLOBEX, sourceKind: 'focus-file', source: focusCsvSource(file), fileName: 'focus.csv', ...extra });

const WINDOW = { from: '2024-10-01', to: '2025-10-31' }; // 13 months
const ingestGenerated = (pool: Pool, extra: Partial<Parameters<typeof runIngest>[0]> = {}, window = WINDOW) =>
  runIngest({ pool, ...ACME, sourceKind: 'gcp-generated', source: gcpGeneratedSource({ ...ACME, currency: 'EUR', ...window }), ...extra });

t.test('FOCUS 1.0 sample: per-provider BilledCost totals exact to the last decimal', async (t) => {
  const { pool } = await testEnv(t);
  // Independent expectation: the raw CSV parsed whole, BilledCost summed as exact decimals.
  const records = parse(await readFile(FOCUS_SAMPLE), { columns: true }) as Record<string, string>[];
  const expected: Record<string, bigint> = {};
  const provider = { AWS: 'aws', Microsoft: 'azure', Oracle: 'oracle' } as Record<string, string>;
  for (const r of records) expected[provider[r.ProviderName]] = (expected[provider[r.ProviderName]] ?? 0n) + toUnits(r.BilledCost);
  const want = Object.fromEntries(Object.entries(expected).map(([k, v]) => [k, fromUnits(v)]));
  // And the figures as computed separately (Python decimal) when this test was written.
  t.same(want, { aws: '18.006638618400', azure: '1.976514185860', oracle: '0.537073924730' });

  const progress: IngestProgress[] = [];
  const summary = await ingestFocus(pool, FOCUS_SAMPLE, { onProgress: (p) => progress.push(p) });
  t.equal(summary.rows, 1000);
  t.same(await spendByProvider(pool, 'cost_line', GLOBEX.billingAccountId), want);
  t.same(await spendByProvider(pool, 'cost_daily', GLOBEX.billingAccountId), want, 'the daily rollup agrees');
  t.same(
    summary.totals.map((x) => [x.provider, x.provider_name, x.spend]),
    [['aws', 'AWS', want.aws], ['azure', 'Microsoft', want.azure], ['oracle', 'Oracle', want.oracle]],
  );
  t.equal(progress.at(-1)?.phase, 'done');

  // The one Credit row lands in credits, the Adjustment rows in cost.
  const { rows: credit } = await pool.query(`SELECT cost::text, credits::text, cost_type FROM cost_line WHERE cost_type = 'credit'`);
  t.same(credit, [{ cost: '0.000000000000', credits: '-2.613700000000', cost_type: 'credit' }]);
  const { rows: adj } = await pool.query(`SELECT count(*)::int AS n FROM cost_line WHERE provider = 'oracle' AND cost_type = 'adjustment'`);
  t.equal(adj[0].n, 2);
  // Tags become resource labels, rolled up per key and value.
  const { rows: tagged } = await pool.query(
    `SELECT resource_labels FROM cost_line WHERE resource_labels ? 'application' ORDER BY usage_date, sku LIMIT 1`,
  );
  t.same(Object.keys(tagged[0].resource_labels).sort(), ['application', 'business_unit', 'environment']);
  const { rows: labelSum } = await pool.query(
    `SELECT (SELECT sum(cost + credits) FROM cost_daily_label WHERE label_kind = 'resource' AND label_key = 'environment')::text AS rollup,
            (SELECT sum(cost + credits) FROM cost_line WHERE resource_labels ? 'environment')::text AS lines`,
  );
  t.equal(labelSum[0].rollup, labelSum[0].lines);
  // ChargePeriodStart is UTC; 2024-09-01 00:00 UTC is still 31 August in US/Pacific.
  t.same(summary.from, '2024-08-31');
});

t.test('generated GCP data: 13 months, totals exact, labels and spikes present', async (t) => {
  const { pool } = await testEnv(t);
  const summary = await ingestGenerated(pool);
  let cost = 0n;
  let credits = 0n;
  let analytics = 0n;
  let rows = 0;
  const projects = new Set<string>();
  const services = new Set<string>();
  for (let day = WINDOW.from; day <= WINDOW.to; day = addDays(day, 1)) {
    for (const r of generatedRowsForDay({ ...ACME, currency: 'EUR' }, day)) {
      rows++;
      cost += toUnits(r.cost);
      credits += toUnits(r.credits);
      if (r.project_labels.team === 'analytics') analytics += toUnits(r.cost) + toUnits(r.credits);
      projects.add(r.project_id);
      services.add(r.service);
    }
  }
  t.equal(summary.rows, rows);
  t.equal(summary.days, 396);
  t.ok(projects.size >= 4 && services.size >= 5, 'several projects and services');
  t.ok(credits < 0n, 'credits are negative');
  const { rows: db } = await pool.query(
    `SELECT sum(cost)::text AS cost, sum(credits)::text AS credits, count(DISTINCT usage_date)::int AS days FROM cost_line WHERE billing_account_id = $1`,
    [ACME.billingAccountId],
  );
  t.same(db[0], { cost: fromUnits(cost), credits: fromUnits(credits), days: 396 });
  t.same(await spendByProvider(pool, 'cost_daily', ACME.billingAccountId), { gcp: fromUnits(cost + credits) });
  const { rows: lab } = await pool.query(
    `SELECT sum(cost + credits)::text AS spend FROM cost_daily_label WHERE label_kind = 'project' AND label_key = 'team' AND label_value = 'analytics'`,
  );
  t.equal(lab[0].spend, fromUnits(analytics), 'project label team=analytics rollup exact');
  const { rows: web } = await pool.query(`SELECT count(*)::int AS n FROM cost_daily_label WHERE label_key = 'team' AND label_value = 'web'`);
  t.ok(web[0].n > 0, 'team=web present');
  const { rows: res } = await pool.query(`SELECT count(DISTINCT label_key)::int AS n FROM cost_daily_label WHERE label_kind = 'resource'`);
  t.ok(res[0].n >= 2, 'resource labels present');
  let spikes = 0;
  for (let day = WINDOW.from; day <= WINDOW.to; day = addDays(day, 1)) if (isSpikeDay(ACME.billingAccountId, day, 'web-prod')) spikes++;
  t.ok(spikes > 0, `some spike days (${spikes})`);
});

t.test('re-ingesting the same source changes nothing', async (t) => {
  const { pool } = await testEnv(t);
  await ingestGenerated(pool);
  await ingestFocus(pool, FOCUS_SAMPLE);
  const before = { acme: await spendByProvider(pool, 'cost_daily', ACME.billingAccountId), globex: await spendByProvider(pool, 'cost_daily', GLOBEX.billingAccountId) };
  const lines = { acme: await lineCount(pool, ACME.billingAccountId), globex: await lineCount(pool, GLOBEX.billingAccountId) };
  await ingestGenerated(pool);
  await ingestFocus(pool, FOCUS_SAMPLE);
  // An overlapping window of the same deterministic source replaces its days with identical rows.
  await ingestGenerated(pool, {}, { from: '2025-03-15', to: '2025-04-15' });
  t.same({ acme: await spendByProvider(pool, 'cost_daily', ACME.billingAccountId), globex: await spendByProvider(pool, 'cost_daily', GLOBEX.billingAccountId) }, before);
  t.same({ acme: await lineCount(pool, ACME.billingAccountId), globex: await lineCount(pool, GLOBEX.billingAccountId) }, lines);
  t.same(await spendByProvider(pool, 'cost_line', ACME.billingAccountId), before.acme);
  const { rows } = await pool.query(`SELECT status, count(*)::int AS n FROM ingest_batch GROUP BY status`);
  t.same(rows, [{ status: 'succeeded', n: 5 }]);
});

t.test('a GCP export and a FOCUS file on one account, same days: neither erases the other', async (t) => {
  const { pool } = await testEnv(t);
  const september = { from: '2024-09-01', to: '2024-09-30' }; // the FOCUS sample's month
  await ingestGenerated(pool, {}, september);
  const gcpOnly = await spendByProvider(pool, 'cost_daily', ACME.billingAccountId);
  t.same(Object.keys(gcpOnly), ['gcp']);
  // The same file alone on another account gives the FOCUS providers' own totals.
  await ingestFocus(pool, FOCUS_SAMPLE);
  const focusOnly = await spendByProvider(pool, 'cost_daily', GLOBEX.billingAccountId);

  await ingestFocus(pool, FOCUS_SAMPLE, ACME);
  t.same(await spendByProvider(pool, 'cost_daily', ACME.billingAccountId), { ...focusOnly, ...gcpOnly }, 'the file adds its providers, GCP stays');
  await ingestGenerated(pool, {}, september);
  t.same(await spendByProvider(pool, 'cost_daily', ACME.billingAccountId), { ...focusOnly, ...gcpOnly }, 're-ingesting GCP leaves the file providers');
  t.same(await spendByProvider(pool, 'cost_line', ACME.billingAccountId), { ...focusOnly, ...gcpOnly }, 'lines agree with the rollup');
});

t.test('a run that dies after deleting the old slices, then its retry: never double counted', async (t) => {
  const { pool } = await testEnv(t);
  await ingestGenerated(pool);
  const before = await spendByProvider(pool, 'cost_daily', ACME.billingAccountId);
  const lines = await lineCount(pool, ACME.billingAccountId);

  // 1. The process throws right after the DELETE, inside the transaction.
  await t.rejects(
    ingestGenerated(pool, {
      afterDelete: async () => {
        throw new Error('injected crash after delete');
      },
    }),
    { message: 'injected crash after delete' },
  );
  t.same(await spendByProvider(pool, 'cost_daily', ACME.billingAccountId), before, 'rolled back: old data intact');
  t.equal(await lineCount(pool, ACME.billingAccountId), lines);

  // 2. The connection dies mid-transaction (as when the worker is killed): PostgreSQL rolls back.
  await t.rejects(
    ingestGenerated(pool, {
      afterDelete: async (tx) => {
        const { rows } = await tx.query('SELECT pg_backend_pid() AS pid');
        await pool.query('SELECT pg_terminate_backend($1)', [rows[0].pid]);
      },
    }),
  );
  t.same(await spendByProvider(pool, 'cost_daily', ACME.billingAccountId), before, 'killed: old data intact');
  t.equal(await lineCount(pool, ACME.billingAccountId), lines);

  // 3. The retry succeeds and the totals are those of one load.
  await ingestGenerated(pool);
  t.same(await spendByProvider(pool, 'cost_daily', ACME.billingAccountId), before);
  t.same(await spendByProvider(pool, 'cost_line', ACME.billingAccountId), before);
  t.equal(await lineCount(pool, ACME.billingAccountId), lines);
  const { rows } = await pool.query(`SELECT status FROM ingest_batch ORDER BY id`);
  t.same(rows.map((r) => r.status), ['succeeded', 'failed', 'failed', 'succeeded']);
});

t.test('a malformed file is rejected whole, with line numbers; earlier data stays', async (t) => {
  const { pool, config } = await testEnv(t);
  const dir = await mkdtemp(join(tmpdir(), 'cc-focus-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  await ingestFocus(pool, FOCUS_SAMPLE);
  const before = await spendByProvider(pool, 'cost_daily', GLOBEX.billingAccountId);
  const lines = await lineCount(pool, GLOBEX.billingAccountId);

  const sample = (await readFile(FOCUS_SAMPLE, 'utf8')).split('\n');
  const header = sample[0];
  const good = sample.slice(1, 6); // lines 2..6 of the new file
  const swap = (line: string, from: string, to: string) => {
    if (!line.includes(from)) throw new Error(`fixture line lacks ${from}`);
    return line.replace(from, to);
  };
  const bad = [
    swap(good[0], '"USD"', '"XYZ"'), // line 7: unknown currency
    swap(good[1], '"2024-09-30 22:00:00"', 'NULL'), // line 8: missing ChargePeriodStart
    swap(good[2], 'NULL,0.00000', 'NULL,abc0.00000'), // line 9: non-numeric BilledCost
    good[3].split(',').slice(0, 10).join(','), // line 10: truncated row
  ];
  const file = join(dir, 'bad.csv');
  await writeFile(file, [header, ...good, ...bad, good[4]].join('\n') + '\n');

  const err = await ingestFocus(pool, file).catch((e) => e);
  t.type(err, IngestRejected);
  t.same(
    (err as IngestRejected).errors.map((e) => e.line),
    [7, 8, 9, 10],
  );
  t.match((err as IngestRejected).errors, [
    { reason: "unknown currency 'XYZ'" },
    { reason: 'missing ChargePeriodStart' },
    { reason: /^BilledCost 'abc0\.00000\d+' is not a number$/ },
    { reason: 'has 10 fields, the header has 44' },
  ]);
  t.same(await spendByProvider(pool, 'cost_daily', GLOBEX.billingAccountId), before, 'nothing of the bad file loaded');
  t.equal(await lineCount(pool, GLOBEX.billingAccountId), lines);
  const { rows: batch } = await pool.query(`SELECT status, error FROM ingest_batch ORDER BY id DESC LIMIT 1`);
  t.equal(batch[0].status, 'rejected');
  t.equal(batch[0].error.error_count, 4);

  // Empty and header-only files are errors too.
  for (const [name, text] of [['empty.csv', ''], ['header.csv', header + '\n']]) {
    const path = join(dir, name);
    await writeFile(path, text);
    const e = await ingestFocus(pool, path).catch((x) => x);
    t.type(e, IngestRejected, name);
    t.match((e as IngestRejected).errors, [{ reason: 'the source has no data rows' }]);
  }

  // The CLI lists every bad line and exits non-zero.
  const cli = await promisify(execFile)('npx', ['tsx', 'workers/src/billing-ingest/cli.ts', 'ingest', '--customer', GLOBEX.customerId, '--billing-account', GLOBEX.billingAccountId, '--file', file], {
    cwd: new URL('../../', import.meta.url).pathname,
    env: { ...process.env, DATABASE_URL: config.DATABASE_URL },
  }).then(
    () => ({ code: 0, stderr: '' }),
    (e: { code: number; stderr: string }) => e,
  );
  t.equal(cli.code, 1);
  t.match(cli.stderr, /rejected: 4 bad lines; nothing was loaded/);
  t.match(cli.stderr, /line 7: unknown currency 'XYZ'\n\s+line 8: missing ChargePeriodStart\n\s+line 9: BilledCost 'abc/);
  t.equal(await lineCount(pool, GLOBEX.billingAccountId), lines);
});

t.test('billing-ingest queue: the worker runs the job with progress; a bad file fails once, unretried', async (t) => {
  const { pool, config } = await testEnv(t);
  const producer = createProducer(REDIS_URL, config.QUEUE_PREFIX, () => undefined);
  t.teardown(() => producer.close());
  const chartCacheOfTest = chartCache(producer.redis, config.QUEUE_PREFIX, createLogger('silent'));
  const host = await startWorkers({
    redisUrl: REDIS_URL,
    prefix: config.QUEUE_PREFIX,
    queues: ['billing-ingest'],
    handlers: { 'billing-ingest': billingIngestHandler({ pool, billingSources: {}, chartCache: chartCacheOfTest, enqueue: producer.enqueue }) },
  });
  t.teardown(() => host.close());
  const queue = new Queue('billing-ingest', { connection: { url: REDIS_URL }, prefix: config.QUEUE_PREFIX });
  t.teardown(() => queue.close());
  const events = new QueueEvents('billing-ingest', { connection: { url: REDIS_URL }, prefix: config.QUEUE_PREFIX });
  t.teardown(() => events.close());
  await events.waitUntilReady();
  const progress: unknown[] = [];
  events.on('progress', ({ data }) => progress.push(data));
  const finished = await jobOutcomes(t, 'billing-ingest', { redisUrl: REDIS_URL, prefix: config.QUEUE_PREFIX });

  const cmd = { customer_id: ACME.customerId, billing_account_id: ACME.billingAccountId, source: 'gcp-generated' as const, ...WINDOW };
  const opts = jobOptions('billing-ingest', cmd);
  t.equal(opts.jobId, 'ingest-01A2B3-C4D5E6-F7A8B9-gcp-generated-2024-10-01-2025-10-31');
  const job = await queue.add('billing.ingest', cmd, opts);
  const result = (await finished(job.id!)) as { days: number; totals: { spend: string }[] };
  t.equal(result.days, 396);
  t.equal(progress.at(-1), 100);
  const { rows } = await pool.query(`SELECT (sum(cost) + sum(credits))::text AS s FROM cost_daily`);
  t.equal(rows[0].s, result.totals[0].spend);

  const dir = await mkdtemp(join(tmpdir(), 'cc-focus-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const bad = join(dir, 'bad.csv');
  const sample = (await readFile(FOCUS_SAMPLE, 'utf8')).split('\n');
  await writeFile(bad, [sample[0], sample[1].replace('"USD"', '"US$"')].join('\n'));
  const badCmd = { customer_id: GLOBEX.customerId, billing_account_id: GLOBEX.billingAccountId, source: 'focus-file' as const, file: bad };
  const badJob = await queue.add('billing.ingest', badCmd, jobOptions('billing-ingest', badCmd));
  await t.rejects(finished(badJob.id!), /file rejected, nothing loaded .*line 2: unknown currency 'US\$'/);
  const failed = await queue.getJob(badJob.id!);
  t.equal(failed?.attemptsMade, 1, 'not retried');
  t.equal(await lineCount(pool, GLOBEX.billingAccountId), 0);

  // An account the customer does not own is refused before anything is read.
  const foreign = { ...badCmd, billing_account_id: ACME.billingAccountId, file: FOCUS_SAMPLE };
  const foreignJob = await queue.add('billing.ingest', foreign, jobOptions('billing-ingest', foreign));
  await t.rejects(finished(foreignJob.id!), /is not an account of customer globex/);
});
