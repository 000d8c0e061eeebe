/**
 * Fault: the process that committed an ingest dies right after COMMIT, before any post-commit code
 * ran. The commit itself bumped the account's data version (announced at commit, so the cached charts stop being
 * served within milliseconds, with no Redis bump) and wrote the
 * anomaly-detect and alert-evaluate follow-ups into the outbox, which a worker's reconciler queues and runs. The job,
 * never marked completed, runs again: it finds the batch of the same file as the account's last load and ends there.
 */
import t from 'tap';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { addDays, billingToday } from '@cc/shared/time.ts';
import { createProducer } from '@cc/shared/producer.ts';
import { chartCache } from '@cc/shared/billing/chart-cache.ts';
import { createLogger } from '@cc/shared/logger.ts';
import type { BillingSource, SourceItem } from '@cc/shared/ports/billing-source.ts';
import { runIngest } from '../../workers/src/billing-ingest/ingest.ts';
import { ingestCommand } from '../../workers/src/billing-ingest/command.ts';
import { billingIngestHandler } from '../../workers/src/jobs/billing-ingest.ts';
import { startWorkers } from '../../workers/src/worker-host.ts';
import { build, login, bearer, testEnv } from '../helper.ts';
import { privateRedis, startWorkerProcess, waitFor, writeFocusFile } from '../faults.ts';
import { jobOutcomes } from '../job-outcomes.ts';

const ACME = { customerId: 'acme-corp', billingAccountId: '01A2B3-C4D5E6-F7A8B9' };

function oneDay(day: string, cost: string): BillingSource {
  return {
    label: `one day ${day}`,
    providers: ['gcp'],
    async *rows(): AsyncGenerator<SourceItem> {
      yield {
        line: 2,
        row: {
          provider: 'gcp', provider_name: 'Google Cloud', usage_date: day, project_id: 'acme-fault', project_name: 'Fault', service: 'Compute Engine',
          sku: 'N2 cores', cost, credits: '0', currency: 'EUR', invoice_month: day.slice(0, 4) + day.slice(5, 7), cost_type: 'usage',
          project_labels: {}, resource_labels: {},
        },
      };
    },
  };
}

t.test('a crash right after COMMIT: charts right at once, follow-ups queued and run', async (t) => {
  const redis = await privateRedis(t);
  const app = await build(t, { config: { REDIS_URL: redis.url } });
  const { pool, config } = app.env;
  const day = addDays(billingToday(), -2);
  await runIngest({ pool, ...ACME, sourceKind: 'gcp-generated', source: oneDay(day, '100') });

  const alice = bearer(await login(app, 'alice@acme.example'));
  const chart = () =>
    app.inject({
      method: 'POST',
      url: '/v2/billing/aggregated/by_service/chart/acme-corp',
      query: { billing_account_id: ACME.billingAccountId, provider: 'gcp', period: '7days' },
      payload: { services: [] },
      headers: alice,
    });
  const before = await chart();
  t.equal(before.statusCode, 200, before.body);
  t.equal((await chart()).headers['x-cache'], 'hit', 'cached');

  // The ingest commits in this process, which then "dies": nothing after COMMIT runs (no Redis bump, no enqueue).
  await runIngest({ pool, ...ACME, sourceKind: 'gcp-generated', source: oneDay(day, '250') });
  // The commit announces the account's new data version (NOTIFY, delivered within milliseconds to every api process,
  // as access changes are): the first request after it arrived computes afresh. Bounded: 100 × 20 ms.
  let after = await chart();
  for (let i = 0; i < 100 && after.headers['x-cache'] === 'hit'; i++) {
    await new Promise((r) => setTimeout(r, 20));
    after = await chart();
  }
  t.equal(after.headers['x-cache'], 'miss', 'the committed data version is in the cache key');
  t.not(after.body, before.body, 'the chart shows the new figures');
  t.match(after.body, /250/, 'with the new day');

  const { rows: owed } = await pool.query<{ queue: string }>(`SELECT DISTINCT queue FROM outbox ORDER BY queue`);
  t.same(owed.map((r) => r.queue), ['alert-evaluate', 'anomaly-detect'], 'the commits wrote their follow-ups');
  const worker = await startWorkerProcess(t, config, redis.url, { WORKER_QUEUES: 'anomaly-detect,alert-evaluate,notify' });
  await waitFor('the follow-ups to run', async () => {
    const { rows } = await pool.query<{ open: number }>(`SELECT count(*) FILTER (WHERE done_at IS NULL)::int AS open FROM outbox WHERE queue IN ('anomaly-detect', 'alert-evaluate')`);
    return rows[0].open === 0;
  }, 60_000, 200);
  const { rows: runs } = await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM anomaly_run');
  t.ok(runs[0].n >= 1, 'the anomaly detection ran');
  t.ok(worker.alive());
});

