/**
 * The operations inbox across customers: every kind appears from the state that makes it, disappears when that
 * state is resolved, filters by kind and customer with counts per kind, and the same counts are Prometheus gauges.
 * Admins only: a customer and a viewer are refused.
 */
import t from 'tap';
import { UnrecoverableError, Worker } from 'bullmq';
import { REDIS_URL } from '../db.ts';
import { loadConfig } from '@cc/shared/config.ts';
import { build, login, bearer } from '../helper.ts';
import type { InboxAnswer } from '@cc/shared/schemas/operations.ts';
import { billingToday } from '@cc/shared/time.ts';
import { addDays } from '@cc/shared/time.ts';

const SKU = '1010020028';
const PROJECT = { customer_id: 'acme-corp', bu: 'retail', product: 'webshop', env: 'dev', owner_value: 'alice', template_name: 'Standard analytics project' };

t.test('the inbox lists what needs a person, by kind and customer, and forgets what is resolved', async (t) => {
  const app = await build(t);
  const [alice, victor, admin] = await Promise.all(['alice@acme.example', 'victor@acme.example', 'admin@commandcenter.local'].map((u) => login(app, u)));
  const get = async (query = '') => {
    const res = await app.inject({ method: 'GET', url: `/v1/operations/inbox${query}`, headers: bearer(admin) });
    t.equal(res.statusCode, 200, 'the inbox answers');
    return res.json() as InboxAnswer;
  };

  for (const [who, token] of [['alice (customer)', alice], ['victor (viewer)', victor]] as const) {
    const res = await app.inject({ method: 'GET', url: '/v1/operations/inbox', headers: bearer(token) });
    t.same([res.statusCode, res.json()], [403, { detail: 'Admin only' }], `${who} is refused the inbox`);
    const seen = await app.inject({ method: 'POST', url: '/v1/operations/inbox/anomalies-seen', headers: bearer(token) });
    t.equal(seen.statusCode, 403, `${who} cannot mark anomalies seen`);
  }
  t.equal((await app.inject({ method: 'GET', url: '/v1/operations/inbox' })).statusCode, 401, 'anonymous');
  const bad = await app.inject({ method: 'GET', url: '/v1/operations/inbox?kind=nope', headers: bearer(admin) });
  t.equal(bad.statusCode, 400);
  t.match(bad.json(), { detail: /querystring\/kind/ });

  // a project request and a license order through their own routes
  const created = await app.inject({ method: 'POST', url: '/v1/asset-inventory/project/create', headers: bearer(alice), payload: PROJECT });
  t.equal(created.statusCode, 201, 'the request is created');
  const requestId = created.json().id as string;
  await app.inject({ method: 'PUT', url: '/v1/licenses/acme.example', headers: bearer(alice), payload: { sku_id: SKU, threshold: 5, auto_order: false, new_order: 1 } });
  const placed = await app.inject({ method: 'PUT', url: '/v1/licenses/orders/acme.example', headers: bearer(alice), payload: { sku_id: SKU, customer_id: 'acme-corp', order_amount: 3, comment: 'new hires' } });
  const orderId = placed.json().order_id as string;

  // the other kinds from the rows their jobs write
  const today = billingToday();
  await app.pg.query(
    `INSERT INTO ingest_batch (customer_id, billing_account_id, source, status, finished_at, error)
     VALUES ('initech', 'INITECH-ACCOUNT', 'focus-file', 'failed', now(), '{"message":"the file is cut"}')`,
  );
  await app.pg.query(`UPDATE customer SET billing_account_ids = '{INITECH-ACCOUNT}' WHERE customer_id = 'initech'`);
  await app.pg.query(`INSERT INTO inventory_sync_run (customer_id, source, status, finished_at, error) VALUES ('acme-corp', 'local', 'failed', now(), 'permission denied')`);
  await app.pg.query(
    `INSERT INTO ticket (id, customer_id, summary, description, priority, status, created_at, created_by)
     VALUES ('00000000-0000-4000-8000-000000000001', 'globex', 'Site down', 'x', 'P1', 'Open', now() - interval '61 minutes', 'alice@acme.example'),
            ('00000000-0000-4000-8000-000000000002', 'globex', 'Slow page', 'x', 'P2', 'Open', now() - interval '3 hours', 'alice@acme.example'),
            ('00000000-0000-4000-8000-000000000003', 'globex', 'Old question', 'x', 'P4', 'Open', now() - interval '49 hours', 'alice@acme.example')`,
  );
  await app.pg.query(`INSERT INTO anomaly_run (customer_id, billing_account_id, date, window_days, min_history_days, judged_series, cold_start_series)
                      SELECT 'acme-corp', billing_account_ids[1], $1::date, 28, 7, 1, 0 FROM customer WHERE customer_id = 'acme-corp'`, [addDays(today, -2)]);
  await app.pg.query(`INSERT INTO anomaly (customer_id, billing_account_id, date, project_id, service, currency, mean_cost, to_date_cost, project_mean_cost, project_to_date_cost, flagged)
                      SELECT 'acme-corp', billing_account_ids[1], $1::date, 'p', 's', 'EUR', 1, 100, 1, 100, true FROM customer WHERE customer_id = 'acme-corp'`, [addDays(today, -2)]);
  const alert = await app.pg.query<{ id: string }>(`INSERT INTO alert (customer_id, group_by, quota) VALUES ('acme-corp', 'service', 100) RETURNING id`);
  await app.pg.query(
    `INSERT INTO alert_notice (alert_id, customer_id, month, billing_account_id, spend, quota, currency, evaluated_day)
     VALUES ($1, 'acme-corp', $2, 'A', 150, 100, 'EUR', $3)`,
    [alert.rows[0].id, today.slice(0, 7), today],
  );

  const all = await get();
  const mine = all.items.filter((i) => i.kind !== 'billing_data_stale');
  t.same(
    mine.map((i) => [i.kind, i.customer_id]).sort(),
    [
      ['alert_over_quota', 'acme-corp'],
      ['anomalies_found', 'acme-corp'],
      ['billing_ingest_failed', 'initech'],
      ['license_order_pending', 'acme-corp'],
      ['project_request_pending', 'acme-corp'],
      ['sync_failing', 'acme-corp'],
      ['ticket_first_response_overdue', 'globex'],
      ['ticket_first_response_overdue', 'globex'],
    ],
    'one item per open thing; the P2 ticket is inside its 4 h target',
  );
  t.same(all.items.map((i) => i.urgency), [...all.items.map((i) => i.urgency)].sort(), 'most urgent first');
  t.equal(all.counts.ticket_first_response_overdue, 2);
  t.equal(all.total, all.items.length);
  const request = all.items.find((i) => i.kind === 'project_request_pending')!;
  t.match(request, { customer_name: 'Acme Corp', link: '/projectprovisioning', project_request: { id: requestId, project_name: 'acme-retail-webshop-dev', state: 'Pending approval' } });
  const order = all.items.find((i) => i.kind === 'license_order_pending')!;
  t.match(order, { license_order: { order_id: orderId, domain: 'acme.example', order_amount: 3, status: 'Pending' }, detail: 'new hires' });
  t.match(all.items.find((i) => i.kind === 'billing_ingest_failed'), { what: 'Billing ingest (file) of INITECH-ACCOUNT failed', detail: 'the file is cut' });

  const globex = await get('?for_customer=globex');
  t.same(globex.items.map((i) => i.customer_id), ['globex', 'globex'], 'filter by customer');
  t.equal(globex.counts.project_request_pending, 0, 'counts follow the customer filter');
  const pending = await get('?kind=license_order_pending');
  t.same(pending.items.map((i) => i.kind), ['license_order_pending'], 'filter by kind');
  t.equal(pending.counts.project_request_pending, 1, 'counts cover every kind whatever kind asks');
  const paged = await get('?limit=2&offset=1');
  t.same(paged.items, all.items.slice(1, 3), 'paginated');
  t.equal(paged.total, all.total);

  const metrics = (await app.inject({ method: 'GET', url: '/metrics', headers: bearer(admin) })).body;
  t.match(metrics, /cc_operations_inbox_items\{kind="project_request_pending"\} 1/, 'the counts are gauges');
  t.match(metrics, /cc_operations_inbox_items\{kind="ticket_first_response_overdue"\} 2/);

  // resolved: each leaves the inbox
  await app.inject({ method: 'POST', url: '/v1/projectprovisioning/acme-corp/approve', headers: bearer(admin), payload: { ids: [requestId] } });
  t.notOk((await get()).items.some((i) => i.kind === 'project_request_pending'), 'a decision through the api shows at once (the kept answer is dropped)');
  await app.inject({ method: 'POST', url: `/v1/licenses/orders/acme.example/${orderId}/false`, headers: bearer(admin) });
  await app.pg.query(`INSERT INTO ingest_batch (customer_id, billing_account_id, source, status, finished_at) VALUES ('initech', 'INITECH-ACCOUNT', 'focus-file', 'succeeded', now())`);
  await app.pg.query(`UPDATE ticket SET first_response_at = now() WHERE priority = 'P1'`);
  const seen = await app.inject({ method: 'POST', url: '/v1/operations/inbox/anomalies-seen', headers: bearer(admin) });
  t.equal(seen.statusCode, 200);
  const after = await get();
  t.same(
    after.items.filter((i) => i.kind !== 'billing_data_stale').map((i) => [i.kind, i.customer_id]).sort(),
    [
      ['alert_over_quota', 'acme-corp'],
      ['sync_failing', 'acme-corp'],
      ['ticket_first_response_overdue', 'globex'],
    ],
    'approved, rejected, re-ingested, answered and seen items are gone',
  );
  t.equal(after.anomalies_seen_at, seen.json().anomalies_seen_at);
});

