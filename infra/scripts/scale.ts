/**
 * `make scale`: the product on more than one process, proven on this machine. It starts (scale-topology.ts) a Redis
 * Sentinel group, a Redis Cluster, one plain Redis for comparison, and a PostgreSQL primary with a streaming replica;
 * then, for each Redis shape, two api processes and three workers (the third by WORKER_QUEUES) on that Redis, the
 * primary (DATABASE_URL) and the replica (DATABASE_READ_URL), and checks:
 *  - ingest: six accounts ingested at once — each job done once, each total equal to its file's own sum, the work
 *    spread over the workers;
 *  - failover: the Redis primary killed (-9) with 1,000 e-mails queued and an ingest running — every e-mail sent
 *    exactly once, the ingest completed once, and how long the queues stalled;
 *  - replica: a chart read through the replica equals the primary's, and is never older than a write acknowledged
 *    just before it (replay paused on every other round: the primary answers then);
 *  - replica lists: a project request written on one api process is in the list the other answers at once (replay
 *    paused on every other round: the list waits for it);
 *  - schedulers: a simulated day (each schedule's next job promoted slot by slot) — every slot ran exactly once
 *    across the three workers;
 *  - revocation: a token signed out on api 1 is refused by api 2 at once;
 *  - role change: a customer lowered to customerViewer on api 1 is refused a customer's chart by api 2 at once (its
 *    cached answer included), and once removed is refused everything.
 * It prints a table of these figures (docs/scaling.md quotes it) and exits 1 if a check failed.
 *
 * SCALE_SHAPES (single,sentinel,cluster), SCALE_ROWS (lines per ingest file, 20000), SCALE_MAILS (1000) and
 * SCALE_DAY_HOURS (24) shorten it.
 *
 * Longer than 300 lines on purpose: a test harness, not product code — each check above is one function beside the
 * deployment it runs on, and the table reads them in one order; split, a reader would chase one scenario over files.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { QueueEvents, type Job } from 'bullmq';
import pg from 'pg';
import { loadConfig } from '@cc/shared/config.ts';
import { createPool, withTransaction, type Pool } from '@cc/shared/db/pool.ts';
import { createProducer, type Producer } from '@cc/shared/producer.ts';
import { durableEnqueue } from '@cc/shared/outbox.ts';
import { SCHEDULES, type QueueName } from '@cc/shared/queues.ts';
import { createRedis, queuePrefix } from '@cc/shared/redis.ts';
import { buildApp } from '../../api/src/app.ts';
import { migrate } from './migrate.ts';
import { seed, DEMO_PASSWORD } from './seed.ts';
import { freePort, startPostgresPair, startRedisCluster, startSentinelGroup, startSingleRedis, type PostgresPair } from './scale-topology.ts';
import { WORKER_NODE_FLAGS } from './node-flags.ts';

type Shape = 'single' | 'sentinel' | 'cluster';
const SHAPES = (process.env.SCALE_SHAPES || 'single,sentinel,cluster').split(',').map((s) => s.trim()) as Shape[];
const ROWS = Number(process.env.SCALE_ROWS || 20_000);
const MAILS = Number(process.env.SCALE_MAILS || 1000);
const DAY_HOURS = Number(process.env.SCALE_DAY_HOURS || 24);
const CUSTOMER = 'acme-corp';
const ACCOUNTS = [1, 2, 3, 4, 5, 6].map((i) => `SCALE-0000${i}`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function waitFor<T>(what: string, check: () => Promise<T>, ms = 120_000, every = 100): Promise<NonNullable<T>> {
  const deadline = Date.now() + ms;
  let last: unknown;
  for (;;) {
    const v = await check().catch((err: unknown) => ((last = err), null));
    if (v) return v as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}${last ? ` (${String(last)})` : ''}`);
    await sleep(every);
  }
}

/** A FOCUS 1.0 file of `rows` charges of September 2026 and its spend summed here in integer micro-units. */
async function focusFile(dir: string, name: string, rows: number, seedNo: number): Promise<{ file: string; micros: bigint }> {
  const lines = ['BilledCost,BillingCurrency,BillingPeriodStart,ChargePeriodStart,ChargeCategory,ProviderName,SubAccountId,SubAccountName,ServiceName,SkuId'];
  let micros = 0n;
  for (let i = 0; i < rows; i++) {
    const m = BigInt(((i * 7919 + seedNo * 104_729) % 9_000_000) + 1_000);
    micros += m;
    const cost = `${m / 1_000_000n}.${String(m % 1_000_000n).padStart(6, '0')}`;
    lines.push(`${cost},EUR,2026-09-01 00:00:00,2026-09-${String((i % 30) + 1).padStart(2, '0')} 10:00:00,Usage,Google Cloud,proj-${i % 17},Project ${i % 17},Compute Engine,SKU-${i % 101}`);
  }
  const file = join(dir, name);
  await writeFile(file, lines.join('\n') + '\n');
  return { file, micros };
}