t.test('a file job run again after its process died right after COMMIT: nothing reloaded, no second follow-ups', async (t) => {
  const { pool, config } = await testEnv(t);
  const dir = await mkdtemp(join(tmpdir(), 'cc-after-commit-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const focus = await writeFocusFile(dir, 'september.csv', 500);
  const cmd = { customer_id: ACME.customerId, billing_account_id: ACME.billingAccountId, source: 'focus-file' as const, file: focus.file };
  const sources = { dropDir: dir };
  // The job's attempt commits, then its process dies: the job was never marked completed, so it runs again.
  const first = await ingestCommand(pool, cmd, { sources });
  t.equal(first.rows, 500);
  // By then the reconciler may well have run the follow-ups the commit owed.
  await pool.query(`UPDATE outbox SET published_at = now(), done_at = now()`);
  const counts = async () =>
    (await pool.query<{ batches: number; outbox: number; lines: number }>(
      `SELECT (SELECT count(*)::int FROM ingest_batch) AS batches, (SELECT count(*)::int FROM outbox) AS outbox,
              (SELECT count(*)::int FROM cost_line WHERE billing_account_id = $1) AS lines`,
      [ACME.billingAccountId],
    )).rows[0];
  const before = await counts();
  t.same(before, { batches: 1, outbox: 2, lines: 500 });

  const redis = await privateRedis(t);
  const producer = createProducer(redis.url, config.QUEUE_PREFIX, () => undefined);
  t.teardown(() => producer.close());
  const host = await startWorkers({
    redisUrl: redis.url,
    prefix: config.QUEUE_PREFIX,
    queues: ['billing-ingest'],
    handlers: { 'billing-ingest': billingIngestHandler({ pool, billingSources: sources, chartCache: chartCache(producer.redis, config.QUEUE_PREFIX, createLogger('silent')), enqueue: producer.enqueue }) },
  });
  t.teardown(() => host.close());
  const outcome = await jobOutcomes(t, 'billing-ingest', { redisUrl: redis.url, prefix: config.QUEUE_PREFIX });
  const again = (await outcome(await producer.enqueue('billing-ingest', 'billing.ingest', cmd))) as { batchId: string; alreadyLoaded: boolean; rows: number; notes: string[] };
  t.match(again, { batchId: first.batchId, alreadyLoaded: true, rows: 500 }, 'the run finds its own batch');
  t.match(again.notes, [/loaded by batch \d+ and nothing was loaded into the account since/]);
  t.same(await counts(), before, 'no second batch, no second anomaly and alert pass, the same lines');

  // Once another load came after it (here another export of September), the same file is worth loading again.
  const other = await writeFocusFile(dir, 'september-other.csv', 10);
  await ingestCommand(pool, { ...cmd, file: other.file }, { sources });
  const reloaded = (await outcome(await producer.enqueue('billing-ingest', 'billing.ingest', { ...cmd, file_version: '1-1-1' }))) as { alreadyLoaded: boolean; rows: number };
  t.match(reloaded, { alreadyLoaded: false, rows: 500 }, 'loaded again after a later batch');
});
