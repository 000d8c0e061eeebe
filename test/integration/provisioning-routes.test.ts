/**
 * Project provisioning routes: the New Project request and its pre-submit check validate every field and the
 * generated id; only admins approve, reject and retry, and only requests in the state each needs; every route
 * refuses another customer's caller.
 */
import t from 'tap';
import type { FastifyInstance } from 'fastify';
import { markFailed, startCreating } from '@cc/shared/db/provisioning.ts';
import { UnrecoverableError, Worker } from 'bullmq';
import { REDIS_URL } from '../db.ts';
import { build, login, bearer } from '../helper.ts';

const ACME = 'acme-corp';
const BASE = { bu: 'retail', product: 'webshop', env: 'prod', owner_value: 'alice', template_name: 'Standard analytics project' };
const TEMPLATE = {
  template_name: 'Standard analytics project',
  folder_name: 'analytics',
  folder_number: '123456789012',
  project_template: {
    project_type: 'analytics',
    default_admin: 'alice@acme.example',
    budget: 1000,
    owner_label: 'cost-owner',
    project_name: 'acme-{bu}-{product}-{env}',
    quota: { bigquery_analysis: 10, compute_engine_cpus: 24 },
  },
};

/** Extra templates of acme-corp, each breaking one rule. */
function template(name: string, change: { project_name?: string; owner_label?: string; folder_number?: string; default_admin?: string }) {
  const { folder_number, ...inner } = change;
  return { ...TEMPLATE, template_name: name, folder_number: folder_number ?? TEMPLATE.folder_number, project_template: { ...TEMPLATE.project_template, ...inner } };
}
const BAD_TEMPLATES = [
  template('short', { project_name: '{env}' }),
  template('long', { project_name: 'acme-{bu}-{product}-{env}-with-a-long-tail' }),
  template('digit', { project_name: '1acme-{bu}-{env}' }),
  template('upper', { project_name: 'Acme-{bu}-{env}' }),
  template('underscore', { project_name: 'acme_{bu}_{env}' }),
  template('hyphen', { project_name: 'acme-{bu}-{env}-' }),
  template('placeholder', { project_name: 'acme-{bu}-{team}' }),
  template('label', { owner_label: 'Cost-Owner' }),
  template('reserved', { owner_label: 'commandcenter-request' }),
  template('folder', { folder_number: 'folders/12' }),
  template('admin', { default_admin: ' ' }),
];

async function setup(t: Parameters<typeof build>[0]) {
  const app = await build(t);
  await app.env.pool.query(`UPDATE customer SET project_provisioning = $2, owner_values = owner_values || '{Finance Team}' WHERE customer_id = $1`, [
    ACME,
    JSON.stringify([TEMPLATE, ...BAD_TEMPLATES]),
  ]);
  const [alice, admin, victor, bob] = await Promise.all(
    ['alice@acme.example', 'admin@commandcenter.local', 'victor@acme.example', 'bob@initech.example'].map((u) => login(app, u)),
  );
  return { app, alice, admin, victor, bob };
}

const create = (app: FastifyInstance, token: string, body: Record<string, unknown>) =>
  app.inject({ method: 'POST', url: '/v1/asset-inventory/project/create', headers: bearer(token), payload: { customer_id: ACME, ...body } });
const check = (app: FastifyInstance, token: string, query: Record<string, string>, customer = ACME) =>
  app.inject({ method: 'GET', url: `/v1/projectprovisioning/${customer}/check`, headers: bearer(token), query });
const decide = (app: FastifyInstance, token: string, verb: string, ids: string[], customer = ACME) =>
  app.inject({ method: 'POST', url: `/v1/projectprovisioning/${customer}/${verb}`, headers: bearer(token), payload: { ids } });

