/**
 * The provisioning chain through its job, end to end on the local cloud: requests made and approved through the
 * api are created by the provisioning worker and end Active; a failing step marks Failed, the requester and the
 * alert list hear of each, and an admin's retry completes it.
 */
import t from 'tap';
import type { FastifyInstance } from 'fastify';
import { countLocalCloud } from '@cc/shared/db/local-cloud.ts';
import { listProvisionedProjects } from '@cc/shared/db/provisioning.ts';
import { buildHandlers } from '../../workers/src/handlers.ts';
import { startWorkers } from '../../workers/src/worker-host.ts';
import { localProvisioning } from '@cc/shared/adapters/provisioning/local.ts';
import { REDIS_URL } from '../db.ts';
import { build, login, bearer } from '../helper.ts';

const BASE = { bu: 'retail', product: 'webshop', owner_value: 'alice', template_name: 'Standard analytics project' };

async function startProvisioningWorker(t: Parameters<typeof build>[0], app: FastifyInstance & { env: { pool: import('@cc/shared/db/pool.ts').Pool } }) {
  const { pool } = app.env;
  const host = await startWorkers({
    redisUrl: REDIS_URL,
    prefix: app.config.QUEUE_PREFIX,
    queues: ['provisioning'],
    handlers: buildHandlers(['provisioning'], {
      pool,
      provisioning: { cloud: localProvisioning(pool, { operationDelayMs: 50 }), cpuRegion: 'europe-west1', pollIntervalMs: 20, maxPolls: 50 },
      enqueue: app.producers.enqueue,
      publicUrl: 'http://cc.test',
    }),
  });
  t.teardown(() => host.close());
}

/** The notify job of that id once it is queued (or undefined after 10 s). */
async function waitForJob(app: FastifyInstance, jobId: string) {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const job = await app.producers.queues.notify.getJob(jobId);
    if (job || Date.now() > deadline) return job;
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The customer's rows as [project_name, state, step_label] once none is Approved or Creating any more. */
async function settled(app: FastifyInstance, token: string, customer: string) {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const rows = (await app.inject({ method: 'GET', url: `/v1/projectprovisioning/${customer}/`, headers: bearer(token) })).json() as { project_name: string; state: string; step_label: string | null; error: string | null }[];
    if (!rows.some((r) => r.state === 'Approved' || r.state === 'Creating') || Date.now() > deadline) return rows.map((r) => [r.project_name, r.state, r.step_label, r.error]);
    await new Promise((r) => setTimeout(r, 100));
  }
}

t.test('approved requests are created by the worker on the local cloud and end Active', async (t) => {
  const app = await build(t);
  await startProvisioningWorker(t, app);
  const [alice, admin] = await Promise.all([login(app, 'alice@acme.example'), login(app, 'admin@commandcenter.local')]);
  const ids: string[] = [];
  for (const env of ['dev', 'prod']) {
    const res = await app.inject({ method: 'POST', url: '/v1/asset-inventory/project/create', headers: bearer(alice), payload: { customer_id: 'acme-corp', ...BASE, env } });
    ids.push(res.json().id);
  }
  const approved = await app.inject({ method: 'POST', url: '/v1/projectprovisioning/acme-corp/approve', headers: bearer(admin), payload: { ids } });
  t.equal(approved.json().approved.length, 2);

  t.same(await settled(app, alice, 'acme-corp'), [
    ['acme-retail-webshop-dev', 'Active', null, null],
    ['acme-retail-webshop-prod', 'Active', null, null],
  ]);
  const listed = (await app.inject({ method: 'GET', url: '/v1/projectprovisioning/acme-corp/', headers: bearer(alice) })).json() as { budget_note: string | null }[];
  t.same(listed.map((r) => r.budget_note), ['1000 EUR a month', '1000 EUR a month'], 'each request says how its budget was set (the local accounts are in EUR)');
  for (const [i, env] of ['dev', 'prod'].entries()) {
    const project = `acme-retail-webshop-${env}`;
    t.same(await countLocalCloud(app.env.pool, project), { projects: 1, budgets: 1, billing_links: 1, quotas: 2, owners: ['user:alice@acme.example'] }, project);
    // The job queues its e-mail right after it records Active: the row can be read a moment before the mail is queued.
    const mail = await waitForJob(app, `notify-provisioning-active-${ids[i]}`);
    t.match(mail?.data, { to: ['alice@acme.example'], subject: `Project ${project} successfully created`, text: /in folder analytics for Acme Corp/ });
  }
  t.same((await listProvisionedProjects(app.env.pool, 'acme-corp')).map((p) => p.project_id), ['acme-retail-webshop-dev', 'acme-retail-webshop-prod']);
  // The customer's service-access list (local cloud) shows them before any spend is billed on them.
  const access = await app.inject({ method: 'GET', url: '/v1/customers/acme-corp/service/access/', headers: bearer(alice) });
  t.same(access.json().projects, [
    { project_id: 'acme-retail-webshop-dev', project_name: 'acme-retail-webshop-dev' },
    { project_id: 'acme-retail-webshop-prod', project_name: 'acme-retail-webshop-prod' },
  ]);
});

