/**
 * What happened around an anomaly, beyond projects, tickets, license orders and billing files: the budget that
 * provisioning set on the project, a change of the customer's currency and a change of a viewer's project-label
 * filters, each with its time and link. The changes are made through the api (and provisioning's own step record),
 * as users make them; the triggers of migration 119 record them. A viewer sees only the project's own events.
 */
import t from 'tap';
import type { JobFor } from '@cc/shared/queues.ts';
import type { BillingSource, CostRow, SourceItem } from '@cc/shared/ports/billing-source.ts';
import { addDays, billingToday } from '@cc/shared/time.ts';
import { recordStep } from '@cc/shared/db/provisioning.ts';
import { withTransaction } from '@cc/shared/db/pool.ts';
import { listAroundEvents } from '@cc/shared/db/anomalies-explain.ts';
import { anomalyDetectHandler } from '../../workers/src/jobs/anomaly-detect.ts';
import { runIngest } from '../../workers/src/billing-ingest/ingest.ts';
import { build, login, bearer } from '../helper.ts';

const ACME = { customerId: 'acme-corp', billingAccountId: '01A2B3-C4D5E6-F7A8B9' };
const PROJECT = 'acme-analytics';
// the changes below happen now: the anomaly is judged on today's US/Pacific day so that they fall around it
const DAY = billingToday();
const FIRST = addDays(DAY, -28);

/** 29 days of one project's BigQuery spend, five times the usual on DAY. */
function source(): BillingSource {
  const rows: CostRow[] = [];
  for (let d = FIRST; d <= DAY; d = addDays(d, 1)) {
    rows.push({
      provider: 'gcp', provider_name: 'Google Cloud', usage_date: d, project_id: PROJECT, project_name: 'Analytics', service: 'BigQuery', sku: 'Analysis',
      cost: d === DAY ? '50' : '10', credits: '0', currency: 'EUR', invoice_month: d.slice(0, 7).replace('-', ''), cost_type: 'regular',
      project_labels: { team: 'analytics' }, resource_labels: {}, usage_quantity: d === DAY ? '10' : '2',
    });
  }
  return {
    label: 'analytics spend',
    window: { from: FIRST, to: DAY },
    providers: ['gcp'],
    async *rows(): AsyncGenerator<SourceItem> {
      let line = 0;
      for (const row of rows) yield { line: ++line, row };
    },
  };
}

