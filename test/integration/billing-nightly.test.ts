import t from 'tap';
import { BigQuery } from '@google-cloud/bigquery';
import { OAuth2Client } from 'google-auth-library';
import { SCHEDULES, payloadError, type JobFor } from '@cc/shared/queues.ts';
import { chartCache } from '@cc/shared/billing/chart-cache.ts';
import { createLogger } from '@cc/shared/logger.ts';
import { buildHandlers } from '../../workers/src/handlers.ts';
import { startWorkers } from '../../workers/src/worker-host.ts';
import { nightlyWindow } from '../../workers/src/jobs/billing-nightly.ts';
import { ingestCommand } from '../../workers/src/billing-ingest/command.ts';
import type { BillingSourceDeps } from '../../workers/src/billing-ingest/open-source.ts';
import { bigQueryBillingExport } from '@cc/shared/adapters/bigquery/real.ts';
import { startFakeBigQuery } from '../fakes/bigquery-server.ts';
import { build, login, bearer } from '../helper.ts';
import { REDIS_URL } from '../db.ts';

const SETTINGS = { days: 3, closeDay: 5 };
// seeded: acme-corp lists two accounts, globex one
const ACME_1 = '01A2B3-C4D5E6-F7A8B9';
const ACME_2 = '01FFEE-DDCCBB-AA9988';
const GLOBEX = '02B3C4-D5E6F7-A8B9C0';

t.test('the window: recent days, and the whole previous month in the first days of a month', async (t) => {
  t.same(nightlyWindow('2026-11-15', SETTINGS), { from: '2026-11-12', to: '2026-11-14' }, 'mid-month: the last three days');
  t.same(nightlyWindow('2026-12-01', SETTINGS), { from: '2026-11-01', to: '2026-11-30' }, 'the 1st: all of last month');
  t.same(nightlyWindow('2026-12-05', SETTINGS), { from: '2026-11-01', to: '2026-12-04' }, 'up to the close day: last month and this one so far');
  t.same(nightlyWindow('2026-12-06', SETTINGS), { from: '2026-12-03', to: '2026-12-05' }, 'after the close day: recent days only');
  t.same(nightlyWindow('2027-01-02', SETTINGS), { from: '2026-12-01', to: '2027-01-01' }, 'across the year');
  t.same(nightlyWindow('2026-12-01', { days: 3, closeDay: 0 }), { from: '2026-11-28', to: '2026-11-30' }, 'close day 0: never the whole month');
  t.same(nightlyWindow('2026-03-02', { days: 45, closeDay: 5 }), { from: '2026-01-16', to: '2026-03-01' }, 'a longer recent window is kept');
});

t.test('scheduled like the other nightly jobs, and visible in bull-board', async (t) => {
  const s = SCHEDULES.find((x) => x.id === 'billing-ingest-nightly');
  t.match(s, { queue: 'billing-nightly', name: 'billing.nightly', pattern: '0 2 * * *', data: {} });
  t.equal(payloadError('billing-nightly', s!.data), null);
  t.match(payloadError('billing-nightly', { day: '2026-13-45x' }), /day/);

  const app = await build(t);
  const host = await startWorkers({
    redisUrl: REDIS_URL,
    prefix: app.env.config.QUEUE_PREFIX,
    queues: ['billing-nightly'],
    handlers: buildHandlers(['billing-nightly'], { pool: app.env.pool, billingSources: {}, enqueue: app.producers.enqueue, nightlyIngest: SETTINGS }),
    installSchedules: true,
  });
  t.teardown(() => host.close());
  const schedulers = await app.producers.queues['billing-nightly'].getJobSchedulers();
  t.match(schedulers, [{ key: 'billing-ingest-nightly', pattern: '0 2 * * *', tz: 'America/Los_Angeles' }]);
  const admin = await login(app, 'admin@commandcenter.local');
  const board = await app.inject({ url: '/ops/queues/api/queues', headers: bearer(admin) });
  t.equal(board.statusCode, 200);
  t.ok(board.json().queues.some((q: { name: string }) => q.name === 'billing-nightly'), 'bull-board lists the queue');
});