const toMicros = (s: string) => {
  const [int, frac = ''] = s.replace(/^-/, '').split('.');
  const v = BigInt(int!) * 1_000_000n + BigInt((frac + '000000').slice(0, 6));
  return s.startsWith('-') ? -v : v;
};

interface Child {
  name: string;
  proc: ChildProcess;
  out: () => string;
  metricsPort?: number;
}

function startChild(name: string, entry: string, env: Record<string, string>, nodeFlags: string[] = []): Child {
  const proc = spawn(process.execPath, [...nodeFlags, '--import', 'tsx', entry], { env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  const keep = (d: Buffer) => (out = (out + d.toString()).slice(-30_000));
  proc.stdout!.on('data', keep);
  proc.stderr!.on('data', keep);
  return { name, proc, out: () => out };
}

async function stopChild(c: Child): Promise<void> {
  if (c.proc.exitCode !== null || c.proc.signalCode !== null) return;
  c.proc.kill('SIGTERM');
  const timer = setTimeout(() => c.proc.kill('SIGKILL'), 15_000);
  await once(c.proc, 'exit');
  clearTimeout(timer);
}

/** One row of the table: each shape's figure, and whether the check held. */
type Row = { check: string; figures: Partial<Record<Shape, string>>; ok: Partial<Record<Shape, boolean>> };

interface Deployment {
  shape: Shape;
  redisUrl: string;
  env: Record<string, string>;
  pool: Pool;
  dbName: string;
  apis: { child: Child; base: string }[];
  workers: Child[];
  producer: Producer;
  prefix: string;
  dropDir: string;
}

async function deploy(shape: Shape, redisUrl: string, pair: PostgresPair, dropDir: string): Promise<Deployment> {
  const dbName = `cc_scale_${shape}`;
  const admin = new pg.Client({ connectionString: pair.primaryUrl });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${dbName} TEMPLATE cc_scale_tpl`);
  await admin.end();
  const databaseUrl = pair.urlFor('primary', dbName);
  const pool = createPool(databaseUrl, 8);
  await withTransaction(pool, seed);
  await pool.query('UPDATE customer SET billing_account_ids = $2 WHERE customer_id = $1', [CUSTOMER, ACCOUNTS]);
  const prefix = `scale-${shape}`;
  const env: Record<string, string> = {
    NODE_ENV: 'test',
    LOG_LEVEL: 'warn',
    DATABASE_URL: databaseUrl,
    DATABASE_READ_URL: pair.urlFor('replica', dbName),
    REDIS_URL: redisUrl,
    QUEUE_PREFIX: prefix,
    JWT_SECRET: randomBytes(32).toString('base64url'),
    SECRETS_KEY: randomBytes(32).toString('base64url'),
    MAIL: 'local',
    LOCAL_SMTP_PORT: String(await freePort()),
    INGEST_DROP_DIR: dropDir,
    WEB_DIST: 'web/dist',
    // A lock long enough that a busy event loop (parsing, COPY on two shared cores) never loses a live job to another
    // worker; a job whose lock Redis lost in a failover is taken back within it.
    WORKER_LOCK_MS: '10000',
    WORKER_STALLED_CHECK_MS: '2000',
    OUTBOX_RECONCILE_MS: '500',
    OUTBOX_LOST_AFTER_MS: '3000',
    // Installed by each worker at its start; not re-installed during the run, so the simulated day's promotions (slots
    // run ahead of the clock) are not reset to the real clock's next slot.
    SCHEDULE_RECONCILE_MS: '86400000',
    PROVISIONING_LOCAL_DELAY_MS: '0',
  };
  const config = loadConfig(env);
  const workers: Child[] = [];
  for (const [i, queues] of ['', '', 'billing-ingest,notify,maintenance'].entries()) {
    const metricsPort = await freePort();
    const w = startChild(`worker ${i + 1}`, 'workers/src/main.ts', { ...env, WORKER_QUEUES: queues, WORKER_METRICS_PORT: String(metricsPort), LOG_LEVEL: 'info' }, WORKER_NODE_FLAGS);
    w.metricsPort = metricsPort;
    workers.push(w);
  }
  const apis: Deployment['apis'] = [];
  for (let i = 0; i < 2; i++) {
    const port = await freePort();
    apis.push({ child: startChild(`api ${i + 1}`, 'api/src/main.ts', { ...env, HOST: '127.0.0.1', PORT: String(port), PUBLIC_URL: `http://127.0.0.1:${port}` }), base: `http://127.0.0.1:${port}` });
  }
  for (const w of workers) {
    await waitFor(`${w.name} to start`, async () => {
      if (w.proc.exitCode !== null) throw new Error(`${w.name} exited: ${w.out()}`);
      return w.out().includes('workers started');
    }, 180_000, 100);
  }
  for (const a of apis) {
    await waitFor(`${a.child.name} to listen`, async () => {
      if (a.child.proc.exitCode !== null) throw new Error(`${a.child.name} exited: ${a.child.out()}`);
      return (await fetch(`${a.base}/readyz`)).ok;
    }, 180_000, 200).catch((err: Error) => {
      throw new Error(`${err.message}\n${a.child.out().slice(-3000)}`);
    });
  }
  const producer = createProducer(config.REDIS_URL, config.QUEUE_PREFIX, () => undefined);
  return { shape, redisUrl, env, pool, dbName, apis, workers, producer, prefix: config.QUEUE_PREFIX, dropDir };
}

async function undeploy(d: Deployment): Promise<void> {
  await Promise.all([...d.apis.map((a) => stopChild(a.child)), ...d.workers.map(stopChild)]);
  await d.producer.close();
  await d.pool.end();
}

async function http(base: string, method: string, path: string, token?: string, body?: unknown): Promise<{ status: number; json: () => unknown; text: string; headers: Headers }> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, text, json: () => JSON.parse(text), headers: res.headers };
}