t.test('New Project: every field and the generated id are checked, by create and by the pre-submit check alike', async (t) => {
  const { app, alice } = await setup(t);
  const cases: [Record<string, string>, string][] = [
    [{ bu: '' }, 'Business Unit: This field is required'],
    [{ product: ' ' }, 'Product: This field is required'],
    [{ env: '' }, 'Environment: This field is required'],
    [{ owner_value: '' }, 'Cost Owner: This field is required'],
    [{ template_name: '' }, 'Project Template: This field is required'],
    [{ bu: 'marketing' }, "Business Unit 'marketing' is not one of the customer's choices"],
    [{ product: 'crm' }, "Product 'crm' is not one of the customer's choices"],
    [{ env: 'qa' }, "Environment 'qa' is not one of the customer's choices"],
    [{ owner_value: 'mallory' }, "Cost Owner 'mallory' is not one of the customer's choices"],
    [{ template_name: 'Bring your own' }, "Project Template 'Bring your own' is not one of the customer's choices"],
    [{ template_name: 'short', env: 'dev' }, "Project id 'dev' must be 6 to 30 characters long"],
    [{ template_name: 'long' }, "Project id 'acme-retail-webshop-prod-with-a-long-tail' must be 6 to 30 characters long"],
    [{ template_name: 'digit' }, "Project id '1acme-retail-prod' must start with a lower-case letter"],
    [{ template_name: 'upper' }, "Project id 'Acme-retail-prod' must start with a lower-case letter"],
    [{ template_name: 'underscore' }, "Project id 'acme_retail_prod' may contain only lower-case letters, digits and hyphens"],
    [{ template_name: 'hyphen' }, "Project id 'acme-retail-prod-' must not end with a hyphen"],
    [{ template_name: 'placeholder' }, "Project id 'acme-retail-{team}' still holds a placeholder: only {bu}, {product} and {env} are replaced"],
    [{ template_name: 'label' }, "Label key 'Cost-Owner' must start with a lower-case letter"],
    [{ owner_value: 'Finance Team' }, "Label value 'Finance Team' may contain only lower-case letters, digits, underscores and hyphens"],
    [{ template_name: 'reserved' }, "Label key 'commandcenter-request' is reserved"],
    [{ template_name: 'folder' }, "Folder number 'folders/12' of template 'folder' must be digits"],
    [{ template_name: 'admin' }, "Default admin of template 'admin': This field is required"],
  ];
  for (const [change, detail] of cases) {
    const res = await create(app, alice, { ...BASE, ...change });
    t.equal(res.statusCode, 400, JSON.stringify(change));
    t.same(res.json(), { detail }, detail);
    const pre = await check(app, alice, { ...BASE, ...change });
    t.equal(pre.json().problem, detail, `check: ${detail}`);
  }
  t.same((await app.inject({ method: 'GET', url: `/v1/projectprovisioning/${ACME}/`, headers: bearer(alice) })).json(), [], 'nothing saved');

  t.same((await check(app, alice, { ...BASE, template_name: 'upper' })).json(), { project_name: 'Acme-retail-prod', labels: null, problem: "Project id 'Acme-retail-prod' must start with a lower-case letter" }, 'the bad id is shown');
  t.same((await check(app, alice, BASE)).json(), { project_name: 'acme-retail-webshop-prod', labels: { 'cost-owner': 'alice' }, problem: null });
});

