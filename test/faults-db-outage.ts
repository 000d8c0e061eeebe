/**
 * The scenario of test/integration/faults-db-outage-*.test.ts (one file per kind of outage, so they run side by side):
 * a PostgreSQL outage of any length loses no accepted work. 200 invitations (answered 201) and an ingest (queued)
 * are being worked on by a worker process when its database goes away for FAULT_OUTAGE_MS (default 30 s; run it
 * once with FAULT_OUTAGE_MS=300000 for the 5-minute case):
 *  - "proxy": the TCP proxy between the worker and PostgreSQL is killed (connections cut, new ones refused);
 *  - "refuse": the database refuses connections (ALLOW_CONNECTIONS false) and its backends are terminated.
 * Afterwards every invitation is sent exactly once, the ingest succeeded once with every row, no job failed, and
 * the attempts the outage interrupted were deferred, not spent. Prints owed / sent / duplicated / lost.
 */
import type { Test } from 'tap';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createProducer } from '@cc/shared/producer.ts';
import { durableEnqueue } from '@cc/shared/outbox.ts';
import { build, login, bearer } from './helper.ts';
import { freePort, privateRedis, sleep, startWorkerProcess, waitFor, writeFocusFile } from './faults.ts';
import { databaseSwitch, pgProxy } from './faults-db.ts';

const OUTAGE_MS = Number(process.env.FAULT_OUTAGE_MS ?? 30_000);
const INVITES = 200;
const ROWS = 30_000;
const ACCOUNT = '01A2B3-C4D5E6-F7A8B9';
const SUBJECT = 'You are invited to CommandCenter';

export type Outage = 'proxy' | 'refuse';