async function login(base: string, email: string): Promise<string> {
  const res = await http(base, 'POST', '/v1/auth/login', undefined, { email, password: DEMO_PASSWORD });
  if (res.status !== 200) throw new Error(`login ${email}: ${res.status} ${res.text}`);
  return (res.json() as { token: string }).token;
}

/** Jobs completed per worker for a queue, from each worker's /metrics. */
async function completedPerWorker(d: Deployment, queue: QueueName): Promise<number[]> {
  return Promise.all(
    d.workers.map(async (w) => {
      const text = await (await fetch(`http://127.0.0.1:${w.metricsPort}/metrics`)).text();
      const m = new RegExp(`cc_job_duration_seconds_count\\{[^}]*queue="${queue}"[^}]*outcome="completed"[^}]*\\} (\\d+)`).exec(text) ?? new RegExp(`cc_job_duration_seconds_count\\{[^}]*outcome="completed"[^}]*queue="${queue}"[^}]*\\} (\\d+)`).exec(text);
      return m ? Number(m[1]) : 0;
    }),
  );
}

async function accountTotals(pool: Pool, account: string): Promise<{ micros: bigint; succeeded: number; failed: number }> {
  const { rows: [line] } = await pool.query<{ cost: string }>(`SELECT COALESCE(sum(cost), 0)::text AS cost FROM cost_line WHERE billing_account_id = $1`, [account]);
  const { rows: [b] } = await pool.query<{ ok: number; bad: number }>(
    `SELECT count(*) FILTER (WHERE status = 'succeeded')::int AS ok, count(*) FILTER (WHERE status <> 'succeeded')::int AS bad FROM ingest_batch WHERE billing_account_id = $1`,
    [account],
  );
  return { micros: toMicros(line!.cost), succeeded: b!.ok, failed: b!.bad };
}

/** Six accounts through the api's ingest route at once (alternating api processes). */
async function checkIngest(d: Deployment, admin: string): Promise<{ figure: string; ok: boolean }> {
  const files = await Promise.all(ACCOUNTS.map((a, i) => focusFile(d.dropDir, `${d.shape}-${a}.csv`, ROWS, i + 1)));
  const before = await completedPerWorker(d, 'billing-ingest');
  const began = Date.now();
  const accepted = await Promise.all(
    ACCOUNTS.map((a, i) => http(d.apis[i % 2]!.base, 'POST', '/v2/billing/ingest', admin, { customer_id: CUSTOMER, billing_account_id: a, source: 'focus-file', file: files[i]!.file })),
  );
  if (accepted.some((r) => r.status !== 202)) throw new Error(`ingest refused: ${accepted.map((r) => `${r.status} ${r.text}`).join('; ')}`);
  await waitFor('six ingests', async () => {
    const t = await Promise.all(ACCOUNTS.map((a) => accountTotals(d.pool, a)));
    return t.every((x) => x.succeeded >= 1);
  }, 600_000, 200);
  const seconds = (Date.now() - began) / 1000;
  await sleep(1500);
  const totals = await Promise.all(ACCOUNTS.map((a) => accountTotals(d.pool, a)));
  const exact = totals.every((x, i) => x.micros === files[i]!.micros && x.succeeded === 1 && x.failed === 0);
  const after = await completedPerWorker(d, 'billing-ingest');
  const spread = after.map((n, i) => n - before[i]!);
  const ok = exact && spread.reduce((a, b) => a + b, 0) === 6;
  const detail = exact ? 'exact' : `WRONG (${totals.map((x, i) => `${x.succeeded} ok ${x.failed} other ${x.micros === files[i]!.micros ? 'sum ok' : 'sum differs'}`).join('; ')})`;
  return { figure: `${detail}, ${seconds.toFixed(1)} s, per worker ${spread.join('/')}`, ok };
}

