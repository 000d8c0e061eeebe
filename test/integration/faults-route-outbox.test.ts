/**
 * Faults: the write routes that accept work — a ticket, a project request and its approval, a license and a
 * seat order — while Redis is away, and the route's domain rows and the work they owe written in one transaction.
 *  - Redis killed: each route answers as usual (the work is an outbox row in the route's own transaction); after
 *    Redis returns, a worker runs every piece once: the ticket synced, the project created, each e-mail sent once.
 *  - The outbox insert forced to fail: the route's domain rows roll back with it (no ticket, no approval).
 *  - A provisioning worker "dies" right after the COMMIT that marks a request Active: the e-mail, written in
 *    that transaction, is queued by another worker's reconciler and sent once.
 */
import t from 'tap';
import { randomUUID } from 'node:crypto';
import { build, login, bearer } from '../helper.ts';
import { privateRedis, sleep, startWorkerProcess, waitFor } from '../faults.ts';
import { buildHandlers } from '../../workers/src/handlers.ts';
import { localProvisioning } from '@cc/shared/adapters/provisioning/local.ts';
import type { JobFor } from '@cc/shared/queues.ts';

const PROJECT = { customer_id: 'acme-corp', bu: 'retail', product: 'webshop', env: 'dev', owner_value: 'alice', template_name: 'Standard analytics project' };
const SKU = '1010020028';

t.test('Redis away: a ticket, a project approval, a license and an order are accepted durably and done once', async (t) => {
  const redis = await privateRedis(t);
  const app = await build(t, { config: { REDIS_URL: redis.url } });
  const { pool, config } = app.env;
  const [alice, admin] = [bearer(await login(app, 'alice@acme.example')), bearer(await login(app, 'admin@commandcenter.local'))];
  const requested = await app.inject({ method: 'POST', url: '/v1/asset-inventory/project/create', headers: alice, payload: PROJECT });
  t.equal(requested.statusCode, 201, requested.body);
  const requestId = requested.json().id as string;

  await redis.stop('SIGKILL');
  const ticketId = randomUUID();
  const ticket = { id: ticketId, customer: 'acme-corp', summary: 'Outage ticket', description: 'raised while Redis was away', priority: 'P3' };
  const raised = await app.inject({ method: 'POST', url: '/v1/jira/msp_tickets', headers: alice, payload: ticket });
  t.equal(raised.statusCode, 201, `ticket: ${raised.body}`);
  const again = await app.inject({ method: 'POST', url: '/v1/jira/msp_tickets', headers: alice, payload: ticket });
  t.equal(again.statusCode, 200, 'the client\'s retry is the same ticket');
  const approved = await app.inject({ method: 'POST', url: '/v1/projectprovisioning/acme-corp/approve', headers: admin, payload: { ids: [requestId] } });
  t.equal(approved.statusCode, 200, approved.body);
  t.equal(approved.json().approved.length, 1, 'approved');
  const license = await app.inject({ method: 'PUT', url: '/v1/licenses/acme.example', headers: alice, payload: { sku_id: SKU, threshold: 5, auto_order: false, new_order: 1 } });
  t.equal(license.statusCode, 201, `license: ${license.body}`);
  const order = await app.inject({ method: 'PUT', url: '/v1/licenses/orders/acme.example', headers: alice, payload: { sku_id: SKU, customer_id: 'acme-corp', order_amount: 2, comment: 'outage' } });
  t.equal(order.statusCode, 201, `order: ${order.body}`);

  const { rows: pending } = await pool.query<{ queue: string; job_id: string }>('SELECT queue, job_id FROM outbox WHERE published_at IS NULL ORDER BY id');
  t.same(pending.map((r) => r.queue), ['ticket-sync', 'notify', 'provisioning', 'notify', 'license'], 'each piece of work recorded in the outbox, pending');
  t.comment(`accepted during the outage: ${pending.length} outbox rows (${pending.map((r) => r.job_id).join(', ')})`);

  await sleep(1000);
  await redis.start();
  const worker = await startWorkerProcess(t, config, redis.url, {
    WORKER_QUEUES: 'ticket-sync,provisioning,notify,license',
    PROVISIONING_LOCAL_DELAY_MS: '50',
    PROVISIONING_POLL_INTERVAL_MS: '50',
  });
  await waitFor('the ticket synced', async () => (await pool.query('SELECT jira_key FROM ticket WHERE id = $1', [ticketId])).rows[0]?.jira_key, 60_000, 100);
  await waitFor('the project Active', async () => (await pool.query(`SELECT 1 FROM project_request WHERE id::text = $1 AND state = 'Active'`, [requestId])).rowCount === 1, 90_000, 100);
  const keys = [`ticket-created-${ticketId}`, `provisioning-approved-${requestId}`, `provisioning-active-${requestId}`];
  await waitFor('the three e-mails', async () => (await pool.query('SELECT 1 FROM mail_sent WHERE key = ANY($1)', [keys])).rowCount === 3, 60_000, 100);
  await waitFor('every outbox row done', async () => (await pool.query('SELECT 1 FROM outbox WHERE done_at IS NULL')).rowCount === 0, 60_000, 100);
  await sleep(3000); // room for a wrong second run

  const { rows: [m] } = await pool.query<{ n: number; ids: number }>('SELECT count(*)::int AS n, count(DISTINCT message_id)::int AS ids FROM mail_message');
  t.comment(`e-mails owed 3, sent ${m.ids}, duplicated ${m.n - m.ids}`);
  t.same([m.n, m.ids], [3, 3], 'each e-mail sent once');
  t.equal((await pool.query('SELECT 1 FROM ticket WHERE id = $1', [ticketId])).rowCount, 1, 'one ticket');
  t.equal((await pool.query(`SELECT 1 FROM license_order WHERE customer_id = 'acme-corp' AND comment = 'outage'`)).rowCount, 1, 'one order');
  t.equal((await pool.query('SELECT 1 FROM outbox WHERE published_at IS NULL')).rowCount, 0, 'nothing left pending');
  t.ok(worker.alive());
});