t.test('stale billing data and failed syncs name their source', async (t) => {
  const app = await build(t);
  const admin = await login(app, 'admin@commandcenter.local');
  const today = billingToday();
  await app.pg.query(`UPDATE customer SET billing_account_ids = '{STALE-ACCOUNT}' WHERE customer_id = 'globex'`);
  const batch = await app.pg.query<{ id: string }>(
    `INSERT INTO ingest_batch (customer_id, billing_account_id, source, status, finished_at) VALUES ('globex', 'STALE-ACCOUNT', 'bigquery', 'succeeded', now()) RETURNING id`,
  );
  void batch;
  await app.pg.query(
    `INSERT INTO cost_daily (customer_id, billing_account_id, usage_date, provider, provider_name, project_id, project_name, service, cost, credits, currency)
     VALUES ('globex', 'STALE-ACCOUNT', $1, 'gcp', 'Google Cloud', 'p', 'p', 's', 1, 0, 'EUR')`,
    [addDays(today, -3)],
  );
  await app.pg.query(`INSERT INTO monitoring_account (customer_id, backend, status, login, password_sealed, last_error, last_error_at)
                      VALUES ('globex', 'local', 'failed', 'Globex', 'v1.a.b.c.d', 'Grafana refused', now())`);
  const res = await app.inject({ method: 'GET', url: '/v1/operations/inbox?for_customer=globex', headers: bearer(admin) });
  const items = (res.json() as InboxAnswer).items;
  t.match(items.find((i) => i.kind === 'billing_data_stale'), { what: `Billing data (BigQuery) of STALE-ACCOUNT ends on ${addDays(today, -3)}`, urgency: 3 });
  t.match(items.find((i) => i.kind === 'sync_failing'), { what: 'Monitoring dashboard provisioning failed', detail: 'Grafana refused', link: '/systemhealth' });

  await app.pg.query(`UPDATE cost_daily SET usage_date = $1`, [addDays(today, -2)]);
  const kept = (await app.inject({ method: 'GET', url: '/v1/operations/inbox?for_customer=globex&kind=billing_data_stale', headers: bearer(admin) })).json() as InboxAnswer;
  t.equal(kept.total, 1, 'a write outside the api (a job’s) shows once the kept answer is FRESH_MS old');
  // a job's write is not seen by the api's hook: drop the kept answer as FRESH_MS would
  app.operationsInbox.invalidate();
  const fresh = (await app.inject({ method: 'GET', url: '/v1/operations/inbox?for_customer=globex&kind=billing_data_stale', headers: bearer(admin) })).json() as InboxAnswer;
  t.same(fresh.items, [], 'two days old is not stale');
});

