/**
 * The real provisioning adapter (official Google clients over REST) against an in-process fake of Resource
 * Manager, Cloud Billing, Budgets, Service Usage and Cloud Quotas, driven by the step runner end to end.
 */
import t, { type Test } from 'tap';
import { OAuth2Client } from 'google-auth-library';
import { findCustomer } from '@cc/shared/db/customers.ts';
import { approveProjectRequests, createProjectRequest, findProjectRequest } from '@cc/shared/db/provisioning.ts';
import { REQUEST_LABEL, checkNewProject, type ProjectTemplate } from '@cc/shared/provisioning/rules.ts';
import type { Pool } from '@cc/shared/db/pool.ts';
import { googleProvisioning, type GoogleClientOptions } from '@cc/shared/adapters/provisioning/real.ts';
import { runProvisioning, type ProvisioningDeps } from '../../workers/src/provisioning/run-chain.ts';
import { startFakeGcpProvisioning, type FakeGcpProvisioning } from '../fakes/gcp-provisioning-server.ts';
import { saveRates } from '@cc/shared/db/fx-rates.ts';
import { takeViolations } from '../fakes/spec-violations.ts';
import { testEnv } from '../helper.ts';

const REQUEST = { bu: 'retail', product: 'webshop', env: 'prod', owner_value: 'finance-team', template_name: 'Standard analytics project' };

async function setup(t: Test) {
  const fake = await startFakeGcpProvisioning({ opPolls: 2 });
  t.teardown(() => fake.close());
  const { pool } = await testEnv(t);
  const authClient = new OAuth2Client();
  authClient.setCredentials({ access_token: 'fake-token', expiry_date: Date.now() + 3_600_000 });
  const cloud = googleProvisioning({ clientOptions: { protocol: 'http', apiEndpoint: '127.0.0.1', port: fake.port, authClient: authClient as unknown as GoogleClientOptions['authClient'] }, pollIntervalMs: 5, maxPolls: 5 });
  const deps: ProvisioningDeps = { pool, cloud, cpuRegion: 'europe-west1', pollIntervalMs: 5, maxPolls: 5 };
  return { fake, pool, deps };
}

async function approvedRequest(pool: Pool, input = REQUEST): Promise<string> {
  const c = (await findCustomer(pool, 'acme-corp'))!;
  const checked = checkNewProject(input, { ...c, project_provisioning: c.project_provisioning as ProjectTemplate[] });
  const row = await createProjectRequest(pool, { customerId: 'acme-corp', requester: 'alice@acme.example', checked });
  await approveProjectRequests(pool, 'acme-corp', [row.id], 'admin@commandcenter.local');
  return row.id;
}

function assertProvisioned(t: Test, fake: FakeGcpProvisioning, id: string) {
  const p = fake.projects.get('acme-retail-webshop-prod')!;
  t.equal(fake.projects.size, 1, 'exactly one project');
  t.equal(p.parent, 'folders/123456789012', "in the template's folder");
  t.same(p.labels, { 'cost-owner': 'finance-team', [REQUEST_LABEL]: id });
  t.equal(p.billingAccountName, 'billingAccounts/01A2B3-C4D5E6-F7A8B9', "the customer's default billing account");
  t.same(p.bindings.find((b) => b.role === 'roles/owner')!.members, [
    'serviceAccount:provisioner@cc-admin.iam.gserviceaccount.com',
    'user:alice@acme.example',
  ]);
  const budgets = fake.budgets.get('billingAccounts/01A2B3-C4D5E6-F7A8B9')!;
  t.equal(budgets.length, 1, 'exactly one budget');
  t.match(budgets[0], {
    displayName: 'acme-retail-webshop-prod monthly budget',
    budgetFilter: { projects: [`projects/${p.number}`], calendarPeriod: 1, creditTypesTreatment: 1 },
    amount: { specifiedAmount: { currencyCode: 'EUR', units: '1000', nanos: 0 } },
  });
  const overrides = [...fake.overrides.entries()];
  t.same(
    overrides.map(([limit, list]) => [limit, list.map((o) => o.overrideValue)]),
    [['projects/acme-retail-webshop-prod/services/bigquery.googleapis.com/consumerQuotaMetrics/bigquery.googleapis.com%2Fquota%2Fquery%2Fusage/limits/%2Fd%2Fproject', ['10485760']]],
    'BigQuery query usage per day capped at 10 TiB (in MiB)',
  );
  const pref = fake.preferences.get('projects/acme-retail-webshop-prod/locations/global/quotaPreferences/compute_googleapis_com-CPUS-per-project_europe-west1')!;
  t.match(pref, { service: 'compute.googleapis.com', quotaId: 'CPUS-per-project-region', dimensions: { region: 'europe-west1' }, quotaConfig: { preferredValue: '24' }, contactEmail: 'alice@acme.example' });
  t.same(fake.unexpected, [], 'no request the fake does not know');
}

