/**
 * Lost provisioning jobs (docs/decisions-provisioning.md, Lost jobs): an approval saved while Redis refused its
 * job stays Approved; the re-queue (worker start, maintenance job) adds the same deterministic job, never two, and
 * the worker then creates exactly one project.
 */
import t from 'tap';
import { countLocalCloud } from '@cc/shared/db/local-cloud.ts';
import { approveProjectRequests, findProjectRequest } from '@cc/shared/db/provisioning.ts';
import { createProducer } from '@cc/shared/producer.ts';
import { requeueStalledProvisioning } from '@cc/shared/provisioning/requeue.ts';
import { buildHandlers } from '../../workers/src/handlers.ts';
import { startWorkers } from '../../workers/src/worker-host.ts';
import { localProvisioning } from '@cc/shared/adapters/provisioning/local.ts';
import { REDIS_URL } from '../db.ts';
import { build, login, bearer, testEnv } from '../helper.ts';

const BODY = { customer_id: 'acme-corp', bu: 'retail', product: 'webshop', env: 'dev', owner_value: 'alice', template_name: 'Standard analytics project' };
/** The re-queue waits a minute before it takes an Approved request for lost: the test moves the clock of the row. */
const age = (pool: import('@cc/shared/db/pool.ts').Pool, id: string) =>
  pool.query(`UPDATE project_request SET updated_at = now() - interval '2 minutes' WHERE id::text = $1`, [id]);

async function waitFor<T>(what: () => Promise<T>, done: (v: T) => boolean): Promise<T> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const v = await what();
    if (done(v) || Date.now() > deadline) return v;
    await new Promise((r) => setTimeout(r, 100));
  }
}

t.test('an approval saved while Redis was down is re-queued once and ends Active with one project', async (t) => {
  const down = await build(t);
  const { pool, config } = down.env;
  const [alice, admin] = await Promise.all([login(down, 'alice@acme.example'), login(down, 'admin@commandcenter.local')]);
  const created = await down.inject({ method: 'POST', url: '/v1/asset-inventory/project/create', headers: bearer(alice), payload: BODY });
  const id = created.json().id as string;
  // Redis goes away: the approval and its job commit together as an outbox row; Redis gets no job.
  down.producers.redis.disconnect();
  const approved = await down.inject({ method: 'POST', url: '/v1/projectprovisioning/acme-corp/approve', headers: bearer(admin), payload: { ids: [id] } });
  t.equal(approved.statusCode, 200, 'accepted durably');
  t.equal((await findProjectRequest(pool, id))?.state, 'Approved', 'the approval stands');
  const { rows: owed } = await pool.query<{ job_id: string }>(`SELECT job_id FROM outbox WHERE queue = 'provisioning' AND published_at IS NULL`);
  t.same(owed, [{ job_id: `provision-${id}` }], 'its job is pending in the outbox (a worker’s reconciler would publish it)');

  const producer = createProducer(REDIS_URL, config.QUEUE_PREFIX, () => {});
  t.teardown(() => producer.close());
  t.same(await requeueStalledProvisioning(pool, producer.enqueue), [], 'not before a minute has passed');
  await age(pool, id);
  t.same(await requeueStalledProvisioning(pool, producer.enqueue), [id]);
  t.same(await requeueStalledProvisioning(pool, producer.enqueue), [id], 'a second sweep finds it again');
  t.same(await producer.queues.provisioning.getJobCounts('waiting', 'delayed', 'active'), { waiting: 1, delayed: 0, active: 0 }, 'but adds no second job');
  t.ok(await producer.queues.provisioning.getJob(`provision-${id}`), 'under the id the approval would have used');

  const host = await startWorkers({
    redisUrl: REDIS_URL,
    prefix: config.QUEUE_PREFIX,
    queues: ['provisioning', 'maintenance'],
    handlers: buildHandlers(['provisioning', 'maintenance'], {
      pool,
      provisioning: { cloud: localProvisioning(pool, { operationDelayMs: 50 }), cpuRegion: 'europe-west1', pollIntervalMs: 20, maxPolls: 50 },
      enqueue: producer.enqueue,
      errorLogRetentionDays: 30,
      publicUrl: 'http://cc.test',
    }),
  });
  t.teardown(() => host.close());
  const done = await waitFor(() => findProjectRequest(pool, id), (r) => r?.state === 'Active' || r?.state === 'Failed');
  t.equal(done?.state, 'Active');
  t.same(await countLocalCloud(pool, 'acme-retail-webshop-dev'), { projects: 1, budgets: 1, billing_links: 1, quotas: 2, owners: ['user:alice@acme.example'] });
  t.same(await requeueStalledProvisioning(pool, producer.enqueue), [], 'an Active request is never re-queued');
});

t.test('the maintenance job re-queues a retried request under its retry job id, and a stalled Creating one', async (t) => {
  const env = await testEnv(t);
  const { pool, config } = env;
  const producer = createProducer(REDIS_URL, config.QUEUE_PREFIX, () => {});
  t.teardown(() => producer.close());
  const insert = async (name: string, state: string, log: object[]) =>
    (
      await pool.query<{ id: string }>(
        `INSERT INTO project_request (customer_id, requester, bu, product, env, owner_value, template_name, folder_name, folder_number,
                                      project_type, project_template, project_name, state, step_log, updated_at)
         SELECT 'acme-corp', 'alice@acme.example', 'retail', 'webshop', 'dev', 'alice', 'T', 'analytics', '123', 'data', '{}', $1, $2, $3,
                now() - interval '2 hours'
         RETURNING id::text AS id`,
        [name, state, JSON.stringify(log)],
      )
    ).rows[0].id;
  const failedOnce = [{ step: 'link_billing', outcome: 'failed', detail: 'x', at: '2026-01-01T00:00:00Z' }];
  const retried = await insert('acme-retried-one', 'Approved', failedOnce);
  const creating = await insert('acme-creating-one', 'Creating', []);
  const pending = await insert('acme-pending-one', 'Pending approval', []);
  await insert('acme-done-one', 'Active', []);
  // A fresh approval (its job queued a moment ago by the api) is left alone.
  await approveProjectRequests(pool, 'acme-corp', [pending], 'admin@commandcenter.local');

  const handlers = buildHandlers(['maintenance'], { pool, enqueue: producer.enqueue, errorLogRetentionDays: 30 });
  const result = await handlers.maintenance({ data: {} } as never);
  t.match(result, { provisioningRequeued: 2 });
  t.ok(await producer.queues.provisioning.getJob(`provision-${retried}-retry-1`), 'the retry job id: failures so far');
  t.ok(await producer.queues.provisioning.getJob(`provision-${creating}`));
  t.notOk(await producer.queues.provisioning.getJob(`provision-${pending}`), 'approved a moment ago: not taken for lost');
});

t.test('the re-queue runs every ten minutes on the maintenance queue', async (t) => {
  const { SCHEDULES } = await import('@cc/shared/queues.ts');
  t.match(SCHEDULES.find((s) => s.id === 'maintenance-requeue'), { queue: 'maintenance', pattern: '*/10 * * * *' });
});