t.test('failed provisioning, failed license orders and a license sync that failed since the last sync', async (t) => {
  const app = await build(t);
  const [alice, admin] = await Promise.all(['alice@acme.example', 'admin@commandcenter.local'].map((u) => login(app, u)));
  const created = await app.inject({ method: 'POST', url: '/v1/asset-inventory/project/create', headers: bearer(alice), payload: PROJECT });
  const id = created.json().id as string;
  await app.pg.query(`UPDATE project_request SET state = 'Failed', failed_step = 'link_billing', error = 'no billing account' WHERE id = $1`, [id]);
  await app.inject({ method: 'PUT', url: '/v1/licenses/acme.example', headers: bearer(alice), payload: { sku_id: SKU, threshold: 5, auto_order: false, new_order: 1 } });
  const placed = await app.inject({ method: 'PUT', url: '/v1/licenses/orders/acme.example', headers: bearer(alice), payload: { sku_id: SKU, customer_id: 'acme-corp', order_amount: 2, comment: '' } });
  await app.pg.query(`UPDATE license_order SET status = 'Failed', error = 'Google refused' WHERE order_id = $1`, [placed.json().order_id]);

  // a license.sync of acme-corp that failed in the queue, after the license's last sync
  await app.producers.enqueue('license', 'license.sync', { customer_id: 'acme-corp' });
  const worker = new Worker('license', null, { connection: { url: REDIS_URL }, prefix: app.config.QUEUE_PREFIX });
  const taken = (await worker.getNextJob('test-token'))!;
  await taken.moveToFailed(new UnrecoverableError('Workspace refused'), 'test-token', false);
  await worker.close();
  await app.pg.query(`UPDATE license SET synced_at = now() - interval '1 hour' WHERE customer_id = 'acme-corp'`);
  app.operationsInbox.invalidate();

  const get = async () => ((await app.inject({ method: 'GET', url: '/v1/operations/inbox?for_customer=acme-corp', headers: bearer(admin) })).json() as InboxAnswer).items;
  const items = await get();
  t.match(items.find((i) => i.kind === 'provisioning_failed'), { what: 'Provisioning of acme-retail-webshop-dev failed at step link_billing', detail: 'no billing account', urgency: 1, project_request: { id, state: 'Failed' } });
  t.match(items.find((i) => i.kind === 'license_order_failed'), { detail: 'Google refused', urgency: 1, license_order: { status: 'Failed' } });
  t.match(items.find((i) => i.kind === 'sync_failing' && i.link === '/workspacelicense'), { what: 'License sync failed', detail: 'Workspace refused' });

  await app.pg.query(`UPDATE license SET synced_at = now() WHERE customer_id = 'acme-corp'`);
  app.operationsInbox.invalidate();
  t.notOk((await get()).some((i) => i.kind === 'sync_failing'), 'a later successful sync resolves it');
});