t.test('the chain against the fakes, end to end', async (t) => {
  const { fake, pool, deps } = await setup(t);
  const id = await approvedRequest(pool);
  t.same(await runProvisioning(deps, id), { state: 'Active', step: null, error: null });
  assertProvisioned(t, fake, id);
  const r = (await findProjectRequest(pool, id))!;
  t.same(
    r.step_log.map((e) => [e.step, e.outcome]),
    [
      ['create_project', 'done'], ['await_project', 'done'], ['link_billing', 'done'], ['labels', 'done'], ['budget', 'done'],
      ['quota_bigquery', 'done'], ['quota_compute', 'done'], ['default_admin', 'done'],
    ],
  );
  t.equal(r.step_log[6].detail, '24 CPUs in europe-west1: granted');
  t.equal(r.project_number, fake.projects.get('acme-retail-webshop-prod')!.number);
  t.same(
    fake.calls.filter((c) => c.startsWith('GET /v3/operations/')).length,
    2,
    'the creation operation polled until done (2 looks)',
  );

  // Run again: nothing left to do, nothing called.
  const before = fake.calls.length;
  t.same(await runProvisioning(deps, id), { state: 'Active', step: null, error: null });
  t.equal(fake.calls.length, before);
});

t.test('409 ALREADY_EXISTS after a lost answer is the step succeeding: our label is on the project', async (t) => {
  const { fake, pool, deps } = await setup(t);
  const id = await approvedRequest(pool);
  fake.fail('POST', /^\/v3\/projects$/, 'lose');
  await t.rejects(runProvisioning(deps, id), { name: 'ProvisioningError', transient: true }, 'the lost answer is a transient failure');
  let r = (await findProjectRequest(pool, id))!;
  t.match(r, { state: 'Creating', current_step: 'create_project' });
  t.match(r.step_log, [{ step: 'create_project', outcome: 'retrying' }]);

  t.same(await runProvisioning(deps, id), { state: 'Active', step: null, error: null }, 'the retry finds its own project');
  t.equal(fake.calls.filter((c) => c === 'POST /v3/projects').length, 2, 'the create was sent twice');
  assertProvisioned(t, fake, id);
  r = (await findProjectRequest(pool, id))!;
  t.match(r.step_log[1], { step: 'create_project', outcome: 'done', detail: /already created for this request/ });
});

t.test("an id taken by someone else's project is not ours: the step fails with a clear error", async (t) => {
  const { fake, pool, deps } = await setup(t);
  const id = await approvedRequest(pool);
  fake.addForeignProject('acme-retail-webshop-prod');
  t.same(await runProvisioning({ ...deps, finalAttempt: true }, id), {
    state: 'Failed',
    step: 'create_project',
    error: "Project id 'acme-retail-webshop-prod' already exists and is not visible to CommandCenter: it is taken by another project",
  });
});

t.test('a failing step is reported with its error; transient errors are retried, permanent ones fail', async (t) => {
  const { fake, pool, deps } = await setup(t);
  const id = await approvedRequest(pool);
  fake.fail('PUT', /billingInfo$/, { http: 429, status: 'RESOURCE_EXHAUSTED', message: 'Quota exceeded for quota metric Write requests' });
  await t.rejects(runProvisioning(deps, id), {
    message: 'updateBillingInfo failed: 429 RESOURCE_EXHAUSTED: Quota exceeded for quota metric Write requests',
    transient: true,
  });
  t.match(await findProjectRequest(pool, id), { state: 'Creating', current_step: 'link_billing', error: null });

  fake.fail('POST', /consumerOverrides$/, { http: 403, status: 'PERMISSION_DENIED', message: "Permission 'serviceusage.quotas.update' denied" });
  t.same(await runProvisioning(deps, id), {
    state: 'Failed',
    step: 'quota_bigquery',
    error: "consumerOverrides.create failed: 403 PERMISSION_DENIED: Permission 'serviceusage.quotas.update' denied",
  });
  t.match(await findProjectRequest(pool, id), { state: 'Failed', failed_step: 'quota_bigquery', current_step: 'quota_bigquery' });
  t.equal(fake.projects.size, 1);
  t.same(fake.unexpected, []);
});

