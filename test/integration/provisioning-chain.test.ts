/**
 * The resumable provisioning chain: a worker killed after any step's cloud call (before it is recorded) resumes
 * and ends Active with exactly one project, one budget and one billing link — on the local cloud and on the fake
 * of Google's APIs; a failing step marks the request Failed and a retry completes it.
 */
import t, { type Test } from 'tap';
import { OAuth2Client } from 'google-auth-library';
import type { Pool } from '@cc/shared/db/pool.ts';
import { findCustomer } from '@cc/shared/db/customers.ts';
import { countLocalCloud } from '@cc/shared/db/local-cloud.ts';
import { approveProjectRequests, createProjectRequest, findProjectRequest, listProvisionedProjects, retryProjectRequests } from '@cc/shared/db/provisioning.ts';
import { ProvisioningError, type CloudProvisioning } from '@cc/shared/ports/cloud-provisioning.ts';
import { PROVISIONING_STEPS, checkNewProject, type ProjectTemplate, type ProvisioningStep } from '@cc/shared/provisioning/rules.ts';
import { googleProvisioning, type GoogleClientOptions } from '@cc/shared/adapters/provisioning/real.ts';
import { localProvisioning } from '@cc/shared/adapters/provisioning/local.ts';
import { runProvisioning, type ProvisioningDeps } from '../../workers/src/provisioning/run-chain.ts';
import { startFakeGcpProvisioning } from '../fakes/gcp-provisioning-server.ts';
import { testEnv } from '../helper.ts';

const REQUEST = { bu: 'retail', product: 'webshop', env: 'prod', owner_value: 'alice', template_name: 'Standard analytics project' };
const PROJECT_ID = 'acme-retail-webshop-prod';

async function approvedRequest(pool: Pool): Promise<string> {
  const c = (await findCustomer(pool, 'acme-corp'))!;
  const checked = checkNewProject(REQUEST, { ...c, project_provisioning: c.project_provisioning as ProjectTemplate[] });
  const row = await createProjectRequest(pool, { customerId: 'acme-corp', requester: 'alice@acme.example', checked });
  await approveProjectRequests(pool, 'acme-corp', [row.id], 'admin@commandcenter.local');
  return row.id;
}

class Killed extends Error {}

/** Runs the chain, killing the worker right after `crashAt`'s cloud call; then runs it again to the end. */
async function crashThenResume(t: Test, deps: ProvisioningDeps, id: string, crashAt: ProvisioningStep) {
  let killed = false;
  const crashing: ProvisioningDeps = {
    ...deps,
    afterCloudCall: (step) => {
      if (step === crashAt && !killed) {
        killed = true;
        throw new Killed(`killed after ${step}`);
      }
    },
  };
  await t.rejects(runProvisioning(crashing, id), { message: `killed after ${crashAt}` }, "the worker dies");
  t.match(await findProjectRequest(deps.pool, id), { state: 'Creating', current_step: crashAt }, 'the step was not recorded');
  t.same(await runProvisioning(deps, id), { state: 'Active', step: null, error: null }, `resumed after a crash in ${crashAt}`);
}

t.test('local cloud: killed at every step, resumes to Active with one project, one budget, one billing link', async (t) => {
  for (const crashAt of PROVISIONING_STEPS) {
    await t.test(crashAt, async (t) => {
      const { pool } = await testEnv(t);
      const deps: ProvisioningDeps = { pool, cloud: localProvisioning(pool, { operationDelayMs: 20 }), cpuRegion: 'europe-west1', pollIntervalMs: 10, maxPolls: 20 };
      const id = await approvedRequest(pool);
      await crashThenResume(t, deps, id, crashAt);
      t.same(await countLocalCloud(pool, PROJECT_ID), { projects: 1, budgets: 1, billing_links: 1, quotas: 2, owners: ['user:alice@acme.example'] });
      const { rows } = await pool.query(`SELECT labels, billing_account_name FROM local_cloud_project WHERE project_id = $1`, [PROJECT_ID]);
      t.same(rows, [{ labels: { 'cost-owner': 'alice', 'commandcenter-request': id }, billing_account_name: 'billingAccounts/01A2B3-C4D5E6-F7A8B9' }]);
      t.same(await listProvisionedProjects(pool, 'acme-corp'), [{ project_id: PROJECT_ID, project_name: PROJECT_ID, since: (await findProjectRequest(pool, id))!.completed_at }]);
    });
  }
});