t.test('the outbox insert fails: the route\'s own rows roll back with it', async (t) => {
  const app = await build(t);
  const { pool } = app.env;
  const [alice, admin] = [bearer(await login(app, 'alice@acme.example')), bearer(await login(app, 'admin@commandcenter.local'))];
  await pool.query(`CREATE FUNCTION refuse_outbox() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'outbox refused (test)'; END $$`);
  await pool.query(`CREATE TRIGGER refuse_outbox BEFORE INSERT ON outbox FOR EACH ROW WHEN (NEW.queue IN ('ticket-sync', 'provisioning')) EXECUTE FUNCTION refuse_outbox()`);

  const ticketId = randomUUID();
  const raised = await app.inject({ method: 'POST', url: '/v1/jira/msp_tickets', headers: alice, payload: { id: ticketId, customer: 'acme-corp', summary: 'Doomed', description: 'x', priority: 'P3' } });
  t.equal(raised.statusCode, 500, 'the write failed');
  t.equal((await pool.query('SELECT 1 FROM ticket WHERE id = $1', [ticketId])).rowCount, 0, 'no ticket without its sync');

  const requested = await app.inject({ method: 'POST', url: '/v1/asset-inventory/project/create', headers: alice, payload: PROJECT });
  const requestId = requested.json().id as string;
  const approved = await app.inject({ method: 'POST', url: '/v1/projectprovisioning/acme-corp/approve', headers: admin, payload: { ids: [requestId] } });
  t.equal(approved.statusCode, 500, 'the approval failed');
  const { rows: [r] } = await pool.query<{ state: string }>('SELECT state FROM project_request WHERE id::text = $1', [requestId]);
  t.equal(r.state, 'Pending approval', 'no approval without its job');
  t.equal((await pool.query('SELECT 1 FROM outbox')).rowCount, 0, 'and no orphan row');
});

t.test('a provisioning worker dies right after the COMMIT that marks Active: the e-mail is sent once all the same', async (t) => {
  const redis = await privateRedis(t);
  const app = await build(t, { config: { REDIS_URL: redis.url } });
  const { pool, config } = app.env;
  const [alice, admin] = [bearer(await login(app, 'alice@acme.example')), bearer(await login(app, 'admin@commandcenter.local'))];
  const requestId = (await app.inject({ method: 'POST', url: '/v1/asset-inventory/project/create', headers: alice, payload: PROJECT })).json().id as string;
  await app.inject({ method: 'POST', url: '/v1/projectprovisioning/acme-corp/approve', headers: admin, payload: { ids: [requestId] } });

  // The job runs here; the process is "dead" from its COMMIT on: nothing after it can reach Redis or PostgreSQL.
  const dead = async () => {
    throw new Error('the process died after COMMIT');
  };
  const handlers = buildHandlers(['provisioning'], {
    pool,
    provisioning: { cloud: localProvisioning(pool, { operationDelayMs: 20 }), cpuRegion: 'europe-west1', pollIntervalMs: 20, maxPolls: 100 },
    enqueue: dead,
    publicUrl: 'http://cc.test',
  });
  const job = { data: { request_id: requestId }, attemptsMade: 0, opts: { attempts: 5 } } as unknown as JobFor<'provisioning'>;
  t.match(await handlers.provisioning!(job), { state: 'Active' }, 'the request ended Active');
  const { rows: owed } = await pool.query<{ job_id: string; published: boolean }>(`SELECT job_id, published_at IS NOT NULL AS published FROM outbox WHERE queue = 'notify' ORDER BY id`);
  t.same(owed.at(-1), { job_id: `notify-provisioning-active-${requestId}`, published: false }, 'the Active e-mail committed with the state, not yet queued');

  await startWorkerProcess(t, config, redis.url, { WORKER_QUEUES: 'notify' });
  const subject = 'Project acme-retail-webshop-dev successfully created';
  await waitFor('the Active e-mail', async () => (await pool.query('SELECT 1 FROM mail_message WHERE subject = $1', [subject])).rowCount === 1, 60_000, 100);
  await sleep(3000);
  t.equal((await pool.query('SELECT 1 FROM mail_message WHERE subject = $1', [subject])).rowCount, 1, 'sent once');
});
