/**
 * Anomaly detection over hand-written daily rollups: the rule's edges (threshold equality, zero mean, cold start,
 * spend moving between services), storage (a re-run replaces), the e-mail (once), and the api (validation, tenants,
 * viewer filters).
 */
import t from 'tap';
import { QueueEvents } from 'bullmq';
import type { JobFor } from '@cc/shared/queues.ts';
import type { Pool } from '@cc/shared/db/pool.ts';
import { addDays } from '@cc/shared/time.ts';
import { anomalyDetectHandler } from '../../workers/src/jobs/anomaly-detect.ts';
import { buildHandlers } from '../../workers/src/handlers.ts';
import { startWorkers } from '../../workers/src/worker-host.ts';
import { startLocalSmtpServer } from '@cc/shared/adapters/mail/local-smtp-server.ts';
import { smtpMailer } from '@cc/shared/adapters/mail/smtp-mailer.ts';
import { build, login, bearer } from '../helper.ts';
import { REDIS_URL } from '../db.ts';
import { jobOutcomes } from '../job-outcomes.ts';

const ACME = 'acme-corp';
const ACCOUNT = '01A2B3-C4D5E6-F7A8B9';
const DAY = '2026-10-30';

/** Daily spend of one project x service series: `history` per day for `days` days before DAY, `latest` on DAY. */
async function series(pool: Pool, project: string, service: string, history: string, days: number, latest: string | null) {
  for (let i = 1; i <= days; i++) await costRow(pool, addDays(DAY, -i), project, service, history);
  if (latest !== null) await costRow(pool, DAY, project, service, latest);
}

async function costRow(pool: Pool, day: string, project: string, service: string, cost: string) {
  await pool.query(
    `INSERT INTO cost_daily (customer_id, billing_account_id, usage_date, provider, provider_name, project_id, project_name, service, cost, credits, currency)
     VALUES ($1, $2, $3, 'gcp', 'Google Cloud', $4, $4, $5, $6, 0, 'EUR')`,
    [ACME, ACCOUNT, day, project, service, cost],
  );
}

const anomalyUrl = (c: string, b: string, date: string, perc: string, value: string) =>
  `/v1/anomalies/customer_id/${c}/billing_account_id/${b}/date/${date}/minimum_anomaly_threshold/${perc}/minimum_value_toggled_anomaly/${value}`;

const runDetection = (app: Awaited<ReturnType<typeof build>>, data: { customer_id?: string; date?: string }) =>
  anomalyDetectHandler({
    pool: app.env.pool,
    enqueue: app.producers.enqueue,
    publicUrl: 'http://cc.test',
  })({ data } as JobFor<'anomaly-detect'>);

