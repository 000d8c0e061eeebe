import t from 'tap';
import { publishPending } from '../../workers/src/reliability/reconciler.ts';
import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { Queue } from 'bullmq';
import { addDays, billingToday } from '@cc/shared/time.ts';
import { gcpGeneratedSource } from '@cc/shared/adapters/bigquery/local.ts';
import { runIngest } from '../../workers/src/billing-ingest/ingest.ts';
import { billingIngestHandler } from '../../workers/src/jobs/billing-ingest.ts';
import { createProducer } from '@cc/shared/producer.ts';
import { chartCache } from '@cc/shared/billing/chart-cache.ts';
import { createLogger } from '@cc/shared/logger.ts';
import { startWorkers } from '../../workers/src/worker-host.ts';
import { build, login, bearer } from '../helper.ts';
import { REDIS_URL } from '../db.ts';
import { jobOutcomes } from '../job-outcomes.ts';

const FOCUS_SAMPLE = new URL('../../infra/data/focus-1.0/focus_sample.csv', import.meta.url).pathname;
const ACME = { customerId: 'acme-corp', billingAccountId: '01A2B3-C4D5E6-F7A8B9', currency: 'EUR' };
const ACME_SECOND = '01FFEE-DDCCBB-AA9988';
const GLOBEX = { customerId: 'globex', billingAccountId: '02B3C4-D5E6F7-A8B9C0' };