t.test('a cap above the default limit is refused: an override can only lower a limit', async (t) => {
  const { pool, deps } = await setup(t);
  const id = await approvedRequest(pool);
  await pool.query(`UPDATE project_request SET project_template = jsonb_set(project_template, '{quota,bigquery_analysis}', '500') WHERE id = $1`, [id]);
  t.match(await runProvisioning(deps, id), {
    state: 'Failed',
    step: 'quota_bigquery',
    error: /^consumerOverrides\.create failed: 400 FAILED_PRECONDITION: A consumer override can only lower a limit$/,
  });
});

t.test("the budget is set in the billing account's currency, converted at the day's rate, and the request says so", async (t) => {
  const { fake, pool, deps } = await setup(t);
  fake.setBillingAccountCurrency('billingAccounts/01A2B3-C4D5E6-F7A8B9', 'USD');
  const today = new Date().toISOString().slice(0, 10);
  await saveRates(pool, 'ecb', [{ currency: 'USD', rate_date: today, rate: '1.0870' }]);
  const id = await approvedRequest(pool);
  t.same(await runProvisioning(deps, id), { state: 'Active', step: null, error: null }, 'a USD billing account shown in EUR gets its budget');
  const budgets = fake.budgets.get('billingAccounts/01A2B3-C4D5E6-F7A8B9')!;
  t.match(budgets[0], { amount: { specifiedAmount: { currencyCode: 'USD', units: '1087', nanos: 0 } } }, '1000 EUR at 1.087 USD per EUR');
  const step = (await findProjectRequest(pool, id))!.step_log.find((e) => e.step === 'budget')!;
  t.match(step.detail, `1087.00 USD a month (the billing account's currency): the template's 1000 EUR at 1.087 USD per EUR of ${today}`);
  t.same(fake.unexpected, []);
});

t.test('a budget in a currency other than the billing account’s is refused by the fake in the Budgets document’s words', async (t) => {
  const { fake, deps } = await setup(t);
  fake.setBillingAccountCurrency('billingAccounts/01A2B3-C4D5E6-F7A8B9', 'USD');
  const p = { name: 'projects/1', projectNumber: '1', projectId: 'p', labels: {} };
  await t.rejects(
    deps.cloud.ensureBudget({ billingAccount: 'billingAccounts/01A2B3-C4D5E6-F7A8B9', displayName: 'x', projectName: p.name, amount: { currencyCode: 'EUR', units: '10', nanos: 0 } }),
    { message: /If specified when creating a budget, it must match the currency of the billing account/ },
  );
  t.equal(takeViolations().length, 1, 'recorded as a request the document does not allow');
});

t.test('a creation operation Google has deleted: the late poll finds the project by its request label', async (t) => {
  const { fake, pool, deps } = await setup(t);
  fake.setOpPolls(1000);
  const id = await approvedRequest(pool);
  await t.rejects(runProvisioning(deps, id), { message: 'projects.create: the operation is still running', transient: true });
  fake.forgetOperations();
  fake.setOpPolls(1);
  t.same(await runProvisioning(deps, id), { state: 'Active', step: null, error: null }, 'the project exists: the request goes on');
  t.match((await findProjectRequest(pool, id))!.step_log.find((e) => e.step === 'await_project' && e.outcome === 'done'), { detail: `projects/${fake.projects.get('acme-retail-webshop-prod')!.number}` });
  t.ok(fake.calls.some((c) => c === 'GET /v3/projects:search'), 'looked up with projects.search');
  assertProvisioned(t, fake, id);
});

t.test('a deleted operation and no project carrying the request label: the request fails', async (t) => {
  const { fake, pool, deps } = await setup(t);
  fake.setOpPolls(1000);
  const id = await approvedRequest(pool);
  await t.rejects(runProvisioning(deps, id), { message: 'projects.create: the operation is still running', transient: true });
  fake.forgetOperations();
  fake.projects.clear();
  t.match(await runProvisioning(deps, id), { state: 'Failed', step: 'await_project', error: /is gone and no project carries commandcenter-request=/ });
});

t.test('Cloud Quotas calls are held to its proto: a preference without quotaConfig is refused in the proto’s words', async (t) => {
  const { fake } = await setup(t);
  fake.addForeignProject('p-1');
  const res = await fetch(`http://127.0.0.1:${fake.port}/v1/projects/p-1/locations/global/quotaPreferences?quotaPreferenceId=x`, {
    method: 'POST',
    headers: { authorization: 'Bearer fake-token', 'content-type': 'application/json' },
    body: JSON.stringify({ service: 'compute.googleapis.com', quotaId: 'CPUS-per-project-region' }),
  });
  t.equal(res.status, 400);
  t.match((await res.json()).error.message, /CreateQuotaPreference body: required field "quotaConfig" is missing\. The proto says: "Required\. Preferred quota configuration\."/);
  t.equal(takeViolations().length, 1);
});