t.test('New Project: a request is saved Pending approval from the customer’s template; its id is held', async (t) => {
  const { app, alice } = await setup(t);
  // The body's folder and template (000 §7 sends them) cannot override the customer's template.
  const res = await create(app, alice, { ...BASE, folder_name: 'elsewhere', folder_number: '1', project_type: 'x', project_template: { budget: 1e9 } });
  t.equal(res.statusCode, 201);
  const saved = res.json();
  t.match(saved, {
    customer_id: ACME, project_name: 'acme-retail-webshop-prod', state: 'Pending approval', project_type: 'analytics', folder_name: 'analytics',
    folder_number: '123456789012', template_name: 'Standard analytics project', requester: 'alice@acme.example', step_label: null,
    project_template: { budget: 1000, default_admin: 'alice@acme.example', owner_label: 'cost-owner', quota: { bigquery_analysis: 10, compute_engine_cpus: 24 } },
  });
  t.notOk('step_log' in saved, 'the step log stays inside');
  t.same((await create(app, alice, BASE)).json(), { detail: "A request for project 'acme-retail-webshop-prod' already exists" });
  t.equal((await create(app, alice, BASE)).statusCode, 409);
  t.same((await check(app, alice, BASE)).json().problem, "A request for project 'acme-retail-webshop-prod' already exists", 'the check says so before submit');
  // Google's ids are global: another customer's template producing the same id is refused too.
  await app.env.pool.query(`UPDATE customer SET business_units = '{retail}', products = '{webshop}', env = '{prod}', owner_values = '{alice}', project_provisioning = $1 WHERE customer_id = 'globex'`, [
    JSON.stringify([TEMPLATE]),
  ]);
  await app.access.publish(); // a write outside the api: the access epoch moves before the next request (NOTIFY may lag)
  const other = await app.inject({ method: 'POST', url: '/v1/asset-inventory/project/create', headers: bearer(alice), payload: { customer_id: 'globex', ...BASE } });
  t.same([other.statusCode, other.json()], [409, { detail: "Project id 'acme-retail-webshop-prod' is already taken" }]);

  const choices = await app.inject({ method: 'GET', url: `/v1/projectprovisioning/${ACME}/choices`, headers: bearer(alice) });
  t.match(choices.json(), { business_units: ['retail', 'finance'], products: ['webshop', 'ledger'], env: ['dev', 'prod'], billing_currency: 'EUR', project_provisioning: [TEMPLATE] });
});

t.test('only admins decide, only on pending requests (retry: Failed ones) of the customer named', async (t) => {
  const { app, alice, admin, victor } = await setup(t);
  const ids: string[] = [];
  for (const env of ['dev', 'prod']) ids.push((await create(app, alice, { ...BASE, env })).json().id);
  const [dev, prod] = ids;

  for (const verb of ['approve', 'reject', 'retry']) {
    for (const token of [alice, victor]) {
      const res = await decide(app, token, verb, ids);
      t.equal(res.statusCode, 403, `${verb} is admin-only`);
    }
  }
  const rejected = await decide(app, admin, 'reject', [prod]);
  t.match(rejected.json(), { rejected: [{ id: prod, state: 'Rejected', decided_by: 'admin@commandcenter.local' }], refused: [] });

  const unknown = '00000000-0000-4000-8000-000000000000';
  const res = await decide(app, admin, 'approve', [dev, prod, unknown]);
  t.equal(res.statusCode, 200);
  t.match(res.json(), { approved: [{ id: dev, state: 'Approved', project_name: 'acme-retail-webshop-dev' }] });
  t.same(res.json().refused, [{ id: prod, state: 'Rejected' }, { id: unknown, state: null }]);
  t.same((await decide(app, admin, 'approve', [dev])).json(), { approved: [], refused: [{ id: dev, state: 'Approved' }] }, 'approving twice is refused');
  t.same((await decide(app, admin, 'retry', [dev])).json(), { retried: [], refused: [{ id: dev, state: 'Approved' }] }, 'only Failed requests are retried');
  t.same((await decide(app, admin, 'approve', [dev], 'globex')).json(), { approved: [], refused: [{ id: dev, state: null }] }, 'not under another customer');

  const job = await app.producers.queues.provisioning.getJob(`provision-${dev}`);
  t.same(job?.data, { request_id: dev }, 'the approved request is queued for creation');
  t.notOk(await app.producers.queues.provisioning.getJob(`provision-${prod}`), 'the rejected one is not');
  const mail = await app.producers.queues.notify.getJob(`notify-provisioning-approved-${dev}`);
  t.match(mail?.data, { to: ['alice@acme.example'], subject: 'Project acme-retail-webshop-dev approved' });
  t.match(mail?.data.text, `http://localhost:8080/projectprovisioning?customer=${ACME}`);

  // A failed job stays in the queue under its id (removeOnFail: false): a retry must get an id of its own.
  const worker = new Worker('provisioning', null, { connection: { url: REDIS_URL }, prefix: app.config.QUEUE_PREFIX });
  const taken = (await worker.getNextJob('test-token'))!;
  t.equal(taken.id, `provision-${dev}`);
  await taken.moveToFailed(new UnrecoverableError('worker gave up'), 'test-token', false);
  await worker.close();
  t.equal(await app.producers.queues.provisioning.getJobState(`provision-${dev}`), 'failed');
  await startCreating(app.env.pool, dev, 'create_project');
  await markFailed(app.env.pool, dev, 'await_project', 'projects.create: the operation is still running');
  const retried = await decide(app, admin, 'retry', [dev]);
  t.match(retried.json(), { retried: [{ id: dev, state: 'Approved', current_step: 'create_project' }], refused: [] });
  t.same((await app.producers.queues.provisioning.getJob(`provision-${dev}-retry-1`))?.data, { request_id: dev, attempt: 1 }, 'queued again under a new id');
});