/** The primary killed with e-mails queued and an ingest running; every e-mail once, the ingest once. */
async function checkFailover(d: Deployment, kill: () => Promise<number>): Promise<{ figure: string; ok: boolean; stallMs: number }> {
  const big = await focusFile(d.dropDir, `${d.shape}-failover.csv`, ROWS * 10, 99);
  const account = ACCOUNTS[0]!;
  const batchesBefore = (await accountTotals(d.pool, account)).succeeded;
  const enqueue = durableEnqueue(d.pool, d.producer);
  await enqueue('billing-ingest', 'billing.ingest', { customer_id: CUSTOMER, billing_account_id: account, source: 'focus-file', file: big.file });
  const sent = async () =>
    (await d.pool.query<{ n: number; d: number }>(`SELECT count(*)::int AS n, count(DISTINCT subject)::int AS d FROM mail_message WHERE subject LIKE $1`, [`scale ${d.shape} %`])).rows[0]!;
  await waitFor('the ingest to run', async () => (await d.pool.query(`SELECT 1 FROM ingest_batch WHERE billing_account_id = $1 AND status = 'running'`, [account])).rows.length > 0, 120_000, 20);
  // The e-mails accepted in a burst (50 at a time), so most are still queued when the primary dies.
  for (let i = 0; i < MAILS; i += 50) {
    await Promise.all(
      Array.from({ length: Math.min(50, MAILS - i) }, (_, k) =>
        enqueue('notify', 'notify.send', { to: [`user${i + k}@example.com`], subject: `scale ${d.shape} ${i + k}`, text: 'hello', key: `scale-${d.shape}-${i + k}` }),
      ),
    );
  }
  const atKill = (await sent()).n;
  const killedAt = Date.now();
  const failoverMs = await kill();
  // The queues stalled until the first e-mail stored after the new primary took over.
  const afterFailover = (await sent()).n;
  const resumedAt = await waitFor('e-mails to flow again', async () => ((await sent()).n > afterFailover || (await sent()).n >= MAILS ? Date.now() : null), 120_000, 20);
  const stallMs = resumedAt - killedAt;
  await waitFor(`all ${MAILS} e-mails`, async () => (await sent()).d >= MAILS, 600_000, 200);
  await waitFor('the failover ingest', async () => (await accountTotals(d.pool, account)).succeeded > batchesBefore, 600_000, 200);
  await sleep(3000);
  const final = await sent();
  const totals = await accountTotals(d.pool, account);
  const mailOnce = final.n === MAILS && final.d === MAILS;
  if (!mailOnce) {
    const { rows } = await d.pool.query(`SELECT subject, count(*)::int AS n FROM mail_message WHERE subject LIKE $1 GROUP BY subject HAVING count(*) > 1`, [`scale ${d.shape} %`]);
    console.error(`# sent more than once: ${JSON.stringify(rows)}`);
  }
  const ingestOnce = totals.succeeded === batchesBefore + 1 && totals.micros === big.micros;
  return {
    figure: `${final.d}/${MAILS} sent, ${final.n - final.d} twice; ingest ${ingestOnce ? 'once, exact' : 'WRONG'}; ${atKill} sent at kill; failover ${(failoverMs / 1000).toFixed(1)} s, stall ${(stallMs / 1000).toFixed(1)} s`,
    ok: mailOnce && ingestOnce,
    stallMs,
  };
}

/**
 * A chart through the replica equals the primary's and includes a write acknowledged just before it. The primary's
 * answer comes from an api built here without DATABASE_READ_URL and with a cache of its own (another prefix).
 */