t.test('detection: edges of the rule, storage, e-mail once, api', async (t) => {
  const app = await build(t);
  const { pool, config } = app.env;

  await series(pool, 'p-steady', 'Compute Engine', '100', 28, '100');
  // +20 on a mean of 100: exactly 20 % and 20 money.
  await series(pool, 'p-spike', 'Compute Engine', '100', 28, '120');
  // Zero mean: rows exist for 28 days at 0, then 50.
  await series(pool, 'p-zero', 'Cloud Storage', '0', 28, '50');
  // Cold start: three days of history only.
  await series(pool, 'p-cold', 'BigQuery', '10', 3, '500');
  // Spend moves from Compute to Storage: the project's total does not change.
  await series(pool, 'p-shift', 'Compute Engine', '100', 28, '0');
  await series(pool, 'p-shift', 'Cloud Storage', '100', 28, '200');
  // A young series (10 days) is judged over the days it exists: mean 30, not 30*10/28.
  await series(pool, 'p-young', 'Cloud Run', '30', 10, '45');
  // Rose a little (5 %, +5): stored as a candidate for lower thresholds, not flagged.
  await series(pool, 'p-small', 'Cloud SQL', '100', 28, '105');

  const first = (await runDetection(app, { customer_id: ACME, date: DAY })) as { runs: { billing_account_id: string; judged_series: number; cold_start_series: number; flagged: number }[]; notices: number };
  const run = first.runs.find((r) => r.billing_account_id === ACCOUNT)!;
  t.equal(run.judged_series, 7, 'steady, spike, zero, two shift series, young and small are judged');
  t.equal(run.cold_start_series, 1, 'the three-day series is not judged');
  t.equal(run.flagged, 3, 'spike, zero mean and young meet the customer thresholds (20 %, 10)');
  t.equal(first.runs.length, 2, 'both acme accounts have a run');

  const alice = await login(app, 'alice@acme.example');
  const get = (perc: string, value: string, token = alice, date = DAY, c = ACME, b = ACCOUNT) =>
    app.inject({ method: 'GET', url: anomalyUrl(c, b, date, perc, value), headers: bearer(token) });

  t.test('the answer at the customer thresholds', async (t) => {
    const res = await get('20', '10');
    t.equal(res.statusCode, 200);
    const body = res.json();
    t.match(body, { date: DAY, billing_account_id: ACCOUNT, anomaly_detection: true, window_days: 28, min_history_days: 7, judged_series: 7, cold_start_series: 1 });
    t.ok(body.computed_at, 'computed_at is set');
    t.same(body.anomalies, [
      { project_id: 'p-zero', service: 'Cloud Storage', mean_cost: 0, to_date_cost: 50, delta_from_mean_cost_perc: null, currency: 'EUR' },
      { project_id: 'p-spike', service: 'Compute Engine', mean_cost: 100, to_date_cost: 120, delta_from_mean_cost_perc: 20, currency: 'EUR' },
      { project_id: 'p-young', service: 'Cloud Run', mean_cost: 30, to_date_cost: 45, delta_from_mean_cost_perc: 50, currency: 'EUR' },
    ]);
  });

  t.test('threshold equality counts; a hair above does not', async (t) => {
    const ids = async (perc: string, value: string) => ((await get(perc, value)).json().anomalies as { project_id: string }[]).map((a) => a.project_id).sort();
    t.same(await ids('20', '20'), ['p-spike', 'p-zero'], 'increase 20 ≥ 20 money (young rose by 15 only)');
    t.same(await ids('20.01', '10'), ['p-young', 'p-zero'], '20 % < 20.01 %; zero mean has no percentage');
    t.same(await ids('20', '20.01'), ['p-zero'], '20 money < 20.01');
    t.same(await ids('0', '0'), ['p-small', 'p-spike', 'p-young', 'p-zero'], 'shifted spend never shows, even with no thresholds');
    t.same(await ids('5', '5'), ['p-small', 'p-spike', 'p-young', 'p-zero'], 'equality at 5 % and 5');
    t.same(await ids('50', '15'), ['p-young', 'p-zero']);
    t.same(await ids('1000', '50.01'), [], 'zero mean is still judged on money');
  });

  t.test('a re-run of the same day replaces its rows', async (t) => {
    const before = await pool.query('SELECT id, project_id FROM anomaly ORDER BY id');
    // The spike grows: the re-run updates the stored row in place.
    await pool.query(`UPDATE cost_daily SET cost = 130 WHERE project_id = 'p-spike' AND usage_date = $1`, [DAY]);
    await runDetection(app, { customer_id: ACME, date: DAY });
    const after = await pool.query('SELECT id, project_id, to_date_cost::float8 AS v FROM anomaly ORDER BY id');
    t.same(after.rows.map((r) => r.id), before.rows.map((r) => r.id), 'same rows, same ids');
    t.equal(after.rows.find((r) => r.project_id === 'p-spike').v, 130);
    const runs = await pool.query('SELECT count(*)::int AS n FROM anomaly_run WHERE date = $1', [DAY]);
    t.equal(runs.rows[0].n, 2, 'one run per account and day');
    // The spike disappears: its row goes.
    await pool.query(`UPDATE cost_daily SET cost = 100 WHERE project_id = 'p-spike' AND usage_date = $1`, [DAY]);
    await runDetection(app, { customer_id: ACME, date: DAY });
    const gone = await pool.query(`SELECT count(*)::int AS n FROM anomaly WHERE project_id = 'p-spike'`);
    t.equal(gone.rows[0].n, 0);
  });

  t.test('new anomalies are e-mailed once to the alert list', async (t) => {
    const smtp = await startLocalSmtpServer(pool, 0);
    t.teardown(() => smtp.close());
    const mailer = smtpMailer(`smtp://127.0.0.1:${smtp.port}`, config.MAIL_FROM);
    const host = await startWorkers({
      redisUrl: REDIS_URL,
      prefix: config.QUEUE_PREFIX,
      queues: ['notify'],
      handlers: buildHandlers(['notify'], { pool, mailer, mailDomain: 'commandcenter.test' }),
    });
    t.teardown(() => host.close());
    const events = new QueueEvents('notify', { connection: { url: REDIS_URL }, prefix: config.QUEUE_PREFIX });
    t.teardown(() => events.close());
    await events.waitUntilReady();

    // The runs above already e-mailed zero and young (and spike, before it went); run a new day with a fresh spike.
    const next = addDays(DAY, 1);
    await pool.query(
      `INSERT INTO cost_daily (customer_id, billing_account_id, usage_date, provider, provider_name, project_id, project_name, service, cost, credits, currency)
       SELECT customer_id, billing_account_id, $1::date, provider, provider_name, project_id, project_name, service,
              CASE WHEN project_id = 'p-steady' THEN 400 ELSE cost END, credits, currency
         FROM cost_daily WHERE usage_date = $2`,
      [next, DAY],
    );
    const result = (await runDetection(app, { customer_id: ACME, date: next })) as { notices: number };
    t.equal(result.notices, 1, 'one notice for the account and day');
    const again = (await runDetection(app, { customer_id: ACME, date: next })) as { notices: number };
    t.equal(again.notices, 0, 'a re-run sends nothing new');

    const deadline = Date.now() + 15000;
    let mails: { rcpt_to: string[]; subject: string; text_body: string; html_body: string }[] = [];
    while (Date.now() < deadline) {
      mails = (await pool.query(`SELECT rcpt_to, subject, text_body, html_body FROM mail_message WHERE subject LIKE $1`, [`%${next}%`])).rows;
      if (mails.length > 0) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    t.equal(mails.length, 1);
    const mail = mails[0];
    t.same(mail.rcpt_to, ['alice@acme.example']);
    t.match(mail.subject, /^Acme Corp: \d+ spend anomal/);
    t.match(mail.text_body, /p-steady \/ Compute Engine: latest daily spend 400\.00 EUR, mean daily spend 100\.00 EUR \(\+300\.00%\)/);
    t.match(mail.text_body, 'http://cc.test/anomalydetection?customer=acme-corp&billing_account=', 'the link opens on this customer and account');
    t.match(mail.html_body, /<td>p-steady<\/td><td>Compute Engine<\/td>/);
    t.match(mail.text_body, /^Cost basis: Billed$/m, 'the basis the day was judged on (the customer default)');
    const unsent = await pool.query('SELECT count(*)::int AS n FROM anomaly WHERE flagged AND notified_at IS NULL');
    t.equal(unsent.rows[0].n, 0);
  });

  t.test('bad input is a 400 with detail', async (t) => {
    for (const [date, perc, value, detail] of [
      ['2026-13-01', '20', '10', 'Invalid date, expected YYYY-MM-DD'],
      ['2026-02-30', '20', '10', 'Invalid date, expected YYYY-MM-DD'],
      ['yesterday', '20', '10', 'Invalid date, expected YYYY-MM-DD'],
      [DAY, '-1', '10', 'minimum_anomaly_threshold must be 0 or greater'],
      [DAY, '20', '-0.5', 'minimum_value_toggled_anomaly must be 0 or greater'],
      [DAY, 'abc', '10', 'minimum_anomaly_threshold must be a number'],
      [DAY, '20', '1e3', 'minimum_value_toggled_anomaly must be a number'],
    ]) {
      const res = await get(perc, value, alice, date);
      t.equal(res.statusCode, 400, `${date} ${perc} ${value}`);
      t.same(res.json(), { detail });
    }
  });

  t.test('tenants and accounts', async (t) => {
    const bob = await login(app, 'bob@initech.example');
    const refused = await get('20', '10', bob);
    t.equal(refused.statusCode, 404);
    t.same(refused.json(), { detail: 'Customer not found' });
    const otherAccount = await get('20', '10', alice, DAY, ACME, '02B3C4-D5E6F7-A8B9C0');
    t.equal(otherAccount.statusCode, 404, "globex's account under acme");
    t.same(otherAccount.json(), { detail: 'Billing account not found' });
    const initech = await get('20', '10', alice, DAY, 'initech', ACCOUNT);
    t.same(initech.json(), { detail: 'Customer not found' });
    // Globex has anomaly detection off: an empty answer that says so.
    const globex = await get('20', '10', alice, DAY, 'globex', '02B3C4-D5E6F7-A8B9C0');
    t.equal(globex.statusCode, 200);
    t.match(globex.json(), { anomaly_detection: false, anomalies: [], computed_at: null });
    // A day never computed.
    const notYet = await get('20', '10', alice, '2026-01-01');
    t.match(notYet.json(), { anomalies: [], computed_at: null, judged_series: 0 });
  });

  t.test('a viewer sees only anomalies of projects their filter admits', async (t) => {
    // victor's filter is team=analytics; only p-young carries that project label.
    await pool.query(
      `INSERT INTO cost_daily_label (customer_id, billing_account_id, usage_date, provider, label_kind, label_key, label_value, project_id, cost, credits, currency)
       VALUES ($1, $2, $3, 'gcp', 'project', 'team', 'analytics', 'p-young', 45, 0, 'EUR'),
              ($1, $2, $3, 'gcp', 'project', 'team', 'web', 'p-zero', 50, 0, 'EUR')`,
      [ACME, ACCOUNT, DAY],
    );
    const victor = await login(app, 'victor@acme.example');
    const res = await get('20', '10', victor);
    t.equal(res.statusCode, 200);
    t.same((res.json().anomalies as { project_id: string }[]).map((a) => a.project_id), ['p-young']);
    const all = await get('20', '10', alice);
    t.same((all.json().anomalies as { project_id: string }[]).map((a) => a.project_id).sort(), ['p-young', 'p-zero']);
  });

  t.test('unflagged candidates are kept 35 days, anomalies stay', async (t) => {
    const stored = async () => (await pool.query('SELECT project_id FROM anomaly WHERE date = $1 ORDER BY project_id', [DAY])).rows.map((r) => r.project_id);
    t.same(await stored(), ['p-small', 'p-young', 'p-zero']);
    await runDetection(app, { customer_id: ACME, date: addDays(DAY, 35) });
    t.same(await stored(), ['p-small', 'p-young', 'p-zero'], 'on the 35th day still there');
    await runDetection(app, { customer_id: ACME, date: addDays(DAY, 36) });
    t.same(await stored(), ['p-young', 'p-zero'], 'then only the anomalies');
  });
});

t.test('a customer with anomaly detection off is not judged', async (t) => {
  const app = await build(t);
  await app.env.pool.query(`UPDATE customer SET anomaly_detection = false WHERE customer_id = $1`, [ACME]);
  await series(app.env.pool, 'p-spike', 'Compute Engine', '100', 28, '900');
  const result = (await runDetection(app, { date: DAY })) as { runs: unknown[] };
  t.same(result.runs, [], 'no customer in scope');
  const n = await app.env.pool.query('SELECT count(*)::int AS n FROM anomaly');
  t.equal(n.rows[0].n, 0);
});

t.test('through the queues: anomaly-detect enqueued like the nightly schedule, e-mail delivered by notify', async (t) => {
  const app = await build(t);
  const { pool, config } = app.env;
  await series(pool, 'p-spike', 'Compute Engine', '100', 28, '300');
  const smtp = await startLocalSmtpServer(pool, 0);
  t.teardown(() => smtp.close());
  const host = await startWorkers({
    redisUrl: REDIS_URL,
    prefix: config.QUEUE_PREFIX,
    queues: ['anomaly-detect', 'notify'],
    handlers: buildHandlers(['anomaly-detect', 'notify'], {
      pool,
      mailer: smtpMailer(`smtp://127.0.0.1:${smtp.port}`, config.MAIL_FROM),
      mailDomain: 'commandcenter.test',
      enqueue: app.producers.enqueue,
      publicUrl: 'http://cc.test',
    }),
  });
  t.teardown(() => host.close());
  const finished = await jobOutcomes(t, 'anomaly-detect', { redisUrl: REDIS_URL, prefix: config.QUEUE_PREFIX });
  const jobId = await app.producers.enqueue('anomaly-detect', 'anomaly.detect', { date: DAY });
  const result = (await finished(jobId, 30000)) as { notices: number };
  t.equal(result.notices, 1);
  const deadline = Date.now() + 15000;
  let rows: { rcpt_to: string[]; subject: string }[] = [];
  while (Date.now() < deadline && rows.length === 0) {
    rows = (await pool.query('SELECT rcpt_to, subject FROM mail_message')).rows;
    if (rows.length === 0) await new Promise((r) => setTimeout(r, 100));
  }
  t.same(rows, [{ rcpt_to: ['alice@acme.example'], subject: `Acme Corp: 1 spend anomaly on ${DAY}` }]);
});