t.test('budget set by provisioning, currency and viewer-filter changes are listed around the anomaly', async (t) => {
  const app = await build(t);
  const { pool } = app.env;
  await runIngest({ pool, ...ACME, sourceKind: 'bigquery', source: source() });
  const detected = (await anomalyDetectHandler({ pool, enqueue: app.producers.enqueue, publicUrl: 'http://cc.test' })({
    data: { customer_id: ACME.customerId, date: DAY },
  } as JobFor<'anomaly-detect'>)) as { runs: { billing_account_id: string; flagged: number }[] };
  t.equal(detected.runs.find((r) => r.billing_account_id === ACME.billingAccountId)!.flagged, 1);
  const before = await listAroundEvents(pool, { ...ACME, date: DAY, projectId: PROJECT });

  // provisioning's budget step, recorded as the worker records it (a request made weeks ago, so only the budget is news)
  const { rows: req } = await pool.query<{ id: string }>(
    `INSERT INTO project_request (customer_id, requester, bu, product, env, owner_value, template_name, folder_name, folder_number, project_type,
                                  project_template, project_name, state, current_step, created_at)
     VALUES ('acme-corp', 'alice@acme.example', 'bu', 'pr', 'prod', 'o', 'analytics', 'f', '1', 'standard', '{}', $1, 'Creating', 'budget',
             now() - interval '40 days')
     RETURNING id::text`,
    [PROJECT],
  );
  t.ok(await recordStep(pool, req[0].id, 'budget', 'quota_bigquery', { outcome: 'done', detail: 'billingAccounts/01A2B3-C4D5E6-F7A8B9/budgets/b-1: 500 EUR a month' }));

  const admin = bearer(await login(app, 'admin@commandcenter.local'));
  const alice = bearer(await login(app, 'alice@acme.example'));
  // the customer's currency changed and changed back
  for (const cur of ['USD', 'EUR']) {
    const res = await app.inject({ method: 'PUT', url: '/v1/customers/acme-corp/', payload: { billing_currency: cur }, headers: admin });
    t.equal(res.statusCode, 200, res.body);
  }
  // a filter added to the viewer
  const added = await app.inject({ method: 'POST', url: '/v1/viewers/acme-corp/filters/', payload: { users: ['victor@acme.example'], label_key: 'env', label_value: 'prod' }, headers: alice });
  t.equal(added.statusCode, 200, added.body);
  // a save that drops a filter and adds it again changes nothing
  await withTransaction(pool, async (tx) => {
    await tx.query(`DELETE FROM viewer_filter WHERE customer_id = 'acme-corp' AND user_id = 'victor@acme.example' AND label_key = 'env'`);
    await tx.query(`INSERT INTO viewer_filter (customer_id, user_id, label_key, label_value) VALUES ('acme-corp', 'victor@acme.example', 'env', 'prod')`);
  });
  // changes of another customer are not this one's
  await app.inject({ method: 'PUT', url: '/v1/customers/globex/', payload: { billing_currency: 'GBP' }, headers: admin });

  const events = await listAroundEvents(pool, { ...ACME, date: DAY, projectId: PROJECT });
  const fresh = events.filter((e) => !before.some((b) => b.kind === e.kind && b.at === e.at && b.text === e.text));
  t.same(fresh.map((e) => ({ kind: e.kind, text: e.text, link: e.link, customer_wide: e.customer_wide })), [
    { kind: 'budget_set', text: 'the budget of project acme-analytics was set by provisioning (500 EUR a month)', link: '/projectprovisioning', customer_wide: false },
    { kind: 'currency_changed', text: 'the customer\'s currency was changed from EUR to USD', link: '/customermanagement/view', customer_wide: true },
    { kind: 'currency_changed', text: 'the customer\'s currency was changed from USD to EUR', link: '/customermanagement/view', customer_wide: true },
    { kind: 'viewer_filters_changed', text: 'the project-label filters of viewer victor@acme.example were changed (added env=prod)', link: '/billing/viewers', customer_wide: true },
  ], 'each change once, in time order, with its link; the save that changed nothing is not listed');
  for (const e of fresh) t.ok(Math.abs(Date.parse(e.at) - Date.now()) < 10 * 60_000, `${e.kind} at ${e.at}: the time it happened`);

  const url = `/v1/anomalies/customer_id/acme-corp/billing_account_id/${ACME.billingAccountId}/date/${DAY}/project_id/${PROJECT}/service/BigQuery/explanation`;
  const mine = (await app.inject({ method: 'GET', url, headers: alice })).json();
  t.ok(['budget_set', 'currency_changed', 'viewer_filters_changed'].every((k) => mine.events.some((e: { kind: string }) => e.kind === k)), 'the screen lists them');
  t.match(mine.sentence, /; the budget of project acme-analytics was set by provisioning \(500 EUR a month\) that day\.$/, 'the budget is named before the customer-wide changes');

  const victor = bearer(await login(app, 'victor@acme.example'));
  const his = await app.inject({ method: 'GET', url, headers: victor });
  t.equal(his.statusCode, 200);
  t.notOk(his.json().events.some((e: { kind: string }) => e.kind === 'currency_changed' || e.kind === 'viewer_filters_changed'), 'a viewer is not shown customer-wide changes (nor other viewers\' filters)');
  t.ok(his.json().events.some((e: { kind: string }) => e.kind === 'budget_set'), 'but sees his project\'s budget');
});

t.test('a customer or viewer deleted takes its filters without recording a change', async (t) => {
  const app = await build(t);
  const { pool } = app.env;
  const count = async () => (await pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM customer_setting_change WHERE kind LIKE 'viewer_filter%'`)).rows[0].n;
  const n0 = await count();
  await pool.query(`DELETE FROM app_user WHERE id = 'victor@acme.example'`);
  t.equal(await count(), n0, 'the user\'s filters went with him');
  await pool.query(`DELETE FROM customer WHERE customer_id = 'acme-corp'`);
  t.equal((await pool.query(`SELECT count(*)::int AS n FROM customer_setting_change WHERE customer_id = 'acme-corp'`)).rows[0].n, 0, 'the customer\'s changes went with it');
});