async function checkReplica(d: Deployment, pair: PostgresPair, admin: string, alice: string): Promise<{ figure: string; ok: boolean }> {
  const replica = new pg.Client({ connectionString: pair.urlFor('replica', d.dbName) });
  await replica.connect();
  const reference = await buildApp(loadConfig({ ...d.env, DATABASE_READ_URL: '', QUEUE_PREFIX: `${d.env.QUEUE_PREFIX}-primary`, LOG_LEVEL: 'silent' }), { logger: false });
  await reference.ready();
  const replicaTransactions = async () => Number((await replica.query<{ n: string }>(`SELECT xact_commit::text AS n FROM pg_stat_database WHERE datname = current_database()`)).rows[0]!.n);
  const account = ACCOUNTS[1]!;
  const chartPath = `/v2/billing/aggregated/by_service/chart/${CUSTOMER}?billing_account_id=${account}&provider=gcp&period=12months`;
  let rounds = 0;
  let fresh = 0;
  let equal = 0;
  const before = await replicaTransactions();
  try {
    for (let i = 0; i < 6; i++) {
      // Every other round the replica stops replaying: it is behind the write, and the primary must answer.
      const paused = i % 2 === 1;
      if (paused) await replica.query('SELECT pg_wal_replay_pause()');
      const f = await focusFile(d.dropDir, `${d.shape}-replica-${i}.csv`, 500 + i * 37, 200 + i);
      const batches = (await accountTotals(d.pool, account)).succeeded;
      const res = await http(d.apis[i % 2]!.base, 'POST', '/v2/billing/ingest', admin, { customer_id: CUSTOMER, billing_account_id: account, source: 'focus-file', file: f.file });
      if (res.status !== 202) throw new Error(`ingest refused: ${res.status} ${res.text}`);
      // Acknowledged: the batch committed on the primary; the chart is asked at once, of the other api process.
      await waitFor('the round’s ingest', async () => (await accountTotals(d.pool, account)).succeeded > batches, 120_000, 10);
      const viaApi = await http(d.apis[(i + 1) % 2]!.base, 'POST', chartPath, alice, {});
      if (paused) await replica.query('SELECT pg_wal_replay_resume()');
      rounds++;
      const shown = (viaApi.json() as { summary: { custom: string } }).summary.custom;
      const expected = (Number((f.micros + 5_000n) / 10_000n) / 100).toFixed(2);
      if (viaApi.status === 200 && shown === expected) fresh++;
      else console.error(`# replica round ${i}: ${viaApi.status} shows ${shown}, the file holds ${expected}`);
      const primary = await reference.inject({ method: 'POST', url: chartPath, headers: { authorization: `Bearer ${alice}` }, payload: {} });
      if (primary.body === viaApi.text) equal++;
    }
  } finally {
    await reference.close();
  }
  const served = (await replicaTransactions()) - before;
  await replica.end();
  return { figure: `${fresh}/${rounds} show the write just acknowledged, ${equal}/${rounds} equal to the primary's; ${served} replica transactions`, ok: fresh === rounds && equal === rounds && served > 0 };
}

/**
 * A list through the replica shows the write acknowledged just before it: alice requests a project on one api
 * process, and at once the other answers her provisioning list (read on the replica). Every other round the replica's
 * replay is paused first: the list must still show the request (the primary answers it after DATABASE_READ_WAIT_MS).
 */
async function checkReplicaLists(d: Deployment, pair: PostgresPair, alice: string): Promise<{ figure: string; ok: boolean }> {
  const replica = new pg.Client({ connectionString: pair.urlFor('replica', d.dbName) });
  await replica.connect();
  const replicaTransactions = async () => Number((await replica.query<{ n: string }>(`SELECT xact_commit::text AS n FROM pg_stat_database WHERE datname = current_database()`)).rows[0]!.n);
  const before = await replicaTransactions();
  let rounds = 0;
  let shown = 0;
  let slowest = 0;
  try {
    for (let i = 0; i < 6; i++) {
      const paused = i % 2 === 1;
      if (paused) await replica.query('SELECT pg_wal_replay_pause()');
      const created = await http(d.apis[i % 2]!.base, 'POST', '/v1/asset-inventory/project/create', alice, {
        customer_id: CUSTOMER,
        bu: ['retail', 'finance'][i % 2],
        product: ['webshop', 'ledger'][(i >> 1) % 2],
        env: ['dev', 'prod'][i >> 2],
        owner_value: 'alice',
        template_name: 'Standard analytics project',
      });
      if (created.status !== 201) throw new Error(`project request refused: ${created.status} ${created.text}`);
      const t0 = Date.now();
      const res = await http(d.apis[(i + 1) % 2]!.base, 'GET', `/v1/projectprovisioning/${CUSTOMER}/`, alice);
      if (!paused) slowest = Math.max(slowest, Date.now() - t0);
      if (paused) await replica.query('SELECT pg_wal_replay_resume()');
      rounds++;
      if (res.status === 200 && res.headers.get('x-total-count') === String(i + 1) && (res.json() as { project_name: string }[]).some((r) => r.project_name === (created.json() as { project_name: string }).project_name)) shown++;
      else console.error(`# replica list round ${i}: ${res.status} ${res.headers.get('x-total-count')} requests`);
    }
  } finally {
    await replica.query('SELECT pg_wal_replay_resume()').catch(() => undefined);
  }
  const served = (await replicaTransactions()) - before;
  await replica.end();
  return {
    figure: `${shown}/${rounds} lists show the request just made on the other api process (replay paused in 3); slowest list with replay on ${slowest} ms; ${served} replica transactions`,
    ok: shown === rounds && served > 0,
  };
}

