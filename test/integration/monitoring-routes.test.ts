/**
 * System Health routes (spec 000 §7 Monitoring): the password (sealed at rest, only to the customer's own users),
 * Initialize / Rebuild through the monitoring queue with a real worker, the credentials panel, the built-in
 * dashboard's figures, and the queue-age metric.
 */
import t from 'tap';
import type { FastifyInstance } from 'fastify';
import { secretBoxFromConfig } from '@cc/shared/secrets-key.ts';
import { healthFigures } from '@cc/shared/db/monitoring-figures.ts';
import { billingToday } from '@cc/shared/time.ts';
import { buildHandlers } from '../../workers/src/handlers.ts';
import { startWorkers } from '../../workers/src/worker-host.ts';
import { localMonitoringService } from '@cc/shared/adapters/monitoring/local.ts';
import { grafanaMonitoringService } from '@cc/shared/adapters/monitoring/real.ts';
import { cloudProjectsFromConfig } from '@cc/shared/adapters/cloud-projects/from-config.ts';
import type { MonitoringService } from '@cc/shared/ports/monitoring.ts';
import { startFakeGrafana } from '../fakes/grafana-server.ts';
import { build, login, bearer } from '../helper.ts';
import { REDIS_URL } from '../db.ts';

type App = FastifyInstance & Awaited<ReturnType<typeof build>>;
const NOT_IMPLEMENTED = { detail: 'Monitoring not implemented for this customer' };

async function worker(t: { teardown(fn: () => unknown): void }, app: App, service: MonitoringService = localMonitoringService()) {
  const { pool, config } = app.env;
  const host = await startWorkers({
    redisUrl: REDIS_URL,
    prefix: config.QUEUE_PREFIX,
    queues: ['monitoring'],
    handlers: buildHandlers(['monitoring'], {
      pool,
      monitoringService: service,
      secretBox: secretBoxFromConfig(config),
      cloudProjects: cloudProjectsFromConfig(config, pool),
    }),
  });
  t.teardown(() => host.close());
}

async function billed(app: App) {
  await app.env.pool.query(
    `INSERT INTO cost_daily (customer_id, billing_account_id, usage_date, provider, provider_name, project_id, project_name, service, cost, credits, currency)
     VALUES ('acme-corp', '01A2B3-C4D5E6-F7A8B9', $1::date - 1, 'gcp', 'Google Cloud', 'acme-prod', 'Acme Production', 'Compute Engine', 42.5, -2.5, 'EUR'),
            ('acme-corp', '01A2B3-C4D5E6-F7A8B9', $1::date - 3, 'gcp', 'Google Cloud', 'acme-dev', 'Acme Dev', 'Cloud Storage', 7, 0, 'EUR')`,
    [billingToday()],
  );
}

const post = (app: App, token: string, url: string) => app.inject({ method: 'POST', url, headers: bearer(token) });

t.test('initialise, password, rebuild: sealed at rest, same password throughout', async (t) => {
  const app = (await build(t)) as App;
  await worker(t, app);
  await billed(app);
  const alice = await login(app, 'alice@acme.example');
  const victor = await login(app, 'victor@acme.example');

  const before = await post(app, alice, '/v1/monitoring/acme-corp/password');
  t.equal(before.statusCode, 404);
  t.same(before.json(), NOT_IMPLEMENTED, 'not initialised yet');
  const panel0 = await app.inject({ url: '/v1/monitoring/acme-corp/', headers: bearer(alice) });
  t.same(panel0.json(), {
    user_id: 'Acme Corp',
    service_account_email: 'commandcenter@acme-corp-ops.iam.gserviceaccount.com',
    projects: [
      { project_id: 'acme-dev', project_name: 'Acme Dev' },
      { project_id: 'acme-prod', project_name: 'Acme Production' },
    ],
    status: null,
    last_error: null,
  });
  // victor's filter (team=analytics) admits neither project: they carry no labels
  t.same((await app.inject({ url: '/v1/monitoring/acme-corp/', headers: bearer(victor) })).json().projects, [], 'a viewer sees his projects only');

  const init = await post(app, alice, '/v1/monitoring/acme-corp/');
  t.equal(init.statusCode, 200, init.body);
  t.same(init.json(), { status: 'ready', login: 'Acme Corp', dashboard_url: '/systemhealth/kiosk/acme-corp' });

  const pass = await post(app, alice, '/v1/monitoring/acme-corp/password');
  t.equal(pass.statusCode, 200);
  t.equal(pass.headers['cache-control'], 'no-store');
  const password = pass.json().grafana_pass as string;
  t.match(password, /^.{24}$/);
  t.same(Object.keys(pass.json()), ['grafana_pass']);
  t.same((await post(app, victor, '/v1/monitoring/acme-corp/password')).json(), { grafana_pass: password }, 'a viewer of the customer may sign in too');

  const { rows } = await app.env.pool.query<{ row: string; password_sealed: string }>(
    `SELECT row_to_json(m)::text AS row, password_sealed FROM monitoring_account m WHERE customer_id = 'acme-corp'`,
  );
  t.notOk(rows[0].row.includes(password), 'the row holds no plain password');
  t.match(rows[0].password_sealed, /^v1\.[\w-]+\.[\w-]+\.[\w-]+\.[\w-]+$/);
  t.equal(secretBoxFromConfig(app.env.config).open(rows[0].password_sealed, 'acme-corp'), password, 'it opens with the configured key');

  const customer = await app.inject({ url: '/v1/customers/acme-corp/', headers: bearer(alice) });
  t.equal(customer.json().grafana_link, '/systemhealth/kiosk/acme-corp', 'grafana_link in the customer answer');

  const again = await post(app, alice, '/v1/monitoring/acme-corp/');
  t.equal(again.statusCode, 200, 'initialise twice is fine');
  const rebuild = await post(app, alice, '/v1/monitoring/acme-corp/rebuild');
  t.equal(rebuild.statusCode, 200, rebuild.body);
  t.same((await post(app, alice, '/v1/monitoring/acme-corp/password')).json(), { grafana_pass: password }, 'the password survives both');
  const { rows: runs } = await app.env.pool.query(`SELECT status, rebuilt_at IS NOT NULL AS rebuilt FROM monitoring_account`);
  t.same(runs, [{ status: 'ready', rebuilt: true }]);
});