t.test("Google's APIs (fake): killed at every step, resumes to Active with one project, one budget, one billing link", async (t) => {
  for (const crashAt of PROVISIONING_STEPS) {
    await t.test(crashAt, async (t) => {
      const fake = await startFakeGcpProvisioning({ opPolls: 2 });
      t.teardown(() => fake.close());
      const { pool } = await testEnv(t);
      const authClient = new OAuth2Client();
      authClient.setCredentials({ access_token: 'fake-token', expiry_date: Date.now() + 3_600_000 });
      const cloud = googleProvisioning({
        clientOptions: { protocol: 'http', apiEndpoint: '127.0.0.1', port: fake.port, authClient: authClient as unknown as GoogleClientOptions['authClient'] },
        pollIntervalMs: 5,
      });
      const id = await approvedRequest(pool);
      await crashThenResume(t, { pool, cloud, cpuRegion: 'europe-west1', pollIntervalMs: 5, maxPolls: 5 }, id, crashAt);
      const p = fake.projects.get(PROJECT_ID)!;
      t.equal(fake.projects.size, 1, 'one project');
      t.equal(fake.budgets.get('billingAccounts/01A2B3-C4D5E6-F7A8B9')!.length, 1, 'one budget');
      t.equal(p.billingAccountName, 'billingAccounts/01A2B3-C4D5E6-F7A8B9', 'billing linked');
      t.equal(fake.overrides.size, 1, 'one BigQuery override');
      t.equal(fake.preferences.size, 1, 'one CPU preference');
      t.same(p.bindings.find((b) => b.role === 'roles/owner')!.members.filter((m) => m === 'user:alice@acme.example'), ['user:alice@acme.example']);
      t.same(fake.unexpected, []);
    });
  }
});

t.test('a failing step marks the request Failed with its error; a retry resumes there and completes it', async (t) => {
  const { pool } = await testEnv(t);
  const local = localProvisioning(pool, { operationDelayMs: 0 });
  let budgetFails = true;
  // The local cloud with a budget call that is refused once: the chain must stop there, then resume there.
  const cloud: CloudProvisioning = {
    ...local,
    ensureBudget: async (b) => {
      if (budgetFails) throw new ProvisioningError('budgets.create failed: 403 PERMISSION_DENIED: billing.budgets.create denied', false);
      return local.ensureBudget(b);
    },
  };
  const deps: ProvisioningDeps = { pool, cloud, cpuRegion: 'europe-west1', pollIntervalMs: 5, maxPolls: 5 };
  const id = await approvedRequest(pool);
  const failed = { state: 'Failed', step: 'budget', error: 'budgets.create failed: 403 PERMISSION_DENIED: billing.budgets.create denied' };
  t.same(await runProvisioning(deps, id), failed);
  t.match(await findProjectRequest(pool, id), { state: 'Failed', failed_step: 'budget', current_step: 'budget', error: failed.error });
  t.same(await runProvisioning(deps, id), failed, 'a Failed request is not run until retried');

  budgetFails = false;
  const retried = await retryProjectRequests(pool, 'acme-corp', [id], 'admin@commandcenter.local');
  t.match(retried, { changed: [{ id, state: 'Approved', current_step: 'budget', error: null, failed_step: null }], refused: [] });
  t.same(await runProvisioning(deps, id), { state: 'Active', step: null, error: null });
  const r = (await findProjectRequest(pool, id))!;
  t.same(
    r.step_log.map((e) => `${e.step}:${e.outcome}`),
    ['create_project:done', 'await_project:done', 'link_billing:done', 'labels:done', 'budget:failed', 'budget:done', 'quota_bigquery:done', 'quota_compute:done', 'default_admin:done'],
  );
  t.same(await countLocalCloud(pool, PROJECT_ID), { projects: 1, budgets: 1, billing_links: 1, quotas: 2, owners: ['user:alice@acme.example'] });
  t.match(await retryProjectRequests(pool, 'acme-corp', [id], 'admin@commandcenter.local'), { changed: [], refused: [{ id, state: 'Active' }] });
});

t.test('a creation operation still running ends the attempt as transient; the next attempt polls again', async (t) => {
  const { pool } = await testEnv(t);
  const deps: ProvisioningDeps = { pool, cloud: localProvisioning(pool, { operationDelayMs: 400 }), cpuRegion: 'europe-west1', pollIntervalMs: 5, maxPolls: 2 };
  const id = await approvedRequest(pool);
  await t.rejects(runProvisioning(deps, id), { message: 'projects.create: the operation is still running', transient: true });
  t.match(await findProjectRequest(pool, id), { state: 'Creating', current_step: 'await_project' });
  await new Promise((r) => setTimeout(r, 450));
  t.same(await runProvisioning(deps, id), { state: 'Active', step: null, error: null });
  t.equal((await countLocalCloud(pool, PROJECT_ID)).projects, 1);
});

t.test('on the final attempt a transient failure marks the request Failed too', async (t) => {
  const { pool } = await testEnv(t);
  const deps: ProvisioningDeps = { pool, cloud: localProvisioning(pool, { operationDelayMs: 60_000 }), cpuRegion: 'europe-west1', pollIntervalMs: 5, maxPolls: 2, finalAttempt: true };
  const id = await approvedRequest(pool);
  t.same(await runProvisioning(deps, id), { state: 'Failed', step: 'await_project', error: 'projects.create: the operation is still running' });
});