/**
 * A simulated day of the schedules: each worker installed them at its start; every scheduler must have exactly one
 * next job. Then, slot by slot in time order, every due slot's job is promoted and must run exactly once across the
 * three workers (counted from the queues' `active` events by job id).
 */
async function checkSchedulers(d: Deployment): Promise<{ figure: string; ok: boolean }> {
  const queues = [...new Set(SCHEDULES.map((s) => s.queue))];
  const runs = new Map<string, number>();
  const listeners: QueueEvents[] = [];
  const connections: ReturnType<typeof createRedis>[] = [];
  for (const q of queues) {
    const connection = createRedis(d.redisUrl, { maxRetriesPerRequest: null });
    connection.on('error', () => undefined);
    connections.push(connection);
    const e = new QueueEvents(q, { connection, prefix: queuePrefix(d.prefix, q) });
    e.on('active', ({ jobId }) => {
      if (jobId.startsWith('repeat:')) runs.set(jobId, (runs.get(jobId) ?? 0) + 1);
    });
    await e.waitUntilReady();
    listeners.push(e);
  }
  const nextJobs = async (): Promise<Job[]> => {
    const out: Job[] = [];
    for (const q of queues) out.push(...(await d.producer.queues[q].getDelayed()).filter((j) => j.id?.startsWith('repeat:')));
    return out;
  };
  const schedulerOf = (id: string) => id.split(':')[1]!;
  const first = await nextJobs();
  const perScheduler = new Map<string, number>();
  for (const j of first) perScheduler.set(schedulerOf(j.id!), (perScheduler.get(schedulerOf(j.id!)) ?? 0) + 1);
  const installedOnce = SCHEDULES.every((s) => perScheduler.get(s.id) === 1);
  const dayStart = Math.min(...first.map((j) => j.timestamp + (j.opts.delay ?? 0)));
  const dayEnd = dayStart + DAY_HOURS * 3_600_000;
  const promoted = new Map<string, number>();
  // what held a slot up past a minute: a promoted job never seen running, or a scheduler left without a next job
  const stuck: string[] = [];
  for (;;) {
    const due = (await nextJobs()).filter((j) => j.timestamp + (j.opts.delay ?? 0) < dayEnd);
    if (due.length === 0) break;
    const slot = Math.min(...due.map((j) => j.timestamp + (j.opts.delay ?? 0)));
    const now = due.filter((j) => j.timestamp + (j.opts.delay ?? 0) === slot);
    for (const j of now) {
      await j.promote();
      promoted.set(j.id!, slot);
    }
    // Run, and each scheduler's next job in place: BullMQ adds it as the job starts, and a look at the delayed jobs in
    // between (a loaded machine) would see none due and end the day early.
    const hasNext = (next: Job[], j: Job) => next.some((n) => n.id !== j.id && schedulerOf(n.id!) === schedulerOf(j.id!));
    try {
      await waitFor('the promoted slot to run and the next to be scheduled', async () => {
        if (!now.every((j) => (runs.get(j.id!) ?? 0) >= 1)) return false;
        const next = await nextJobs();
        return now.every((j) => hasNext(next, j));
      }, 60_000, 20);
    } catch {
      const next = await nextJobs();
      for (const j of now) {
        if (!runs.get(j.id!)) stuck.push(`${j.id} never seen running`);
        else if (!hasNext(next, j)) stuck.push(`${schedulerOf(j.id!)} without a next job after ${new Date(slot).toISOString()}`);
      }
      break;
    }
  }
  await sleep(1500);
  for (const e of listeners) await e.close();
  // Made here and handed to BullMQ, which leaves open a connection it did not make.
  for (const c of connections) c.disconnect();
  const expected = new Map<string, number>();
  for (const s of SCHEDULES) {
    const every = /^\*\/(\d+) \* \* \* \*$/.exec(s.pattern);
    expected.set(s.id, every ? (DAY_HOURS * 60) / Number(every[1]) : DAY_HOURS >= 24 ? 1 : NaN);
  }
  const ran = new Map<string, number>();
  let twice = 0;
  for (const [id, n] of runs) {
    ran.set(schedulerOf(id), (ran.get(schedulerOf(id)) ?? 0) + 1);
    if (n > 1) twice++;
  }
  const exact = SCHEDULES.filter((s) => !Number.isNaN(expected.get(s.id))).every((s) => ran.get(s.id) === expected.get(s.id));
  const total = [...ran.values()].reduce((a, b) => a + b, 0);
  return {
    figure: `${total} slots of ${SCHEDULES.length} schedules, each once: ${exact && twice === 0 ? 'yes' : 'NO'} (${twice} twice); one next job each: ${installedOnce ? 'yes' : 'NO'}${stuck.length ? `; stopped: ${stuck.join(', ')}` : ''}`,
    ok: exact && twice === 0 && installedOnce && stuck.length === 0,
  };
}