t.test('a failing step marks the request Failed with its error and e-mails it; an admin retry completes it', async (t) => {
  const app = await build(t);
  const { pool } = app.env;
  // initech has no billing account yet: the chain fails at the billing link, after the project exists.
  await pool.query(
    `UPDATE customer SET business_units = '{ops}', products = '{portal}', env = '{prod}', owner_values = '{bob}', project_provisioning = $1 WHERE customer_id = 'initech'`,
    [JSON.stringify([{ template_name: 'Basic', folder_name: 'initech', folder_number: '555', project_template: { project_type: 'web', default_admin: 'bob@initech.example', budget: 50, owner_label: 'owner', project_name: 'initech-{bu}-{product}-{env}', quota: { bigquery_analysis: 0, compute_engine_cpus: 0 } } }])],
  );
  await pool.query(`INSERT INTO customer_member (customer_id, list, user_id) VALUES ('initech', 'alert', 'admin@commandcenter.local')`);
  // initech's portal currency is GBP and the local billing account's EUR: the budget is converted at the day's rate (the latest fixing on or before it).
  await pool.query(`INSERT INTO fx_rate (currency, rate_date, rate, source) VALUES ('GBP', current_date - 1, 0.85, 'ecb') ON CONFLICT DO NOTHING`);
  await startProvisioningWorker(t, app);
  const [bob, admin] = await Promise.all([login(app, 'bob@initech.example'), login(app, 'admin@commandcenter.local')]);
  const created = await app.inject({
    method: 'POST', url: '/v1/asset-inventory/project/create', headers: bearer(bob),
    payload: { customer_id: 'initech', bu: 'ops', product: 'portal', env: 'prod', owner_value: 'bob', template_name: 'Basic' },
  });
  const id = created.json().id as string;
  await app.inject({ method: 'POST', url: '/v1/projectprovisioning/initech/approve', headers: bearer(admin), payload: { ids: [id] } });

  t.same(await settled(app, bob, 'initech'), [['initech-ops-portal-prod', 'Failed', 'Linking billing account', 'Customer initech has no billing account']]);
  // Written with the Failed state and queued right after that COMMIT: wait for it like the Active one.
  const failedMail = await waitForJob(app, `notify-provisioning-failed-${id}-1`);
  t.match(failedMail?.data, {
    to: ['bob@initech.example', 'admin@commandcenter.local'],
    subject: 'Error creating Project initech-ops-portal-prod',
    text: /Step: Linking billing account\nError: Customer initech has no billing account/,
  });

  t.equal((await app.inject({ method: 'POST', url: '/v1/projectprovisioning/initech/retry', headers: bearer(bob), payload: { ids: [id] } })).statusCode, 403, 'customers do not retry');
  await pool.query(`UPDATE customer SET billing_account_ids = '{0A0B0C-0D0E0F-101112}' WHERE customer_id = 'initech'`);
  await app.access.publish(); // a write outside the api: the access epoch moves before the next request (NOTIFY may lag)
  const retried = await app.inject({ method: 'POST', url: '/v1/projectprovisioning/initech/retry', headers: bearer(admin), payload: { ids: [id] } });
  t.match(retried.json(), { retried: [{ id, state: 'Approved', current_step: 'link_billing', step_label: null, error: null }], refused: [] });
  t.same(await settled(app, bob, 'initech'), [['initech-ops-portal-prod', 'Active', null, null]], 'resumed at the billing link');
  t.same(await countLocalCloud(pool, 'initech-ops-portal-prod'), { projects: 1, budgets: 1, billing_links: 1, quotas: 0, owners: ['user:bob@initech.example'] }, 'still one project');
  t.ok(await waitForJob(app, `notify-provisioning-active-${id}`), 'the created mail after the retry');
});
