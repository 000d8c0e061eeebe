/**
 * The other routes that write and then queue, with Redis away (the ticket, approval and license routes:
 * faults-route-outbox.test.ts):
 *  - inviting users, turning an access-list address into a user, resending an invitation: the users, links and their
 *    e-mails commit in one transaction (the e-mails as outbox rows); each answers as usual, a retried invitation finds
 *    the users and records nothing more, and after Redis returns each e-mail is sent once (the resent link works);
 *  - a ticket comment is stored and its ticket left pending for the ticket sync's pull;
 *  - the routes that only queue work (ingest, inventory sync, monitoring) refuse with 503 and write nothing, and are
 *    accepted on the retry;
 *  - Redis lost between a route's outbox insert and its add: the route answers 202 and the reconciler queues the job.
 */
import t from 'tap';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build, login, bearer } from '../helper.ts';
import { privateRedis, sleep, startWorkerProcess, waitFor, writeFocusFile } from '../faults.ts';
import { publishPending } from '../../workers/src/reliability/reconciler.ts';

t.test('Redis away: users, user update and resend commit with their e-mails (each sent once later); routes that only queue refuse with nothing written', async (t) => {
  const redis = await privateRedis(t);
  const dir = await mkdtemp(join(tmpdir(), 'cc-drop-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const focus = await writeFocusFile(dir, 'september.csv', 50);
  const app = await build(t, { config: { REDIS_URL: redis.url, INGEST_DROP_DIR: dir } });
  const { pool, config } = app.env;
  const [alice, admin] = [bearer(await login(app, 'alice@acme.example')), bearer(await login(app, 'admin@commandcenter.local'))];
  const invite = (emails: string) => app.inject({ method: 'POST', url: '/v1/users/', headers: admin, payload: { role: 'customer', emails, customers: ['initech'] } });
  t.equal((await invite('resend@initech.example')).statusCode, 201, 'invited while Redis is up');
  await pool.query(`INSERT INTO customer_member (customer_id, list, user_id) VALUES ('initech', 'users', 'listed@initech.example')`);
  const ticketKey = randomUUID();
  const ticket = await app.inject({ method: 'POST', url: '/v1/jira/msp_tickets', headers: alice, payload: { id: ticketKey, customer: 'acme-corp', summary: 'Before', description: 'x', priority: 'P3' } });
  t.equal(ticket.statusCode, 201, 'a ticket raised while Redis is up');
  const rowsBefore = Number((await pool.query('SELECT count(*) FROM outbox')).rows[0].count);

  await redis.stop('SIGKILL');
  const invited = await invite('new1@initech.example,new2@initech.example');
  t.equal(invited.statusCode, 201, `POST /v1/users/: ${invited.body.slice(0, 200)}`);
  const retried = await invite('new1@initech.example,new2@initech.example');
  t.same([retried.statusCode, retried.json()], [400, { detail: 'E-mail already exists: new1@initech.example, new2@initech.example' }], 'a retry finds the users: they exist once, with their e-mails owed');
  const resent = await app.inject({ method: 'POST', url: '/v1/users/resend@initech.example/invitation/', headers: admin });
  t.equal(resent.statusCode, 202, `resend: ${resent.body}`);
  const updated = await app.inject({ method: 'PUT', url: '/v1/users/listed@initech.example/', headers: admin, payload: { role: 'customer', email: 'listed@initech.example', customers: ['initech'] } });
  t.equal(updated.statusCode, 200, `PUT /v1/users/:id/: ${updated.body.slice(0, 200)}`);
  const comment = await app.inject({ method: 'POST', url: `/v1/jira/msp_tickets/${ticketKey}/comment`, headers: alice, payload: { message: 'said while Redis was away' } });
  t.equal(comment.statusCode, 201, `comment: ${comment.body}`);
  t.match((await pool.query('SELECT sync_state FROM ticket WHERE id::text = $1', [ticketKey])).rows[0], { sync_state: 'pending' }, 'the comment waits for the ticket sync, which the periodic pull runs');

  const ingest = { customer_id: 'acme-corp', billing_account_id: '01A2B3-C4D5E6-F7A8B9', source: 'focus-file', file: 'september.csv' };
  const refusals = [
    await app.inject({ method: 'POST', url: '/v2/billing/ingest', headers: admin, payload: ingest }),
    await app.inject({ method: 'POST', url: '/v1/asset-inventory/acme-corp/sync', headers: admin }),
    await app.inject({ method: 'POST', url: '/v1/monitoring/acme-corp/', headers: admin }),
  ];
  t.same(refusals.map((r) => r.statusCode), [503, 503, 503], 'the routes that only queue work refuse');
  t.match(refusals[0].json(), { detail: /temporarily unavailable/ });
  const { rows: owed } = await pool.query<{ queue: string; to: string }>(`SELECT queue, data->'to'->>0 AS to FROM outbox WHERE id > $1 ORDER BY id`, [rowsBefore]);
  t.same(owed.map((r) => `${r.queue}:${r.to ?? ''}`), ['notify:new1@initech.example', 'notify:new2@initech.example', 'notify:resend@initech.example', 'notify:listed@initech.example'], 'each e-mail recorded once with its change; nothing for the refusals');

  await redis.start();
  await startWorkerProcess(t, config, redis.url, { WORKER_QUEUES: 'notify' });
  const subject = 'You are invited to CommandCenter';
  const everyone = ['new1@initech.example', 'new2@initech.example', 'resend@initech.example', 'listed@initech.example'];
  await waitFor('the invitations', async () => (await pool.query(`SELECT 1 FROM mail_message WHERE subject = $1`, [subject])).rowCount === 5, 60_000, 100);
  await sleep(3000); // room for a wrong second run
  const { rows: mails } = await pool.query<{ to: string; n: number }>(
    `SELECT r AS to, count(*)::int AS n FROM mail_message, unnest(rcpt_to) r WHERE subject = $1 GROUP BY r ORDER BY r`,
    [subject],
  );
  t.comment(`e-mails owed 5 (resend@ twice: invited, then resent), sent ${mails.reduce((n, m) => n + m.n, 0)}: ${JSON.stringify(mails)}`);
  t.same(mails, everyone.sort().map((to) => ({ to, n: to === 'resend@initech.example' ? 2 : 1 })), 'each once; the resent link once more');
  const { rows: [last] } = await pool.query<{ text_body: string }>(`SELECT text_body FROM mail_message WHERE 'resend@initech.example' = ANY(rcpt_to) ORDER BY id DESC LIMIT 1`);
  const token = /\/invitation\/([A-Za-z0-9_-]+)/.exec(last.text_body)![1];
  t.equal((await app.inject({ method: 'GET', url: `/v1/invitations/${token}` })).statusCode, 200, 'the link sent during the outage is the one that works');

  const retries = [
    await app.inject({ method: 'POST', url: '/v2/billing/ingest', headers: admin, payload: ingest }),
    await app.inject({ method: 'POST', url: '/v1/asset-inventory/acme-corp/sync', headers: admin }),
  ];
  t.same(retries.map((r) => r.statusCode), [202, 202], 'their retry is accepted once Redis is back');
  t.ok(focus.rows > 0);
});

t.test('Redis lost between the outbox insert and the add: the route answers 202 and the reconciler queues the job', async (t) => {
  const redis = await privateRedis(t);
  const dir = await mkdtemp(join(tmpdir(), 'cc-drop-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  await writeFocusFile(dir, 'september.csv', 50);
  const app = await build(t, { config: { REDIS_URL: redis.url, INGEST_DROP_DIR: dir } });
  const { pool } = app.env;
  const admin = bearer(await login(app, 'admin@commandcenter.local'));
  // The insert waits, and Redis dies meanwhile: the add after it fails.
  await pool.query(`CREATE FUNCTION slow_outbox() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN PERFORM pg_sleep(1.5); RETURN NEW; END $$`);
  await pool.query(`CREATE TRIGGER slow_outbox BEFORE INSERT ON outbox FOR EACH ROW EXECUTE FUNCTION slow_outbox()`);
  const answer = app.inject({ method: 'POST', url: '/v2/billing/ingest', headers: admin, payload: { customer_id: 'acme-corp', billing_account_id: '01A2B3-C4D5E6-F7A8B9', source: 'focus-file', file: 'september.csv' } });
  await sleep(500);
  await redis.stop('SIGKILL');
  const res = await answer;
  t.equal(res.statusCode, 202, res.body);
  const jobId = res.json().job_id as string;
  t.match((await pool.query('SELECT published_at FROM outbox WHERE job_id = $1', [jobId])).rows, [{ published_at: null }], 'recorded, pending');
  await pool.query('DROP TRIGGER slow_outbox ON outbox');

  await redis.start();
  await waitFor('the api to reconnect', async () => app.producers.redis.status === 'ready', 30_000, 100);
  t.equal(await publishPending({ pool, producer: app.producers }), 1, 'a reconciler pass queues it');
  t.equal((await pool.query('SELECT 1 FROM outbox WHERE job_id = $1 AND published_at IS NOT NULL', [jobId])).rowCount, 1, 'published');
  const job = await app.producers.queues['billing-ingest'].getJob(jobId);
  t.ok(job, 'the ingest job is in its queue');
});