/** Signed out on api 1, refused by api 2 on its very next request. */
async function checkRevocation(d: Deployment): Promise<{ figure: string; ok: boolean }> {
  const [a1, a2] = [d.apis[0]!.base, d.apis[1]!.base];
  const token = await login(a1, 'alice@acme.example');
  const before = await http(a2, 'GET', '/v1/auth/me', token);
  const out = await http(a1, 'POST', '/v1/auth/logout', token);
  const t0 = Date.now();
  const after = await http(a2, 'GET', '/v1/auth/me', token);
  const ms = Date.now() - t0;
  const ok = before.status === 200 && out.status === 204 && after.status === 401;
  return { figure: `api 2 answered ${after.status} ${after.status === 401 ? (after.json() as { detail: string }).detail : after.text} ${ms} ms after the sign-out on api 1`, ok };
}

/**
 * A role lowered on api 1 holds on api 2 from its very next request: alice (customer) reads the Total chart on api 2
 * (computed, then cached); the admin makes her a customerViewer on api 1; api 2 refuses her that chart at once — a
 * cached answer must not slip past the access epoch — and, once the admin removes her, refuses her everything.
 */
async function checkRoleChange(d: Deployment, admin: string): Promise<{ figure: string; ok: boolean }> {
  const [a1, a2] = [d.apis[0]!.base, d.apis[1]!.base];
  const alice = 'alice@acme.example';
  const token = await login(a1, alice);
  const chartPath = `/v2/billing/aggregated/by_service/chart/${CUSTOMER}?billing_account_id=${ACCOUNTS[0]}&provider=gcp&period=12months`;
  const chart = () => http(a2, 'POST', chartPath, token, {});
  const before = [await chart(), await chart()];
  const cachedBefore = before[1]!.headers.get('x-cache');
  const lowered = await http(a1, 'PUT', `/v1/users/${alice}/`, admin, { role: 'customerViewer', email: alice, customers: ['acme-corp', 'globex'] });
  let t0 = Date.now();
  const afterLower = await chart();
  const lowerMs = Date.now() - t0;
  const removed = await http(a1, 'DELETE', '/v1/users/', admin, { users: [alice] });
  t0 = Date.now();
  const afterRemove = await http(a2, 'GET', '/v1/customers/', token);
  const removeMs = Date.now() - t0;
  const afterRemoveChart = await chart();
  const detail = (r: { status: number; text: string }) => `${r.status} ${r.status >= 400 ? ((JSON.parse(r.text) as { detail?: string }).detail ?? r.text) : 'answered'}`;
  const ok =
    before.every((r) => r.status === 200) &&
    cachedBefore === 'hit' &&
    lowered.status === 200 &&
    afterLower.status === 403 &&
    removed.status === 200 &&
    afterRemove.status === 401 &&
    afterRemoveChart.status === 401;
  return {
    figure: `customer → customerViewer on api 1: api 2 answered the cached chart ${detail(afterLower)} ${lowerMs} ms after; removed: api 2 answered ${detail(afterRemove)} ${removeMs} ms after (the chart: ${afterRemoveChart.status})`,
    ok,
  };
}

function printTable(rows: Row[]): void {
  const head = ['check', ...SHAPES];
  const cells = rows.map((r) => [r.check, ...SHAPES.map((s) => (r.figures[s] === undefined ? '-' : `${r.ok[s] ? 'ok' : 'FAIL'}: ${r.figures[s]}`))]);
  const widths = head.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
  const line = (c: string[]) => `| ${c.map((x, i) => x.padEnd(widths[i]!)).join(' | ')} |`;
  console.log(line(head));
  console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const c of cells) console.log(line(c));
}