t.test('chart answers are cached per account and settings, and an ingest of the account invalidates them', async (t) => {
  const dropDir = await mkdtemp(join(tmpdir(), 'cc-drop-'));
  t.teardown(() => rm(dropDir, { recursive: true, force: true }));
  const app = await build(t, { config: { INGEST_DROP_DIR: dropDir } });
  const { pool, config } = app.env;
  const today = billingToday();
  const window = { from: addDays(today, -10), to: addDays(today, -1) };
  await runIngest({ pool, ...ACME, sourceKind: 'gcp-generated', source: gcpGeneratedSource({ ...ACME, ...window }) });

  const producer = createProducer(REDIS_URL, config.QUEUE_PREFIX, () => undefined);
  t.teardown(() => producer.close());
  const cache = chartCache(producer.redis, config.QUEUE_PREFIX, createLogger('silent'));
  const host = await startWorkers({
    redisUrl: REDIS_URL,
    prefix: config.QUEUE_PREFIX,
    queues: ['billing-ingest'],
    handlers: { 'billing-ingest': billingIngestHandler({ pool, billingSources: {}, chartCache: cache, enqueue: producer.enqueue }) },
  });
  t.teardown(() => host.close());
  const finished = await jobOutcomes(t, 'billing-ingest', { redisUrl: REDIS_URL, prefix: config.QUEUE_PREFIX });
  const queue = new Queue('billing-ingest', { connection: { url: REDIS_URL }, prefix: config.QUEUE_PREFIX });
  t.teardown(() => queue.close());

  const alice = bearer(await login(app, 'alice@acme.example'));
  const admin = bearer(await login(app, 'admin@commandcenter.local'));
  const chart = (query: Record<string, string> = {}) =>
    app.inject({
      method: 'POST',
      url: '/v2/billing/aggregated/by_service/chart/acme-corp',
      query: { billing_account_id: ACME.billingAccountId, provider: 'gcp', period: '7days', ...query },
      payload: { services: [] },
      headers: alice,
    });

  const first = await chart();
  t.equal(first.headers['x-cache'], 'miss');
  const second = await chart();
  t.equal(second.headers['x-cache'], 'hit');
  t.same(second.json(), first.json(), 'the cached answer is the computed one');
  t.equal((await chart({ top: '5' })).headers['x-cache'], 'miss', 'other settings, other entry');
  t.equal(second.body, first.body, 'a hit sends the very JSON text that was computed');
  t.match(second.headers['content-type'], /^application\/json/);

  // The settings drawer's choices scan the whole history: cached the same way, per caller's view.
  const victor = bearer(await login(app, 'victor@acme.example'));
  const settings = (headers = alice) =>
    app.inject({ method: 'GET', url: '/v2/billing/settings/acme-corp', query: { billing_account_id: ACME.billingAccountId }, headers });
  const s1 = await settings();
  t.equal(s1.statusCode, 200);
  t.equal(s1.headers['x-cache'], 'miss');
  const s2 = await settings();
  t.equal(s2.headers['x-cache'], 'hit');
  t.equal(s2.body, s1.body);
  t.ok(s1.json().services.length > 0 && Object.keys(s1.json().resource_labels).length > 0, 'a customer sees services and resource labels');
  const v1 = await settings(victor);
  t.equal(v1.headers['x-cache'], 'miss', "a viewer never gets the customer's cached choices");
  t.same(v1.json().services, []);
  t.same(v1.json().resource_labels, {});
  t.same(v1.json().project_labels.team, ['analytics']);

  // The admin route enqueues the same job the CLI runs; the worker replaces the slices and bumps the version.
  const wait = async (jobId: string) => {
    return finished(jobId);
  };
  const enq = await app.inject({
    method: 'POST',
    url: '/v2/billing/ingest',
    headers: admin,
    payload: { customer_id: 'acme-corp', billing_account_id: ACME.billingAccountId, source: 'gcp-generated', from: addDays(today, -3), to: addDays(today, -1) },
  });
  t.equal(enq.statusCode, 202, enq.body);
  await wait(enq.json().job_id);
  const after = await chart();
  t.equal(after.headers['x-cache'], 'miss', 'ingest of the account invalidated the cache');
  t.equal((await settings()).headers['x-cache'], 'miss', 'and the cached settings');
  t.same(after.json().summary, first.json().summary, 'same deterministic data, same totals: nothing double counted');
  t.equal((await chart()).headers['x-cache'], 'hit');

  // An ingest of another account leaves this account's entries alone.
  const globexFile = join(dropDir, 'focus.csv');
  await copyFile(FOCUS_SAMPLE, globexFile);
  const g = await app.inject({
    method: 'POST',
    url: '/v2/billing/ingest',
    headers: admin,
    payload: { customer_id: GLOBEX.customerId, billing_account_id: GLOBEX.billingAccountId, source: 'focus-file', file: 'focus.csv' },
  });
  t.equal(g.statusCode, 202, g.body);
  await wait(g.json().job_id);
  t.equal((await chart()).headers['x-cache'], 'hit', 'another account does not invalidate');

  // The CLI backfill runs the same ingest in its own process and drops the account's cached charts too.
  const cli = await promisify(execFile)(
    'npx',
    ['tsx', 'workers/src/billing-ingest/cli.ts', 'ingest', '--customer', 'acme-corp', '--billing-account', ACME.billingAccountId, '--generate', '--from', addDays(today, -2), '--to', addDays(today, -1)],
    { env: { ...process.env, DATABASE_URL: config.DATABASE_URL, REDIS_URL, QUEUE_PREFIX: config.QUEUE_PREFIX } },
  );
  t.match(cli.stdout, /loaded \d+ rows into 2 days/);
  t.equal((await chart()).headers['x-cache'], 'miss', 'the CLI ingest invalidated the cache');

  // Follow-ups of each successful ingest are in the outbox, written by its commit; one reconciler pass queues them,
  // one per customer and account however many ingests (their workers are not running here).
  t.ok((await publishPending({ pool: app.env.pool, producer: app.producers })) >= 3, 'outbox rows published');
  for (const name of ['anomaly-detect', 'alert-evaluate'] as const) {
    const q = new Queue(name, { connection: { url: REDIS_URL }, prefix: config.QUEUE_PREFIX });
    const jobs = await q.getJobs(['waiting', 'prioritized', 'delayed']);
    const data = jobs.map((j) => j.data).sort((a, b) => (a.customer_id < b.customer_id ? -1 : 1));
    if (name === 'anomaly-detect') t.same(data, [{ customer_id: 'acme-corp' }, { customer_id: 'globex' }], name);
    else t.same(data, [{ customer_id: 'acme-corp', billing_account_id: ACME.billingAccountId }, { customer_id: 'globex', billing_account_id: GLOBEX.billingAccountId }], name);
    await q.close();
  }

  t.test('admin ingest route: permissions, tenancy and the drop directory', async (t) => {
    const post = (payload: object, headers = admin) => app.inject({ method: 'POST', url: '/v2/billing/ingest', headers, payload });
    const base = { customer_id: GLOBEX.customerId, billing_account_id: GLOBEX.billingAccountId, source: 'focus-file' };
    for (const file of ['../etc/passwd', '/etc/passwd', `${dropDir}/../x.csv`, '..']) {
      const res = await post({ ...base, file });
      t.equal(res.statusCode, 400, file);
      t.match(res.json().detail, /inside the ingest drop directory/);
    }
    t.equal((await post({ ...base, file: 'missing.csv' })).statusCode, 400);
    t.match((await post({ ...base })).json().detail, /file: This field is required/);
    const foreign = await post({ ...base, billing_account_id: ACME.billingAccountId, file: 'focus.csv' });
    t.equal(foreign.statusCode, 404, "another customer's billing account");
    t.equal((await post({ ...base, customer_id: 'acme-corp', billing_account_id: ACME_SECOND, source: 'gcp-generated', from: '2025-02-01', to: '2025-01-01' })).statusCode, 400);
    t.equal((await post({ ...base, file: 'focus.csv' }, alice)).statusCode, 403, 'admin only');
    t.equal((await post({ ...base, customer_id: 'nobody-here', file: 'focus.csv' })).statusCode, 404);
  });
});
