/**
 * Billing alerts: the form's validation, tenant isolation, and month-to-date evaluation that e-mails a quota's first
 * crossing once per month, whatever re-runs or retries happen (received through the in-process SMTP server).
 */
import t from 'tap';
import { QueueEvents } from 'bullmq';
import type { JobFor } from '@cc/shared/queues.ts';
import type { Pool } from '@cc/shared/db/pool.ts';
import { addDays } from '@cc/shared/time.ts';
import { alertEvaluateHandler } from '../../workers/src/jobs/alert-evaluate.ts';
import { buildHandlers } from '../../workers/src/handlers.ts';
import { startWorkers } from '../../workers/src/worker-host.ts';
import { startLocalSmtpServer } from '@cc/shared/adapters/mail/local-smtp-server.ts';
import { smtpMailer } from '@cc/shared/adapters/mail/smtp-mailer.ts';
import { build, login, bearer } from '../helper.ts';
import { REDIS_URL } from '../db.ts';

const ACME = 'acme-corp';
const ACCOUNT = '01A2B3-C4D5E6-F7A8B9';

/** `cost` a day on the account for days first..last, plus a project label team=analytics carrying a tenth of it. */
async function spend(pool: Pool, first: string, last: string, cost: string) {
  for (let day = first; day <= last; day = addDays(day, 1)) {
    await pool.query(
      `INSERT INTO cost_daily (customer_id, billing_account_id, usage_date, provider, provider_name, project_id, project_name, service, cost, credits, currency)
       VALUES ($1, $2, $3, 'gcp', 'Google Cloud', 'p-data', 'Data', 'BigQuery', $4, 0, 'EUR')`,
      [ACME, ACCOUNT, day, cost],
    );
    await pool.query(
      `INSERT INTO cost_daily_label (customer_id, billing_account_id, usage_date, provider, label_kind, label_key, label_value, project_id, cost, credits, currency)
       VALUES ($1, $2, $3, 'gcp', 'project', 'team', 'analytics', 'p-data', $4::numeric / 10, 0, 'EUR')`,
      [ACME, ACCOUNT, day, cost],
    );
  }
}