/** Stops what this run started (servers, processes) on Ctrl-C too. */
const cleanups: (() => Promise<unknown>)[] = [];
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    console.error(`${signal}: stopping the servers and processes of this run`);
    void Promise.allSettled(cleanups.map((c) => c())).then(() => process.exit(130));
  });
}

async function main(): Promise<void> {
  const began = Date.now();
  const log = (msg: string) => console.log(`# ${((Date.now() - began) / 1000).toFixed(1)} s ${msg}`);
  const dropDir = await mkdtemp(join(tmpdir(), 'cc-scale-drop-'));
  const [pair, sentinel, cluster, single] = await Promise.all([
    startPostgresPair(),
    SHAPES.includes('sentinel') ? startSentinelGroup() : null,
    SHAPES.includes('cluster') ? startRedisCluster() : null,
    SHAPES.includes('single') ? startSingleRedis() : null,
  ]);
  cleanups.push(() => Promise.all([pair.stop(), sentinel?.stop(), cluster?.stop(), single?.stop(), rm(dropDir, { recursive: true, force: true })]));
  log(`PostgreSQL primary (${pair.primaryKind}) ${pair.primaryUrl}, streaming replica ${pair.replicaUrl}`);
  if (sentinel) log(`Redis Sentinel group ${sentinel.url}`);
  if (cluster) log(`Redis Cluster ${cluster.nodes}`);
  const rows: Row[] = ['ingest: six accounts at once', 'failover: primary killed -9', 'replica: chart after a write', 'replica: list after a write', 'schedulers: a simulated day', 'revocation: api 1 → api 2', 'role change: api 1 → api 2'].map((check) => ({ check, figures: {}, ok: {} }));
  let failed = false;
  try {
    const tpl = new pg.Client({ connectionString: pair.primaryUrl });
    await tpl.connect();
    await tpl.query('DROP DATABASE IF EXISTS cc_scale_tpl');
    await tpl.query('CREATE DATABASE cc_scale_tpl');
    await tpl.end();
    await migrate(pair.urlFor('primary', 'cc_scale_tpl'));
    log('migrated');
    for (const shape of SHAPES) {
      const url = shape === 'single' ? single!.url : shape === 'sentinel' ? sentinel!.url : cluster!.url;
      const d = await deploy(shape, url, pair, dropDir);
      cleanups.unshift(() => undeploy(d));
      log(`${shape}: 2 api processes and 3 workers up`);
      try {
        const record = (i: number, r: { figure: string; ok: boolean }) => {
          rows[i]!.figures[shape] = r.figure;
          rows[i]!.ok[shape] = r.ok;
          failed ||= !r.ok;
          log(`${shape}: ${rows[i]!.check}: ${r.ok ? 'ok' : 'FAIL'} ${r.figure}`);
        };
        const admin = await login(d.apis[0]!.base, 'admin@commandcenter.local');
        const alice = await login(d.apis[1]!.base, 'alice@acme.example');
        record(0, await checkIngest(d, admin));
        record(
          1,
          await checkFailover(d, async () => {
            const t0 = Date.now();
            if (shape === 'single') await single!.killAndRestart(1000);
            else if (shape === 'sentinel') await sentinel!.failedOver(await sentinel!.killPrimary());
            else await cluster!.healed(await cluster!.killPrimaryOf(`${queuePrefix(d.prefix, 'notify')}:notify:wait`));
            return Date.now() - t0;
          }),
        );
        record(2, await checkReplica(d, pair, admin, alice));
        record(3, await checkReplicaLists(d, pair, alice));
        record(4, await checkSchedulers(d));
        record(5, await checkRevocation(d));
        record(6, await checkRoleChange(d, admin));
      } catch (err) {
        failed = true;
        console.error(`${shape}: ${(err as Error).stack}`);
        for (const w of d.workers) console.error(`--- ${w.name}\n${w.out().slice(-3000)}`);
        for (const a of d.apis) console.error(`--- ${a.child.name}\n${a.child.out().slice(-3000)}`);
      } finally {
        cleanups.shift();
        await undeploy(d);
      }
    }
  } finally {
    await Promise.all([pair.stop(), sentinel?.stop(), cluster?.stop(), single?.stop()]);
    await rm(dropDir, { recursive: true, force: true });
  }
  console.log(`\nmake scale: ${SHAPES.join(', ')} Redis; PostgreSQL primary + streaming replica; 2 api processes, 3 workers; ${ROWS} lines per account, ${MAILS} e-mails (${((Date.now() - began) / 1000).toFixed(0)} s)\n`);
  printTable(rows);
  process.exit(failed ? 1 : 0);
}

await main();