async function nightly(t: { teardown(fn: () => unknown): void }, billingSources: BillingSourceDeps) {
  const app = await build(t);
  const handler = buildHandlers(['billing-nightly'], { pool: app.env.pool, billingSources, enqueue: app.producers.enqueue, nightlyIngest: SETTINGS })['billing-nightly'];
  // The handler reads only the payload; no worker takes billing-ingest here, so queued ingests stay waiting.
  const run = (day: string) => handler({ data: { day } } as JobFor<'billing-nightly'>) as Promise<{ queued: string[]; skipped: { billing_account_id: string; reason: string }[] }>;
  const waiting = async () =>
    (await app.producers.queues['billing-ingest'].getJobs(['waiting']))
      .map((j) => ({ id: j.id, data: j.data }))
      .sort((a, b) => String(a.id).localeCompare(String(b.id)));
  return { app, run, waiting };
}

t.test('BigQuery configured: every exported account, recent days mid-month, last month on the 1st; no doubles on a rerun', async (t) => {
  const fake = await startFakeBigQuery({
    project: 'billing-proj',
    location: 'EU',
    fields: [],
    rows: [],
    pageSize: 1,
    tables: { billing_export: [`gcp_billing_export_v1_${ACME_1.replace(/-/g, '_')}`, `gcp_billing_export_v1_${GLOBEX.replace(/-/g, '_')}`, 'unrelated_table'] },
  });
  t.teardown(() => fake.close());
  const authClient = new OAuth2Client();
  authClient.setCredentials({ access_token: 'fake-token', expiry_date: Date.now() + 3_600_000 });
  const client = new BigQuery({ projectId: 'billing-proj', apiEndpoint: fake.url, authClient });
  const { run, waiting } = await nightly(t, { bigquery: bigQueryBillingExport({ client, dataset: 'billing-proj.billing_export', location: 'EU' }) });

  const mid = await run('2026-11-15');
  t.same(mid.skipped, [{ customer_id: 'acme-corp', billing_account_id: ACME_2, reason: 'no export table in billing-proj.billing_export' }], 'an account without an export table is skipped');
  t.same(await waiting(), [
    { id: `nightly-2026-11-15-ingest-${ACME_1}-bigquery-2026-11-12-2026-11-14`, data: { customer_id: 'acme-corp', billing_account_id: ACME_1, source: 'bigquery', from: '2026-11-12', to: '2026-11-14' } },
    { id: `nightly-2026-11-15-ingest-${GLOBEX}-bigquery-2026-11-12-2026-11-14`, data: { customer_id: 'globex', billing_account_id: GLOBEX, source: 'bigquery', from: '2026-11-12', to: '2026-11-14' } },
  ]);
  await run('2026-11-15');
  t.equal((await waiting()).length, 2, 'a rerun the same night queues nothing new');

  const first = await run('2026-12-01');
  t.equal(first.queued.length, 2);
  const december = (await waiting()).filter((j) => String(j.id).startsWith('nightly-2026-12-01-'));
  t.same(december.map((j) => [j.data.billing_account_id, j.data.from, j.data.to]), [
    [ACME_1, '2026-11-01', '2026-11-30'],
    [GLOBEX, '2026-11-01', '2026-11-30'],
  ], 'on the 1st: the whole previous month');
  t.same(fake.unexpected, []);
});