export async function outageScenario(t: Test, outage: Outage) {
  const redis = await privateRedis(t);
  const app = await build(t, { config: { REDIS_URL: redis.url } });
  const { pool, config } = app.env;
  const proxy = await pgProxy(t, config.DATABASE_URL);
  const db = await databaseSwitch(t, config.DATABASE_URL);
  const dir = await mkdtemp(join(tmpdir(), 'cc-outage-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const focus = await writeFocusFile(dir, 'september.csv', ROWS);

  // Accepted before the worker starts, so the outage finds both the e-mails and the ingest under way.
  const admin = bearer(await login(app, 'admin@commandcenter.local'));
  const emails = Array.from({ length: INVITES }, (_, i) => `outage-${outage}-${i}@initech.example`);
  for (let i = 0; i < INVITES; i += 20) {
    const res = await app.inject({ method: 'POST', url: '/v1/users/', headers: admin, payload: { role: 'customer', emails: emails.slice(i, i + 20).join(','), customers: ['initech'] } });
    t.equal(res.statusCode, 201, res.statusCode === 201 ? `invitations ${i + 1}–${i + 20} answered 201` : res.body);
  }
  const producer = createProducer(redis.url, config.QUEUE_PREFIX, () => undefined);
  t.teardown(() => producer.close());
  await durableEnqueue(pool, producer)('billing-ingest', 'billing.ingest', { customer_id: 'acme-corp', billing_account_id: ACCOUNT, source: 'focus-file', file: focus.file });

  const metricsPort = await freePort();
  // No worker is killed here: locks as long as production's (not FAST_FAULTS' 1.5 s, which a loaded 2-core machine can
  // miss, handing a live job to a second run — a kill test's concern, not this one's).
  const worker = await startWorkerProcess(t, config, redis.url, {
    DATABASE_URL: proxy.url,
    WORKER_QUEUES: 'notify,billing-ingest',
    WORKER_METRICS_PORT: String(metricsPort),
    WORKER_LOCK_MS: '30000',
    WORKER_STALLED_CHECK_MS: '15000',
  });
  await waitFor('the ingest to start', async () => (await pool.query(`SELECT 1 FROM ingest_batch WHERE status = 'running'`)).rowCount, 120_000, 20).catch(async (err: Error) => {
    const { rows } = await pool.query('SELECT status, error FROM ingest_batch');
    throw new Error(`${err.message}; batches ${JSON.stringify(rows)}; worker output:\n${worker.output()}`);
  });
  const sentBefore = (await pool.query(`SELECT 1 FROM mail_message WHERE subject = $1`, [SUBJECT])).rowCount ?? 0;

  if (outage === 'proxy') await proxy.kill();
  else await db.refuseConnections();
  const started = Date.now();
  await sleep(OUTAGE_MS);
  if (outage === 'proxy') await proxy.start();
  else await db.allowConnections();
  t.comment(`${outage} outage of ${Math.round((Date.now() - started) / 1000)} s; ${sentBefore} of ${INVITES} e-mails had gone out before it`);

  const ingested = () => pool.query(`SELECT 1 FROM ingest_batch WHERE status = 'succeeded'`).then((r) => (r.rowCount ?? 0) > 0);
  const sent = () => pool.query<{ n: number }>(`SELECT count(DISTINCT r)::int AS n FROM mail_message, unnest(rcpt_to) r WHERE subject = $1`, [SUBJECT]).then((r) => r.rows[0].n);
  await waitFor('every e-mail and the ingest', async () => (await sent()) === INVITES && (await ingested()), 150_000, 250).catch((err: Error) => t.fail(err.message));
  await sleep(3000); // room for a wrong second run

  const { rows: [m] } = await pool.query<{ messages: number; recipients: number }>(
    `SELECT count(*)::int AS messages, count(DISTINCT r)::int AS recipients FROM mail_message, unnest(rcpt_to) r WHERE subject = $1 AND r = ANY($2)`,
    [SUBJECT, emails],
  );
  const { rows: batches } = await pool.query<{ status: string; n: number }>('SELECT status, count(*)::int AS n FROM ingest_batch GROUP BY status ORDER BY status');
  const { rows: [lines] } = await pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM cost_line WHERE billing_account_id = $1`, [ACCOUNT]);
  const failed = { notify: await producer.queues.notify.getFailedCount(), 'billing-ingest': await producer.queues['billing-ingest'].getFailedCount() };
  const metrics = await fetch(`http://127.0.0.1:${metricsPort}/metrics`).then((r) => r.text()).catch(() => '');
  const deferrals = metrics.split('\n').filter((l) => l.startsWith('cc_job_deferrals_total{'));
  const succeeded = batches.find((b) => b.status === 'succeeded')?.n ?? 0;
  t.comment(
    `${outage}, ${OUTAGE_MS / 1000} s: e-mails owed ${INVITES}, sent ${m.recipients}, duplicated ${m.messages - m.recipients}, lost ${INVITES - m.recipients}; ` +
      `ingest completed ${succeeded}× (${lines.n} of ${focus.rows} rows), batches ${JSON.stringify(batches)}; failed jobs ${JSON.stringify(failed)}; ${deferrals.join(', ') || 'no deferrals'}`,
  );
  if (m.messages !== m.recipients || succeeded !== 1) {
    const dups = await pool.query(
      `SELECT r, array_agg(message_id ORDER BY id) AS ids, array_agg(received_at ORDER BY id) AS at FROM mail_message, unnest(rcpt_to) r WHERE subject = $1 GROUP BY r HAVING count(*) > 1`,
      [SUBJECT],
    );
    const intents = await pool.query(`SELECT key, attempts, attempted_at, data_at, sent_at, uncertain_at FROM mail_intent WHERE recipients && $1::text[]`, [dups.rows.map((d) => d.r)]);
    const outbox = await pool.query(`SELECT queue, job_id, publish_count, published_at, done_at, last_error FROM outbox WHERE queue = 'billing-ingest' OR publish_count > 1`);
    const all = await pool.query('SELECT id, status, started_at, finished_at, error FROM ingest_batch ORDER BY id');
    t.comment(`DEBUG dups ${JSON.stringify(dups.rows)}\nintents ${JSON.stringify(intents.rows)}\noutbox ${JSON.stringify(outbox.rows)}\nbatches ${JSON.stringify(all.rows)}`);
    t.comment(`DEBUG worker: ${worker.output().split('\n').filter((l) => /failed|stalled|reconciler|error/i.test(l)).slice(-40).join('\n')}`);
  }
  t.equal(m.recipients, INVITES, 'every invitation sent');
  t.equal(m.messages, INVITES, 'each once');
  t.equal(succeeded, 1, 'the ingest completed once');
  t.equal(lines.n, focus.rows, 'with every row once');
  t.same(failed, { notify: 0, 'billing-ingest': 0 }, 'no job given up');
  t.ok(deferrals.length > 0, 'the outage deferred attempts instead of spending them');
  t.ok(worker.alive(), 'the worker stayed up');
}