t.test('every new route refuses a caller of another customer', async (t) => {
  const { app, alice, bob, admin } = await setup(t);
  const id = (await create(app, alice, BASE)).json().id;
  const notFound = { detail: 'Customer not found' };
  const asBob = [
    await app.inject({ method: 'POST', url: '/v1/asset-inventory/project/create', headers: bearer(bob), payload: { customer_id: ACME, ...BASE } }),
    await app.inject({ method: 'GET', url: `/v1/projectprovisioning/${ACME}/`, headers: bearer(bob) }),
    await app.inject({ method: 'GET', url: `/v1/projectprovisioning/${ACME}/choices`, headers: bearer(bob) }),
    await check(app, bob, BASE),
  ];
  for (const res of asBob) t.same([res.statusCode, res.json()], [404, notFound]);
  for (const verb of ['approve', 'reject', 'retry']) t.equal((await decide(app, bob, verb, [id])).statusCode, 403, `${verb}: not an admin`);
  t.same((await decide(app, admin, 'approve', [id], 'nobody-here')).json(), notFound);
  const list = await app.inject({ method: 'GET', url: `/v1/projectprovisioning/${ACME}/`, headers: bearer(alice) });
  t.same(list.json().map((r: { id: string; state: string }) => [r.id, r.state]), [[id, 'Pending approval']], 'nothing moved');
});

t.test('the list is paged on the server by project name, the count of all in X-Total-Count', async (t) => {
  const { app, alice } = await setup(t);
  await app.env.pool.query(
    `INSERT INTO project_request (customer_id, requester, bu, product, env, owner_value, template_name, folder_name, folder_number,
                                  project_type, project_template, project_name, state)
     SELECT $1, 'alice@acme.example', 'retail', 'webshop', 'dev', 'alice', 'Standard analytics project', 'analytics', '123',
            'analytics', $2, 'paged-' || lpad(i::text, 3, '0'), 'Pending approval'
       FROM generate_series(1, 130) AS i`,
    [ACME, JSON.stringify(TEMPLATE.project_template)],
  );
  const list = (query: Record<string, string>) => app.inject({ method: 'GET', url: `/v1/projectprovisioning/${ACME}/`, headers: bearer(alice), query });
  const first = await list({});
  t.equal(first.statusCode, 200, first.body);
  t.equal(first.headers['x-total-count'], '130');
  const names = (res: Awaited<ReturnType<typeof list>>) => res.json().map((r: { project_name: string }) => r.project_name);
  t.same(names(first), Array.from({ length: 100 }, (_, i) => `paged-${String(i + 1).padStart(3, '0')}`), 'a first page of 100 by default');
  const third = await list({ limit: '10', offset: '120' });
  t.same([third.headers['x-total-count'], names(third)], ['130', Array.from({ length: 10 }, (_, i) => `paged-${121 + i}`)]);
  t.same((await list({ offset: '130' })).json(), [], 'beyond the end: no rows');
  t.same([(await list({ limit: '0' })).statusCode, (await list({ limit: '501' })).statusCode, (await list({ offset: '-1' })).statusCode], [400, 400, 400]);
  t.match((await list({ limit: 'x' })).json(), { detail: /limit/ });
});