t.test('who may do what: viewer, other tenants, the flag', async (t) => {
  const app = (await build(t)) as App;
  await worker(t, app);
  const alice = await login(app, 'alice@acme.example');
  const victor = await login(app, 'victor@acme.example');
  const bob = await login(app, 'bob@initech.example');
  await app.env.pool.query(`UPDATE customer SET system_health_dashboard = true WHERE customer_id = 'initech'`);
  await app.access.publish(); // a write outside the api: the access epoch moves before the next request (NOTIFY may lag)

  for (const url of ['/v1/monitoring/acme-corp/', '/v1/monitoring/acme-corp/rebuild']) {
    const res = await post(app, victor, url);
    t.equal(res.statusCode, 403, `viewer: ${url}`);
  }
  t.same((await app.env.pool.query('SELECT * FROM monitoring_account')).rows, [], 'the viewer started nothing');

  t.equal((await post(app, alice, '/v1/monitoring/acme-corp/')).statusCode, 200);
  for (const url of ['/v1/monitoring/acme-corp/password', '/v1/monitoring/acme-corp/', '/v1/monitoring/acme-corp/rebuild']) {
    const res = await post(app, bob, url);
    t.equal(res.statusCode, 404, `initech's user naming acme-corp: ${url}`);
    t.same(res.json(), { detail: 'Customer not found' });
  }
  for (const url of ['/v1/monitoring/acme-corp/', '/v1/monitoring/acme-corp/figures/']) {
    t.same((await app.inject({ url, headers: bearer(bob) })).json(), { detail: 'Customer not found' }, `GET ${url}`);
  }
  t.same((await app.env.pool.query(`SELECT rebuilt_at FROM monitoring_account WHERE customer_id = 'acme-corp'`)).rows, [{ rebuilt_at: null }], 'no rebuild ran');
  t.same((await post(app, bob, '/v1/monitoring/initech/password')).json(), NOT_IMPLEMENTED, 'bob sees only his own (not initialised)');

  await app.env.pool.query(`UPDATE customer SET system_health_dashboard = false WHERE customer_id = 'acme-corp'`);
  await app.access.publish(); // a write outside the api: the access epoch moves before the next request (NOTIFY may lag)
  for (const url of ['/v1/monitoring/acme-corp/password', '/v1/monitoring/acme-corp/', '/v1/monitoring/acme-corp/rebuild']) {
    const res = await post(app, alice, url);
    t.equal(res.statusCode, 403);
    t.same(res.json(), { detail: 'System health is disabled for this customer' }, url);
  }
});

