/**
 * Fault: Redis killed (-9) mid-queue and started again from its append-only file. Every e-mail and
 * ingest accepted before or during the outage is recorded in the PostgreSQL outbox; after Redis returns, every
 * accepted e-mail is sent exactly once and every accepted ingest completes. While Redis is away, /readyz and the
 * ingest route answer 503 with {detail}.
 */
import t from 'tap';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build, login, bearer } from '../helper.ts';
import { createProducer } from '@cc/shared/producer.ts';
import { durableEnqueue } from '@cc/shared/outbox.ts';
import { privateRedis, sleep, startWorkerProcess, waitFor, writeFocusFile } from '../faults.ts';

const BEFORE = 300;
const DURING = 100;
const ACME = { customer_id: 'acme-corp', billing_account_id: '01A2B3-C4D5E6-F7A8B9' };
const GLOBEX = { customer_id: 'globex', billing_account_id: '02B3C4-D5E6F7-A8B9C0' };

t.test('Redis restarted mid-queue: every accepted e-mail sent once, every accepted ingest completed', async (t) => {
  const dropDir = await mkdtemp(join(tmpdir(), 'cc-drop-'));
  t.teardown(() => rm(dropDir, { recursive: true, force: true }));
  const redis = await privateRedis(t);
  const app = await build(t, { config: { REDIS_URL: redis.url, INGEST_DROP_DIR: dropDir } });
  const { pool, config } = app.env;
  const admin = bearer(await login(app, 'admin@commandcenter.local'));
  await writeFocusFile(dropDir, 'acme.csv', 3_000, 'EUR');
  await writeFocusFile(dropDir, 'globex.csv', 3_000, 'USD');

  const mail = (i: number) => ({ to: [`user${i}@example.test`], subject: `Notice ${i}`, text: `Notice number ${i}.`, key: `fault-notice-${i}` });
  for (let i = 0; i < BEFORE; i++) await app.producers.enqueue('notify', 'notify.send', mail(i));
  const accepted = await app.inject({ method: 'POST', url: '/v2/billing/ingest', headers: admin, payload: { ...ACME, source: 'focus-file', file: 'acme.csv' } });
  t.equal(accepted.statusCode, 202, accepted.body);

  const worker = await startWorkerProcess(t, config, redis.url, { WORKER_QUEUES: 'notify,billing-ingest' });
  const sent = async () => (await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM mail_message')).rows[0].n;
  await waitFor('some e-mails out', async () => (await sent()) >= 30, 60_000, 20);

  await redis.stop('SIGKILL');
  const atKill = await sent();
  t.comment(`Redis killed after ${atKill} of ${BEFORE} e-mails`);
  const ready = await app.inject({ method: 'GET', url: '/readyz' });
  t.equal(ready.statusCode, 503, '/readyz: 503 while Redis is away');
  const refused = await app.inject({ method: 'POST', url: '/v2/billing/ingest', headers: admin, payload: { ...GLOBEX, source: 'focus-file', file: 'globex.csv' } });
  t.equal(refused.statusCode, 503, 'the ingest route answers 503, not 500');
  t.match(refused.json(), { detail: /temporarily unavailable/ });
  // A worker's follow-ups during the outage (alert notices, anomaly e-mails) are recorded all the same.
  const workerSide = createProducer(redis.url, config.QUEUE_PREFIX, () => undefined);
  t.teardown(() => workerSide.close());
  const followUp = durableEnqueue(pool, workerSide);
  for (let i = BEFORE; i < BEFORE + DURING; i++) await followUp('notify', 'notify.send', mail(i));
  await followUp('billing-ingest', 'billing.ingest', { ...GLOBEX, source: 'focus-file', file: join(dropDir, 'globex.csv') });
  await sleep(2000);
  await redis.start();
  t.comment(`Redis back after the outage; ${await sent()} e-mails sent so far`);

  const total = BEFORE + DURING;
  await waitFor('every accepted e-mail', async () => (await sent()) >= total, 120_000, 200);
  await waitFor('both ingests', async () => (await pool.query<{ n: number }>(`SELECT count(DISTINCT billing_account_id)::int AS n FROM ingest_batch WHERE status = 'succeeded'`)).rows[0].n === 2, 120_000, 200);
  // Long enough for a wrongly re-queued job to send a duplicate (the lost-job check runs every 200 ms after 2 s).
  await sleep(3000);
  const { rows: [m] } = await pool.query<{ n: number; distinct_ids: number; distinct_rcpt: number }>(
    `SELECT count(*)::int AS n, count(DISTINCT message_id)::int AS distinct_ids, count(DISTINCT rcpt_to[1])::int AS distinct_rcpt FROM mail_message`);
  t.comment(`e-mails accepted ${total}, sent ${m.distinct_ids}, duplicated ${m.n - m.distinct_ids}`);
  t.equal(m.n, total, 'every accepted e-mail sent');
  t.equal(m.distinct_ids, total, 'none twice (one Message-ID each)');
  t.equal(m.distinct_rcpt, total, 'one per recipient');
  const { rows: [i] } = await pool.query<{ unsent: number }>('SELECT count(*) FILTER (WHERE sent_at IS NULL)::int AS unsent FROM mail_intent');
  t.equal(i.unsent, 0, 'every intent marked sent');
  t.ok(worker.alive(), 'the worker rode out the outage');
  const { rows: [o] } = await pool.query<{ open: number }>(`SELECT count(*) FILTER (WHERE published_at IS NULL)::int AS open FROM outbox`);
  t.equal(o.open, 0, 'nothing left pending in the outbox');
});
