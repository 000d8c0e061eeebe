/**
 * Fault: database connections terminated under the api, a transaction and a worker. The process stays
 * up; a request answers 200 or 503 (never 500), a transaction rejects, a job's attempt fails and is retried.
 */
import t from 'tap';
import pg from 'pg';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { withTransaction } from '@cc/shared/db/pool.ts';
import { isUnavailableError } from '@cc/shared/unavailable.ts';
import { createProducer } from '@cc/shared/producer.ts';
import { durableEnqueue } from '@cc/shared/outbox.ts';
import { build, login, bearer } from '../helper.ts';
import { privateRedis, sleep, startWorkerProcess, waitFor, writeFocusFile } from '../faults.ts';

async function terminator(url: string) {
  const c = new pg.Client({ connectionString: url });
  c.on('error', () => undefined);
  await c.connect();
  return {
    kill: async (appName?: string) =>
      (await c.query<{ n: number }>(
        `SELECT count(pg_terminate_backend(pid))::int AS n FROM pg_stat_activity
          WHERE datname = current_database() AND pid <> pg_backend_pid() AND ($1::text IS NULL OR application_name = $1)`,
        [appName ?? null],
      )).rows[0].n,
    end: () => c.end(),
  };
}

t.test('a connection killed inside withTransaction rejects; the process stays up', async (t) => {
  const app = await build(t);
  const { pool } = app.env;
  const err = await withTransaction(pool, async (tx) => {
    await tx.query('SELECT pg_terminate_backend(pg_backend_pid())');
  }).catch((e: unknown) => e);
  t.ok(err instanceof Error, 'the transaction rejected');
  t.ok(isUnavailableError(err), `classified as unavailable: ${(err as Error).message}`);
  const { rows } = await pool.query('SELECT 1 AS one');
  t.same(rows, [{ one: 1 }], 'the pool goes on with a fresh connection');
});

t.test('api: connections killed under load answer 200 or 503, never 500', async (t) => {
  const app = await build(t);
  const killer = await terminator(app.env.config.DATABASE_URL);
  t.teardown(() => killer.end());
  const alice = bearer(await login(app, 'alice@acme.example'));
  const statuses: Record<number, number> = {};
  let stop = false;
  const loop = (async () => {
    let killed = 0;
    while (!stop) {
      killed += await killer.kill();
      await sleep(5);
    }
    return killed;
  })();
  for (let round = 0; round < 10; round++) {
    const answers = await Promise.all(Array.from({ length: 20 }, () => app.inject({ method: 'GET', url: '/v1/alerts/acme-corp/', headers: alice })));
    for (const a of answers) {
      statuses[a.statusCode] = (statuses[a.statusCode] ?? 0) + 1;
      if (a.statusCode === 503) t.match(a.json(), { detail: /unavailable/ });
    }
  }
  stop = true;
  const killed = await loop;
  t.comment(`killed ${killed} connections; answers ${JSON.stringify(statuses)}`);
  t.ok(killed > 0, 'connections were killed');
  t.same(Object.keys(statuses).filter((s) => s !== '200' && s !== '503'), [], 'only 200 and 503');
  t.equal((await app.inject({ method: 'GET', url: '/v1/alerts/acme-corp/', headers: alice })).statusCode, 200, 'then answers normally');
});

t.test('worker: connections killed mid-ingest; the process stays up and the job retries to completion', async (t) => {
  const app = await build(t);
  const { pool, config } = app.env;
  const redis = await privateRedis(t);
  const dir = await mkdtemp(join(tmpdir(), 'cc-faults-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const focus = await writeFocusFile(dir, 'september.csv', 20_000);
  const url = new URL(config.DATABASE_URL);
  url.searchParams.set('application_name', 'cc-fault-worker');
  const worker = await startWorkerProcess(t, config, redis.url, { DATABASE_URL: url.toString(), WORKER_QUEUES: 'billing-ingest' });
  const producer = createProducer(redis.url, config.QUEUE_PREFIX, () => undefined);
  t.teardown(() => producer.close());
  const killer = await terminator(config.DATABASE_URL);
  t.teardown(() => killer.end());
  await durableEnqueue(pool, producer)('billing-ingest', 'billing.ingest', { customer_id: 'acme-corp', billing_account_id: '01A2B3-C4D5E6-F7A8B9', source: 'focus-file', file: focus.file });
  await waitFor('the ingest to start', async () => (await pool.query(`SELECT 1 FROM ingest_batch WHERE status = 'running'`)).rowCount, 60_000, 20);
  await sleep(300);
  const killed = await killer.kill('cc-fault-worker');
  t.comment(`killed ${killed} worker connections mid-ingest`);
  t.ok(killed > 0);
  await waitFor('the retry to succeed', async () => (await pool.query(`SELECT 1 FROM ingest_batch WHERE status = 'succeeded'`)).rowCount, 120_000, 200);
  t.ok(worker.alive(), 'the worker process is still up');
  const { rows } = await pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM cost_line WHERE usage_date BETWEEN '2026-09-01' AND '2026-09-30'`);
  t.equal(rows[0].n, focus.rows, 'every row once');
});