t.test('billing alerts', async (t) => {
  const app = await build(t);
  const { pool, config } = app.env;
  const alice = await login(app, 'alice@acme.example');
  const bob = await login(app, 'bob@initech.example');
  const victor = await login(app, 'victor@acme.example');
  const post = (payload: unknown, token = alice, customer = ACME) =>
    app.inject({ method: 'POST', url: `/v1/alerts/${customer}/`, payload: payload as object, headers: bearer(token) });

  const total = (await post({ group_by: 'service', label_key: 'ignored', label_value: 'ignored', quota: 1000 })).json();
  const team = (await post({ group_by: 'project_label', label_key: 'team', label_value: 'analytics', quota: '50' })).json();
  const env = (await post({ group_by: 'resource_label', label_key: 'env', label_value: 'prod', quota: 0 })).json();

  t.test('the form rules answer with their messages and save nothing', async (t) => {
    const cases: [unknown, string][] = [
      [{ label_key: '', label_value: '', quota: 10 }, 'group_by: This field is required'],
      [{ group_by: 'project', quota: 10 }, 'group_by: must be one of service, project_label, resource_label'],
      [{ group_by: 'project_label', label_value: 'x', quota: 10 }, 'label_key: This field is required'],
      [{ group_by: 'resource_label', label_key: 'env', label_value: ' ', quota: 10 }, 'label_value: This field is required'],
      [{ group_by: 'service' }, 'quota: This field is required'],
      [{ group_by: 'service', quota: '' }, 'quota: This field is required'],
      [{ group_by: 'service', quota: 'ten' }, 'quota: must be a number'],
      [{ group_by: 'service', quota: -1 }, 'quota: number must be 0 or greater'],
      [{ group_by: 'service', quota: '-0.01' }, 'quota: number must be 0 or greater'],
    ];
    for (const [payload, detail] of cases) {
      const res = await post(payload);
      t.equal(res.statusCode, 400, JSON.stringify(payload));
      t.same(res.json(), { detail });
    }
    const list = await app.inject({ method: 'GET', url: `/v1/alerts/${ACME}/`, headers: bearer(alice) });
    t.equal(list.json().length, 3, 'only the three valid alerts');
  });

  t.test('alerts are saved and listed', async (t) => {
    t.same(total, { id: total.id, group_by: 'service', label_key: '', label_value: '', quota: 1000 }, 'Total stores blank labels');
    t.same(team, { id: team.id, group_by: 'project_label', label_key: 'team', label_value: 'analytics', quota: 50 });
    t.same(env, { id: env.id, group_by: 'resource_label', label_key: 'env', label_value: 'prod', quota: 0 });
    const list = await app.inject({ method: 'GET', url: `/v1/alerts/${ACME}/`, headers: bearer(alice) });
    t.equal(list.statusCode, 200);
    t.same(list.json(), [total, team, env]);
  });

  t.test('tenants: another customer’s alerts are out of reach', async (t) => {
    const bobRead = await app.inject({ method: 'GET', url: `/v1/alerts/${ACME}/`, headers: bearer(bob) });
    t.equal(bobRead.statusCode, 404);
    t.same(bobRead.json(), { detail: 'Customer not found' });
    const bobNotices = await app.inject({ method: 'GET', url: `/v1/alerts/${ACME}/notices/`, headers: bearer(bob) });
    t.same(bobNotices.json(), { detail: 'Customer not found' });
    // bob names his own customer with acme's alert ids: unknown to initech, nothing deleted.
    const bobDelete = await app.inject({ method: 'DELETE', url: '/v1/alerts/initech/', payload: { ids: [total.id] }, headers: bearer(bob) });
    t.equal(bobDelete.statusCode, 404);
    t.same(bobDelete.json(), { detail: 'Alert not found' });
    // alice's alert of globex named under acme, mixed with an acme one: all or nothing.
    const globexAlert = (await post({ group_by: 'service', quota: 5 }, alice, 'globex')).json();
    const mixed = await app.inject({ method: 'DELETE', url: `/v1/alerts/${ACME}/`, payload: { ids: [env.id, globexAlert.id] }, headers: bearer(alice) });
    t.same(mixed.json(), { detail: 'Alert not found' });
    const still = await app.inject({ method: 'GET', url: `/v1/alerts/${ACME}/`, headers: bearer(alice) });
    t.equal(still.json().length, 3, 'nothing deleted');
    const viewer = await app.inject({ method: 'GET', url: `/v1/alerts/${ACME}/`, headers: bearer(victor) });
    t.equal(viewer.statusCode, 403, 'a viewer has no alerts permission');
    const viewerPost = await post({ group_by: 'service', quota: 1 }, victor);
    t.equal(viewerPost.statusCode, 403);
    const noAccount = await post({ group_by: 'service', quota: 1 }, bob, 'initech');
    t.same(noAccount.json(), { detail: 'Missing Billing Account. Please contact your system administrator.' });
    const cleanup = await app.inject({ method: 'DELETE', url: '/v1/alerts/globex/', payload: { ids: [globexAlert.id] }, headers: bearer(alice) });
    t.same(cleanup.json(), { deleted: 1 });
  });

  t.test('a quota crossing is e-mailed once per alert and month', async (t) => {
    const smtp = await startLocalSmtpServer(pool, 0);
    t.teardown(() => smtp.close());
    const host = await startWorkers({
      redisUrl: REDIS_URL,
      prefix: config.QUEUE_PREFIX,
      queues: ['notify'],
      handlers: buildHandlers(['notify'], { pool, mailer: smtpMailer(`smtp://127.0.0.1:${smtp.port}`, config.MAIL_FROM), mailDomain: 'commandcenter.test' }),
    });
    t.teardown(() => host.close());
    const events = new QueueEvents('notify', { connection: { url: REDIS_URL }, prefix: config.QUEUE_PREFIX });
    t.teardown(() => events.close());
    await events.waitUntilReady();
    const evaluate = (day: string) =>
      alertEvaluateHandler({ pool, enqueue: app.producers.enqueue, publicUrl: 'http://cc.test' })({
        data: { customer_id: ACME, day },
      } as JobFor<'alert-evaluate'>) as Promise<{ evaluated: number; crossed: number; notices: number }>;
    const mails = async (expected: number) => {
      const deadline = Date.now() + 15000;
      let rows: { rcpt_to: string[]; subject: string; text_body: string; html_body: string }[] = [];
      while (Date.now() < deadline) {
        rows = (await pool.query('SELECT rcpt_to, subject, text_body, html_body FROM mail_message ORDER BY id')).rows;
        if (rows.length >= expected) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      // a little longer, so a wrongly sent duplicate would have arrived
      await new Promise((r) => setTimeout(r, 300));
      return (await pool.query('SELECT rcpt_to, subject, text_body, html_body FROM mail_message ORDER BY id')).rows as typeof rows;
    };

    // October spend is not November's; 1..10 November: 100 a day = 1000, equal to the Total quota: not exceeded.
    await spend(pool, '2026-10-20', '2026-10-31', '500');
    await spend(pool, '2026-11-01', '2026-11-10', '100');
    t.same(await evaluate('2026-11-10'), { day: '2026-11-10', evaluated: 3, crossed: 1, notices: 1 }, 'team=analytics: 100 > 50');
    await spend(pool, '2026-11-11', '2026-11-11', '0.01');
    t.same(await evaluate('2026-11-11'), { day: '2026-11-11', evaluated: 3, crossed: 1, notices: 1 }, 'Total: 1000.01 > 1000');
    t.same(await evaluate('2026-11-11'), { day: '2026-11-11', evaluated: 3, crossed: 0, notices: 0 }, 'again: nothing new');
    t.same(await evaluate('2026-11-12'), { day: '2026-11-12', evaluated: 3, crossed: 0, notices: 0 }, 'next day: nothing new');

    // A retry after the enqueue but before the notice was marked: the same notify key, no second e-mail.
    await pool.query('UPDATE alert_notice SET notified_at = NULL, queued_at = NULL');
    t.same((await evaluate('2026-11-12')).notices, 2, 're-enqueued under the same keys');

    const received = await mails(2);
    t.equal(received.length, 2, 'two e-mails in all');
    // Two notify jobs run concurrently, so the order they reach the SMTP server in is not fixed.
    const teamMail = received.find((m) => m.subject.endsWith('quota of 50.00 EUR'));
    const totalMail = received.find((m) => m.subject.endsWith('quota of 1,000.00 EUR'));
    if (!teamMail || !totalMail) throw new Error(`unexpected subjects: ${received.map((m) => m.subject).join(' | ')}`);
    t.same(teamMail.rcpt_to, ['alice@acme.example']);
    t.equal(teamMail.subject, 'Acme Corp: Month-To-Date spend 100.00 EUR exceeds the alert quota of 50.00 EUR');
    t.match(teamMail.text_body, /Month-To-Date spend \(2026-11, up to 2026-11-10\) of Project Label team = analytics on billing account 01A2B3-C4D5E6-F7A8B9 is 100\.00 EUR/);
    t.match(teamMail.text_body, 'http://cc.test/billing/alerts?customer=acme-corp&billing_account=01A2B3-C4D5E6-F7A8B9');
    t.match(teamMail.html_body, /<b>100\.00 EUR<\/b>/);
    t.match(teamMail.html_body, 'href="http://cc.test/billing/alerts?customer=acme-corp&amp;billing_account=01A2B3-C4D5E6-F7A8B9"', 'the link opens on this customer and account');
    t.equal(totalMail.subject, 'Acme Corp: Month-To-Date spend 1,000.01 EUR exceeds the alert quota of 1,000.00 EUR');
    t.match(totalMail.text_body, /of Total on billing account/);

    // Late November data (exports settle within two days) seen on 1 December: November's first crossing of env=prod.
    await pool.query(
      `INSERT INTO cost_daily_label (customer_id, billing_account_id, usage_date, provider, label_kind, label_key, label_value, project_id, cost, credits, currency)
       VALUES ($1, $2, '2026-11-29', 'gcp', 'resource', 'env', 'prod', 'p-data', 5, 0, 'EUR')`,
      [ACME, ACCOUNT],
    );
    t.same(await evaluate('2026-12-01'), { day: '2026-12-01', evaluated: 3, crossed: 1, notices: 1 }, 'December starts from zero; November late data');
    // A new month starts from zero; its first crossing is a new notice.
    await spend(pool, '2026-12-01', '2026-12-02', '600');
    t.same(await evaluate('2026-12-02'), { day: '2026-12-02', evaluated: 3, crossed: 2, notices: 2 });
    t.equal((await mails(5)).length, 5);

    const notices = await app.inject({ method: 'GET', url: `/v1/alerts/${ACME}/notices/`, headers: bearer(alice) });
    t.equal(notices.statusCode, 200);
    const list = notices.json() as { alert_id: number; month: string; spend: number; quota: number; recipients: string[]; group_by: string }[];
    t.same(
      list.map((n) => [n.alert_id, n.month, n.spend, n.quota]).sort(),
      [
        [team.id, '2026-11', 100, 50],
        [env.id, '2026-11', 5, 0],
        [total.id, '2026-11', 1000.01, 1000],
        [team.id, '2026-12', 120, 50],
        [total.id, '2026-12', 1200, 1000],
      ].sort(),
    );
    t.same(list[0].recipients, ['alice@acme.example']);
  });

  t.test('deleting selected alerts', async (t) => {
    const res = await app.inject({ method: 'DELETE', url: `/v1/alerts/${ACME}/`, payload: { ids: [team.id, env.id] }, headers: bearer(alice) });
    t.equal(res.statusCode, 200);
    t.same(res.json(), { deleted: 2 });
    const list = await app.inject({ method: 'GET', url: `/v1/alerts/${ACME}/`, headers: bearer(alice) });
    t.same(list.json(), [total]);
    const empty = await app.inject({ method: 'DELETE', url: `/v1/alerts/${ACME}/`, payload: { ids: [] }, headers: bearer(alice) });
    t.equal(empty.statusCode, 400);
  });
});