t.test('local sources: the generated demo accounts get the days they miss up to yesterday, the others are skipped', async (t) => {
  const { app, run, waiting } = await nightly(t, {});
  const pool = app.env.pool;
  // acme's first account holds generated spend up to the 10th, globex's up to the 14th; acme's second holds none
  await ingestCommand(pool, { customer_id: 'acme-corp', billing_account_id: ACME_1, source: 'gcp-generated', from: '2026-11-01', to: '2026-11-10' }, { sources: {} });
  await ingestCommand(pool, { customer_id: 'globex', billing_account_id: GLOBEX, source: 'gcp-generated', from: '2026-11-12', to: '2026-11-14' }, { sources: {} });

  const result = await run('2026-11-15');
  t.same(await waiting(), [
    { id: `nightly-2026-11-15-ingest-${ACME_1}-gcp-generated-2026-11-11-2026-11-14`, data: { customer_id: 'acme-corp', billing_account_id: ACME_1, source: 'gcp-generated', from: '2026-11-11', to: '2026-11-14' } },
  ]);
  t.same(
    result.skipped.map((s) => [s.billing_account_id, s.reason]),
    [
      [GLOBEX, 'current'],
      [ACME_2, 'no configured source (BigQuery is off; not a generated demo account)'],
    ],
  );
  await run('2026-11-15');
  t.equal((await waiting()).length, 1, 'a rerun the same night queues nothing new');
  // an admin's ingest of the same window is its own job, not swallowed by the nightly one
  const own = await app.producers.enqueue('billing-ingest', 'billing.ingest', { customer_id: 'acme-corp', billing_account_id: ACME_1, source: 'gcp-generated', from: '2026-11-11', to: '2026-11-14' });
  t.equal(own, `ingest-${ACME_1}-gcp-generated-2026-11-11-2026-11-14`);
  t.equal((await waiting()).length, 2);
});

t.test('through the queue: the nightly job queues ingests a worker then runs', async (t) => {
  const { app } = await nightly(t, {});
  const pool = app.env.pool;
  await ingestCommand(pool, { customer_id: 'globex', billing_account_id: GLOBEX, source: 'gcp-generated', from: '2026-11-10', to: '2026-11-12' }, { sources: {} });
  const host = await startWorkers({
    redisUrl: REDIS_URL,
    prefix: app.env.config.QUEUE_PREFIX,
    queues: ['billing-nightly', 'billing-ingest'],
    handlers: buildHandlers(['billing-nightly', 'billing-ingest'], {
      pool,
      billingSources: {},
      enqueue: app.producers.enqueue,
      nightlyIngest: SETTINGS,
      chartCache: chartCache(app.producers.redis, app.env.config.QUEUE_PREFIX, createLogger('silent')),
    }),
  });
  t.teardown(() => host.close());
  await app.producers.enqueue('billing-nightly', 'billing.nightly', { day: '2026-11-15' });
  const end = Date.now() + 30_000;
  let last = '';
  while (Date.now() < end) {
    last = (await pool.query(`SELECT max(usage_date)::text AS d FROM cost_daily WHERE billing_account_id = $1`, [GLOBEX])).rows[0].d;
    if (last === '2026-11-14') break;
    await new Promise((r) => setTimeout(r, 200));
  }
  t.equal(last, '2026-11-14', 'the demo account now reaches the day before the night');
  // the rows are committed before the job ends (its follow-ups come after): wait for the job itself
  const id = `nightly-2026-11-15-ingest-${GLOBEX}-gcp-generated-2026-11-13-2026-11-14`;
  let state = '';
  while (Date.now() < end && state !== 'completed') {
    state = String(await (await app.producers.queues['billing-ingest'].getJob(id))?.getState());
    if (state !== 'completed') await new Promise((r) => setTimeout(r, 200));
  }
  t.equal(state, 'completed', 'the completed job is kept, so the same night cannot queue it again');
  await app.producers.enqueue('billing-nightly', 'billing.nightly', { day: '2026-11-15' });
  await new Promise((r) => setTimeout(r, 1000));
  t.equal(await (await app.producers.queues['billing-ingest'].getJob(id))?.getState(), 'completed', 'a rerun the same night runs no second ingest');
  t.equal((await pool.query(`SELECT count(*)::int AS n FROM ingest_batch WHERE billing_account_id = $1`, [GLOBEX])).rows[0].n, 2, 'one nightly ingest ran');
});