t.test('FIRST_RESPONSE_TARGETS: hours per priority, every priority once', async (t) => {
  t.same(loadConfig({}).FIRST_RESPONSE_TARGETS, { P1: 60, P2: 240, P3: 1440, P4: 2880 }, 'the spec’s buckets by default, in minutes');
  t.same(loadConfig({ FIRST_RESPONSE_TARGETS: 'P4=72h, P3=8h,P2=2h,P1=1h' }).FIRST_RESPONSE_TARGETS, { P1: 60, P2: 120, P3: 480, P4: 4320 });
  for (const bad of ['P1=1h,P2=4h,P3=24h', 'P1=1h,P1=2h,P3=24h,P4=48h', 'P1=0h,P2=4h,P3=24h,P4=48h', 'P1=30m,P2=4h,P3=24h,P4=48h']) {
    t.throws(() => loadConfig({ FIRST_RESPONSE_TARGETS: bad }), /FIRST_RESPONSE_TARGETS must/, bad);
  }
  t.throws(() => loadConfig({ PROVIDER_CURRENCY: 'JPY' }), /PROVIDER_CURRENCY must be one of EUR, GBP, USD, DKK/);
});

t.test('a shorter target lists a ticket sooner', async (t) => {
  const app = await build(t, { config: { FIRST_RESPONSE_TARGETS: { P1: 60, P2: 240, P3: 1440, P4: 60 } } });
  const admin = await login(app, 'admin@commandcenter.local');
  await app.pg.query(
    `INSERT INTO ticket (id, customer_id, summary, description, priority, status, created_at, created_by)
     VALUES ('00000000-0000-4000-8000-000000000004', 'globex', 'Question', 'x', 'P4', 'Open', now() - interval '2 hours', 'alice@acme.example')`,
  );
  const res = (await app.inject({ method: 'GET', url: '/v1/operations/inbox?kind=ticket_first_response_overdue', headers: bearer(admin) })).json() as InboxAnswer;
  t.same(res.items.map((i) => i.what), ['P4 ticket Question awaits a first response'], 'P4 set to 1 h: a 2-hour-old P4 ticket is listed');
});
