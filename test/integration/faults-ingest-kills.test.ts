/**
 * Faults: a worker killed (-9) two and three times during one ingest. The stalled-job settings
 * hand the job back each time, the retry replaces the same slices, and the ingest ends completed and exact; the
 * dead workers' statements stop (client_connection_check_interval) and their batches do not stay `running`.
 */
import t from 'tap';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { testEnv } from '../helper.ts';
import { createProducer } from '@cc/shared/producer.ts';
import { durableEnqueue } from '@cc/shared/outbox.ts';
import { privateRedis, sleep, startWorkerProcess, toMicros, waitFor, writeFocusFile } from '../faults.ts';

const ACCOUNT = { customer_id: 'acme-corp', billing_account_id: '01A2B3-C4D5E6-F7A8B9' };
// Enough rows that a kill 0.1–0.8 s after a batch starts lands inside it: files load straight into cost_line in
// batches, and 100,000 rows were loaded and committed before the first kill on a quiet machine.
const ROWS = 300_000;
const APP_NAME = 'cc-fault-worker';

for (const kills of process.env.FAULT_KILLS ? [Number(process.env.FAULT_KILLS)] : [2, 3]) {
  t.test(`${kills} kills during one ingest: completed and exact`, async (t) => {
    const { config, pool } = await testEnv(t);
    const redis = await privateRedis(t);
    const dir = await mkdtemp(join(tmpdir(), 'cc-faults-'));
    t.teardown(() => rm(dir, { recursive: true, force: true }));
    const focus = await writeFocusFile(dir, 'september.csv', ROWS);
    const producer = createProducer(redis.url, config.QUEUE_PREFIX, () => undefined);
    t.teardown(() => producer.close());
    const dbUrl = new URL(config.DATABASE_URL);
    dbUrl.searchParams.set('application_name', APP_NAME);
    const worker = () => startWorkerProcess(t, config, redis.url, { DATABASE_URL: dbUrl.toString(), WORKER_QUEUES: 'billing-ingest', DB_CONNECTION_CHECK_MS: '500' });
    const batches = async (status: string) => (await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM ingest_batch WHERE status = $1', [status])).rows[0].n;
    const started = async () => (await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM ingest_batch')).rows[0].n;

    const jobId = await durableEnqueue(pool, producer)('billing-ingest', 'billing.ingest', { ...ACCOUNT, source: 'focus-file', file: focus.file });
    const began = Date.now();
    for (let k = 1; k <= kills; k++) {
      const w = await worker();
      await waitFor(`attempt ${k} to start loading`, async () => (await started()) >= k, 60_000, 20);
      // Somewhere in reading, COPY or the replace transaction.
      await sleep(100 + Math.floor(Math.random() * 700));
      // A kill after the commit proves nothing here (faults-after-commit covers it): say so instead of timing out.
      t.equal(await batches('succeeded'), 0, `attempt ${k} is still loading when it is killed`);
      await w.kill();
      t.comment(`kill ${k} at ${Date.now() - began} ms (batches started ${await started()}, succeeded ${await batches('succeeded')})`);
      // The dead worker's statements stop: nothing of it stays active and holds the account's lock. Counted in this
      // test's own database: a worker left by another run on the same server carries the same application name.
      await waitFor('the dead worker’s statements to end', async () => {
        const { rows } = await pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND application_name = $1`, [APP_NAME]);
        return rows[0].n === 0;
      }, 15_000);
    }
    const last = await worker();
    await waitFor('the ingest to complete', async () => {
      const job = await producer.queues['billing-ingest'].getJob(jobId);
      const state = job ? await job.getState() : 'unknown';
      if (state === 'failed') throw new Error(`ingest failed: ${job?.failedReason}`);
      return (await batches('succeeded')) >= 1 && state === 'unknown';
    }, 120_000, 200).catch(async (err: Error) => {
      const { rows } = await pool.query('SELECT id, status, error, started_at, finished_at FROM ingest_batch ORDER BY id');
      throw new Error(`${err.message}\nbatches: ${JSON.stringify(rows)}\nworker: ${last.output().slice(-4000)}`);
    });
    t.comment(`completed ${Date.now() - began} ms after the enqueue, ${await started()} attempts`);
    t.ok(last.alive(), 'the last worker is still up');

    // Exact: every row once, totals equal to the file's own sum (integer micro-units, computed above).
    const { rows: [line] } = await pool.query<{ n: number; cost: string }>(
      'SELECT count(*)::int AS n, COALESCE(sum(cost), 0)::text AS cost FROM cost_line WHERE billing_account_id = $1', [ACCOUNT.billing_account_id]);
    const { rows: [daily] } = await pool.query<{ cost: string }>(
      `SELECT COALESCE(sum(cost), 0)::text AS cost FROM cost_daily WHERE billing_account_id = $1 AND usage_date BETWEEN '2026-09-01' AND '2026-09-30'`, [ACCOUNT.billing_account_id]);
    const { rows: [sept] } = await pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM cost_line WHERE billing_account_id = $1 AND usage_date BETWEEN '2026-09-01' AND '2026-09-30'`, [ACCOUNT.billing_account_id]);
    t.equal(sept.n, focus.rows, `${focus.rows} lines of September, none twice`);
    t.equal(toMicros(daily.cost), focus.micros, 'the daily rollup equals the file');
    t.ok(line.n >= focus.rows);
    t.equal(await batches('succeeded'), 1, 'one batch succeeded');
    // Batches of the killed attempts are failed by the reconciler, not left running.
    await waitFor('no batch left running', async () => (await batches('running')) === 0, 15_000);
    t.equal(await batches('failed'), (await started()) - 1, 'every killed attempt is marked failed');
    // The commit queued its follow-ups in the outbox, and the reconciler published them (on its next pass: wait for it).
    const followUps = async () => (await pool.query<{ queue: string; published: boolean }>(
      `SELECT queue, published_at IS NOT NULL AS published FROM outbox WHERE queue IN ('anomaly-detect', 'alert-evaluate') ORDER BY queue`)).rows;
    await waitFor('the follow-ups to be published', async () => (await followUps()).filter((r) => r.published).length === 2, 15_000).catch(() => undefined);
    const follow = await followUps();
    t.same(follow, [{ queue: 'alert-evaluate', published: true }, { queue: 'anomaly-detect', published: true }], 'follow-ups recorded by the commit and published');
  });
}