t.test('a failed run answers the failure as detail; the next click starts a new run', async (t) => {
  const app = (await build(t)) as App;
  const grafana = await startFakeGrafana({ adminUser: 'admin', adminPassword: 'pw' });
  t.teardown(() => grafana.close());
  await worker(t, app, grafanaMonitoringService({ url: grafana.url, adminUser: 'admin', adminPassword: 'pw' }));
  const alice = await login(app, 'alice@acme.example');

  grafana.failNext('POST', '/api/orgs', 403, 'Permission denied');
  const failed = await post(app, alice, '/v1/monitoring/acme-corp/');
  t.equal(failed.statusCode, 502);
  t.same(failed.json(), { detail: 'Grafana POST /api/orgs answered 403: Permission denied' }, 'a refusal fails at once, with Grafana’s message');
  t.same((await post(app, alice, '/v1/monitoring/acme-corp/password')).json(), NOT_IMPLEMENTED);
  t.match((await app.inject({ url: '/v1/monitoring/acme-corp/', headers: bearer(alice) })).json(), { status: 'failed', last_error: /answered 403/ });

  const retried = await post(app, alice, '/v1/monitoring/acme-corp/');
  t.equal(retried.statusCode, 200, retried.body);
  t.match(retried.json(), { status: 'ready', login: 'Acme Corp', dashboard_url: new RegExp(`^${grafana.url}/d/cc-system-health\\?orgId=\\d+$`) });
  const password = (await post(app, alice, '/v1/monitoring/acme-corp/password')).json().grafana_pass;
  t.equal(grafana.userByLogin('Acme Corp')!.password, password, 'Grafana’s user has the password the route answers');
  t.equal((await app.inject({ url: '/v1/customers/acme-corp/', headers: bearer(alice) })).json().grafana_link, retried.json().dashboard_url);
});

t.test('without a worker the click is answered at once', async (t) => {
  const app = (await build(t)) as App;
  const alice = await login(app, 'alice@acme.example');
  const res = await post(app, alice, '/v1/monitoring/acme-corp/');
  t.equal(res.statusCode, 503);
  t.same(res.json(), { detail: 'No worker is running the monitoring queue; try again later' });
  t.equal(await app.producers.queues.monitoring.count(), 0, 'nothing left waiting');
});

t.test('the built-in dashboard figures are healthFigures() of the customer', async (t) => {
  const app = (await build(t)) as App;
  await billed(app);
  const alice = await login(app, 'alice@acme.example');
  const res = await app.inject({ url: '/v1/monitoring/acme-corp/figures/', headers: bearer(alice) });
  t.equal(res.statusCode, 200);
  const figures = res.json();
  t.same(figures, await healthFigures(app.env.pool, 'acme-corp', billingToday()), 'nothing lost on the wire');
  t.same(figures.projects.map((p: { project_id: string }) => p.project_id), ['acme-dev', 'acme-prod']);
  // a viewer's figures are restricted by his filter (test/integration/viewer-monitoring-figures.test.ts)
  const victor = await login(app, 'victor@acme.example');
  const viewer = await app.inject({ url: '/v1/monitoring/acme-corp/figures/', headers: bearer(victor) });
  const filter = [{ label_key: 'team', label_value: 'analytics' }];
  t.same(viewer.json(), await healthFigures(app.env.pool, 'acme-corp', billingToday(), new Date(), filter));
  t.same(viewer.json().projects, [], 'neither project carries his label');
});

t.test('cc_queue_oldest_waiting_seconds: age of the oldest waiting job per queue', async (t) => {
  const app = (await build(t, { seed: false })) as App;
  const empty = await app.inject('/metrics');
  t.match(empty.body, /cc_queue_oldest_waiting_seconds\{queue="monitoring"\} 0\n/);
  await app.producers.enqueue('maintenance', 'maintenance.purge', { day: '2026-01-01' });
  await new Promise((r) => setTimeout(r, 1200));
  const body = (await app.inject('/metrics')).body;
  const age = Number(/cc_queue_oldest_waiting_seconds\{queue="maintenance"\} ([\d.]+)/.exec(body)?.[1]);
  t.ok(age >= 1 && age < 60, `oldest maintenance job waited ${age} s`);
  t.match(body, /cc_queue_oldest_waiting_seconds\{queue="notify"\} 0\n/);
});

t.test('only the built-in dashboard page may be framed, and only by our own pages', async (t) => {
  const app = (await build(t, { seed: false })) as App;
  const kiosk = await app.inject('/systemhealth/kiosk/acme-corp?kiosk&_dash.hideTimePicker=true&_dash.hideVariables=true');
  t.equal(kiosk.headers['x-frame-options'], 'SAMEORIGIN');
  t.match(kiosk.headers['content-security-policy'], /(^|;\s*)frame-ancestors 'self'(;|$)/);
  for (const url of ['/systemhealth', '/systemhealth/kioskx', '/v1/monitoring/acme-corp/figures/']) {
    const res = await app.inject(url);
    t.equal(res.headers['x-frame-options'], 'DENY', url);
    t.match(res.headers['content-security-policy'], /(^|;\s*)frame-ancestors 'none'(;|$)/, url);
  }
});
