import t from 'tap';
import { addDays, addMonths, billingToday } from '@cc/shared/time.ts';
import { gcpGeneratedSource, generatedRowsForDay } from '@cc/shared/adapters/bigquery/local.ts';
import { defaultWindow } from '@cc/shared/commands/billing-ingest.ts';
import { runIngest } from '../../workers/src/billing-ingest/ingest.ts';
import { readFile } from 'node:fs/promises';
import { parse } from 'csv-parse/sync';
import { focusCsvSource } from '../../workers/src/billing-ingest/formats/focus-csv.ts';
import { build, login, bearer } from '../helper.ts';

const FOCUS_SAMPLE = new URL('../../infra/data/focus-1.0/focus_sample.csv', import.meta.url).pathname;

// Seeded: acme-corp (EUR, Tier Discount) with two accounts; globex (USD, Set Discount 5); initech without account.
const ACME = { customerId: 'acme-corp', billingAccountId: '01A2B3-C4D5E6-F7A8B9', currency: 'EUR' };
const GLOBEX_ACCOUNT = '02B3C4-D5E6F7-A8B9C0';

/**
 * Exact sums kept in the test, independent of the code under test: BigInt units of 10^-12, rounded half away
 * from zero to 2 decimals only at the end.
 */
const SCALE = 12n;
function units(s: string): bigint {
  const neg = s.startsWith('-');
  const [i, f = ''] = s.replace(/^[-+]/, '').split('.');
  const v = BigInt(i || '0') * 10n ** SCALE + BigInt((f + '0'.repeat(12)).slice(0, 12));
  return neg ? -v : v;
}
function money(v: bigint): string {
  const step = 10n ** (SCALE - 2n);
  const neg = v < 0n;
  const a = neg ? -v : v;
  const r = (a + step / 2n) / step;
  const s = `${r / 100n}.${(r % 100n).toString().padStart(2, '0')}`;
  return neg && r !== 0n ? `-${s}` : s;
}

interface GenRow {
  day: string;
  project_id: string;
  service: string;
  team: string;
  component: string;
  spend: bigint;
}

/** The generated rows of a window, as the test's own expectation source. */
function generated(from: string, to: string): GenRow[] {
  const out: GenRow[] = [];
  for (let d = from; d <= to; d = addDays(d, 1)) {
    for (const r of generatedRowsForDay(ACME, d)) {
      out.push({ day: d, project_id: r.project_id, service: r.service, team: r.project_labels.team, component: r.resource_labels.component, spend: units(r.cost) + units(r.credits) });
    }
  }
  return out;
}

function sumBy<K extends string>(rows: GenRow[], key: (r: GenRow) => K): Map<K, bigint> {
  const m = new Map<K, bigint>();
  for (const r of rows) m.set(key(r), (m.get(key(r)) ?? 0n) + r.spend);
  return m;
}

const today = billingToday();
const yesterday = addDays(today, -1);
const window = defaultWindow(today);

t.test('billing api over 13 months of generated spend', async (t) => {
  const app = await build(t);
  await runIngest({ pool: app.env.pool, ...ACME, sourceKind: 'gcp-generated', source: gcpGeneratedSource({ ...ACME, ...window }) });
  const rows = generated(window.from, window.to);
  const alice = bearer(await login(app, 'alice@acme.example'));
  const victor = bearer(await login(app, 'victor@acme.example'));
  const bob = bearer(await login(app, 'bob@initech.example'));
  const chart = (url: string, query: Record<string, string>, payload: object, headers = alice) =>
    app.inject({ method: 'POST', url, query: { billing_account_id: ACME.billingAccountId, ...query }, payload, headers });

  t.test('12months by service: month bars and service totals equal independent sums', async (t) => {
    const res = await chart('/v2/billing/aggregated/by_service/chart/acme-corp', { provider: 'gcp', period: '12months', top: '0' }, { services: [] });
    t.equal(res.statusCode, 200, res.body.slice(0, 200));
    const body = res.json();
    const start = addMonths(`${yesterday.slice(0, 8)}01`, -11);
    t.same(body.range, { start_date: start, end_date: yesterday, granularity: 'month', label: `${start} - ${yesterday}` });
    const inRange = rows.filter((r) => r.day >= start && r.day <= yesterday);
    const byMonth = sumBy(inRange, (r) => r.day.slice(0, 7));
    t.equal(body.data.length, 12);
    for (const bar of body.data) t.equal(bar.total, money(byMonth.get(bar.date) ?? 0n), `bar ${bar.date}`);
    const byService = sumBy(inRange, (r) => r.service);
    t.same(new Set(body.keys), new Set(byService.keys()));
    for (const s of body.series) t.equal(s.total, money(byService.get(s.key)!), `service ${s.key}`);
    const totals = body.series.map((s: { total: string }) => units(s.total));
    t.same(totals, [...totals].sort((a: bigint, b: bigint) => (a > b ? -1 : a < b ? 1 : 0)), 'largest series first');
    const all = [...byService.values()].reduce((a, b) => a + b, 0n);
    t.equal(body.summary.custom, money(all));
    const mtd = inRange.filter((r) => r.day.slice(0, 7) === today.slice(0, 7) && r.day < today);
    t.equal(body.summary.month_to_date, money(mtd.reduce((a, r) => a + r.spend, 0n)));
    const prev = addMonths(`${today.slice(0, 8)}01`, -1).slice(0, 7);
    t.equal(body.summary.previous_month, money(rows.filter((r) => r.day.startsWith(prev)).reduce((a, r) => a + r.spend, 0n)));
    t.equal(body.currency, 'EUR');
    t.ok(body.max_value > 0);
    t.equal(Object.keys(body.colors).length, body.keys.length);
  });

  t.test('7days and 30days run to yesterday by day; selected services only', async (t) => {
    for (const [period, n] of [['7days', 7], ['30days', 30]] as const) {
      const res = await chart('/v2/billing/aggregated/by_service/chart/acme-corp', { provider: 'gcp', period }, { services: ['BigQuery', 'Cloud Storage'] });
      t.equal(res.statusCode, 200);
      const body = res.json();
      t.equal(body.data.length, n);
      t.equal(body.data[0].date, addDays(today, -n));
      t.equal(body.data.at(-1).date, yesterday);
      const want = sumBy(rows.filter((r) => r.day >= addDays(today, -n) && r.day <= yesterday && ['BigQuery', 'Cloud Storage'].includes(r.service)), (r) => r.day);
      for (const bar of body.data) t.equal(bar.total, money(want.get(bar.date) ?? 0n), `${period} ${bar.date}`);
      t.same([...body.keys].sort(), ['BigQuery', 'Cloud Storage']);
    }
  });

  t.test('CustomizedPeriod by day; Top N folds the rest into Others', async (t) => {
    const start = addDays(today, -20);
    const end = addDays(today, -11);
    const q = { provider: 'gcp', period: 'CustomizedPeriod', start_date: start, end_date: end };
    const all = (await chart('/v2/billing/details/chart/acme-corp', { ...q, top: '0' }, { services: [] })).json();
    const top5 = (await chart('/v2/billing/details/chart/acme-corp', { ...q, top: '5' }, { services: [] })).json();
    t.equal(all.data.length, 10);
    const want = sumBy(rows.filter((r) => r.day >= start && r.day <= end), (r) => `${r.project_id} / ${r.service}`);
    t.equal(all.keys.length, want.size);
    for (const s of all.series) t.equal(s.total, money(want.get(s.key)!), s.key);
    t.equal(top5.keys.length, 6);
    t.equal(top5.keys.at(-1), 'Others');
    t.notOk('Others' in top5.colors, 'Others is drawn with the grey fallback');
    const ranked = [...want.entries()].sort(([ka, a], [kb, b]) => (a === b ? (ka < kb ? -1 : 1) : a > b ? -1 : 1));
    t.same(top5.keys.slice(0, 5), ranked.slice(0, 5).map(([k]) => k));
    t.equal(top5.series.at(-1).total, money(ranked.slice(5).reduce((a, [, v]) => a + v, 0n)));
    t.same(top5.data.map((b: { total: string }) => b.total), all.data.map((b: { total: string }) => b.total), 'bar totals unchanged by folding');
    t.equal(top5.summary.custom, all.summary.custom);
  });

  t.test('project and resource label charts, including unlabelled rest', async (t) => {
    const q = { period: '30days' };
    const from = addDays(today, -30);
    const inRange = rows.filter((r) => r.day >= from && r.day <= yesterday);
    const res = await chart('/v2/billing/project/labels/chart/acme-corp', q, { project_label: 'team' });
    t.equal(res.statusCode, 200);
    const byTeam = sumBy(inRange, (r) => r.team);
    for (const s of res.json().series) t.equal(s.total, money(byTeam.get(s.key)!), `team ${s.key}`);
    t.same(new Set(res.json().keys), new Set(byTeam.keys()));
    // cost-center is missing on the platform project: its spend is the '(no label)' series.
    const cc = (await chart('/v2/billing/project/labels/chart/acme-corp', q, { project_label: 'cost-center' })).json();
    t.equal(cc.series.find((s: { key: string }) => s.key === '(no label)').total, money(byTeam.get('platform')!));
    const res2 = await chart('/v2/billing/resource/labels/details/chart/acme-corp', { ...q, top: '0' }, { resource_label: 'component' });
    const byComp = sumBy(inRange, (r) => `${r.component} / ${r.project_id}`);
    for (const s of res2.json().series) t.equal(s.total, money(byComp.get(s.key)!), `component ${s.key}`);
    t.equal(res2.json().summary.custom, money(inRange.reduce((a, r) => a + r.spend, 0n)));
  });

  t.test('settings answer lists providers, services and labels with values', async (t) => {
    const res = await app.inject({ method: 'GET', url: '/v2/billing/settings/acme-corp', query: { billing_account_id: ACME.billingAccountId }, headers: alice });
    t.equal(res.statusCode, 200);
    const body = res.json();
    t.same(body.providers, ['gcp']);
    t.same(body.services, [...new Set(rows.map((r) => r.service))].sort());
    t.same(body.project_labels.team, ['analytics', 'platform', 'web']);
    t.same(body.resource_labels.app, ['ledger', 'reporting', 'webshop']);
    t.equal(body.billing_dashboard_type, 'Tier Discount');
  });

  t.test('Tier Discount months: highest tier reached applies to the whole month', async (t) => {
    await app.env.pool.query(
      `UPDATE customer SET billing_dashboard_tier_discount = '[{"threshold_spend": 3000.5, "percentage": 4.5}, {"threshold_spend": 99999999, "percentage": 9}, {"threshold_spend": 1000, "percentage": 2}]' WHERE customer_id = 'acme-corp'`,
    );
    await app.access.publish(); // a write outside the api: the access epoch moves before the next request (NOTIFY may lag)
    const body = (await chart('/v2/billing/aggregated/by_service/chart/acme-corp', { provider: 'gcp', period: '12months' }, {})).json();
    const byMonth = sumBy(rows, (r) => r.day.slice(0, 7));
    const prev = addMonths(`${today.slice(0, 8)}01`, -1).slice(0, 7);
    const row = body.months.find((m: { month: string }) => m.month === prev);
    const spend = byMonth.get(prev)!;
    const [tier, pct] = spend >= units('3000.5') ? ['3000.5', 45n] : spend >= units('1000') ? ['1000', 20n] : [null, 0n];
    t.equal(row.monthly_spend, money(spend));
    t.same(body.tiers, [{ threshold_spend: '1000', percentage: '2' }, { threshold_spend: '3000.5', percentage: '4.5' }, { threshold_spend: '99999999', percentage: '9' }], 'the tier table, by threshold');
    t.equal(row.forecasted_monthly_spend, row.monthly_spend, 'a completed month is its own forecast');
    t.equal(row.reached_tier, tier);
    t.equal(row.discounted_spend, money(spend - (spend * pct) / 1000n));
    t.equal(body.months.at(-1).month, today.slice(0, 7), 'the current month is listed');
    t.ok(units(body.months.at(-1).forecasted_monthly_spend) >= units(body.months.at(-1).monthly_spend), 'forecast adds the remaining days');
    await app.env.pool.query(`UPDATE customer SET billing_dashboard_type = 'Set Discount', billing_dashboard_set_discount = 5 WHERE customer_id = 'acme-corp'`);
    await app.access.publish(); // a write outside the api: the access epoch moves before the next request (NOTIFY may lag)
    const set = (await chart('/v2/billing/aggregated/by_service/chart/acme-corp', { provider: 'gcp', period: '12months' }, {})).json();
    const setRow = set.months.find((m: { month: string }) => m.month === prev);
    t.equal(setRow.discount, '5', 'the cached answer is not reused after the customer changed');
    t.same(set.tiers, [], 'no tier table for Set Discount');
    t.equal(setRow.discounted_spend, money(spend - (spend * 5n) / 100n));
  });

  t.test('a custom period reaching into the future: the current month stays the last discount row', async (t) => {
    const start = addDays(today, -5);
    const end = addMonths(today, 2);
    const res = await chart('/v2/billing/aggregated/by_service/chart/acme-corp', { provider: 'gcp', period: 'CustomizedPeriod', start_date: start, end_date: end }, {});
    t.equal(res.statusCode, 200, res.body.slice(0, 200));
    const body = res.json();
    t.equal(body.months.at(-1).month, today.slice(0, 7), 'no month after the current one');
    t.ok(body.months.every((m: { month: string }) => m.month <= today.slice(0, 7)));
    const want = rows.filter((r) => r.day >= start && r.day <= yesterday).reduce((a, r) => a + r.spend, 0n);
    t.equal(body.summary.custom, money(want), 'the period total is the spend up to yesterday');
  });

  t.test('export: headers and exact rows; needs export_*', async (t) => {
    const q = { provider: 'gcp', period: '7days', timezone: 'US/Pacific' };
    const res = await chart('/v2/billing/details/chart/acme-corp/export', q, { services: [] });
    t.equal(res.statusCode, 200);
    const body = res.json();
    // the spec's six columns, then each row's conversion (billing-currency.test.ts checks those figures)
    // and the cost basis of every Spend (billed unless the request asks for amortised)
    t.same(body.headers, ['Date', 'Project ID', 'Project Name', 'Service', 'Spend', 'Currency', 'Original Spend', 'Original Currency', 'Rate', 'Rate Date', 'Rate Source', 'Cost Basis']);
    t.ok(body.rows.every((r: string[]) => r[11] === 'Billed'), 'billed by default');
    const want = sumBy(rows.filter((r) => r.day >= addDays(today, -7) && r.day <= yesterday), (r) => `${r.day}|${r.project_id}|${r.service}`);
    t.equal(body.rows.length, want.size);
    for (const r of body.rows) t.equal(r[4], money(want.get(`${r[0]}|${r[1]}|${r[3]}`)!), r.slice(0, 4).join(' '));
    // 12 months: whole months come from the monthly rollup, the current month from the daily one.
    const year = (await chart('/v2/billing/details/chart/acme-corp/export', { ...q, period: '12months' }, { services: ['BigQuery'] })).json();
    const yearStart = addMonths(`${yesterday.slice(0, 8)}01`, -11);
    const wantYear = sumBy(rows.filter((r) => r.day >= yearStart && r.day <= yesterday && r.service === 'BigQuery'), (r) => `${r.day.slice(0, 7)}|${r.project_id}`);
    t.equal(year.rows.length, wantYear.size);
    for (const r of year.rows) t.equal(r[4], money(wantYear.get(`${r[0]}|${r[1]}`)!), `12 months ${r[0]} ${r[1]}`);
    const { rows: drift } = await app.env.pool.query(
      `SELECT m.month FROM cost_monthly m FULL JOIN (SELECT date_trunc('month', usage_date)::date AS month, sum(cost + credits) AS s FROM cost_daily GROUP BY 1) d USING (month)
       GROUP BY m.month, d.s HAVING coalesce(sum(m.cost + m.credits), -1) <> coalesce(d.s, -2)`,
    );
    t.same(drift, [], 'the monthly rollup agrees with the daily one');
    const lab = await chart('/v2/billing/project/labels/details/chart/acme-corp/export', q, { project_label: 'team' });
    t.equal(lab.statusCode, 200);
    t.equal(lab.json().headers[1], 'Project Label');
    const victorRes = await chart('/v2/billing/details/chart/acme-corp/export', q, { services: [] }, victor);
    t.equal(victorRes.statusCode, 403, 'a viewer has no export_*');
    const resource = await chart('/v2/billing/resource/labels/details/chart/acme-corp/export', q, { resource_label: 'app' });
    t.equal(resource.statusCode, 404, 'resource-label grouping has no export');
  });

  t.test('customerViewer: only the project-label view, only rows matching their filter, read at request time', async (t) => {
    const url = '/v2/billing/project/labels/details/chart/acme-corp';
    const res = await chart(url, { period: '30days', top: '0' }, { project_label: 'env' }, victor);
    t.equal(res.statusCode, 200, res.body.slice(0, 200));
    const inRange = rows.filter((r) => r.day >= addDays(today, -30) && r.day <= yesterday && r.team === 'analytics');
    t.same(new Set(res.json().series.map((s: { project_id: string }) => s.project_id)), new Set(inRange.map((r) => r.project_id)));
    t.equal(res.json().summary.custom, money(inRange.reduce((a, r) => a + r.spend, 0n)));
    const settings = (await app.inject({ method: 'GET', url: '/v2/billing/settings/acme-corp', headers: victor })).json();
    t.same(settings.project_labels.team, ['analytics']);
    t.same(settings.services, []);
    t.same(settings.resource_labels, {});
    for (const other of ['/v2/billing/aggregated/by_service/chart/acme-corp', '/v2/billing/resource/labels/chart/acme-corp']) {
      const r = await chart(other, { period: '30days' }, { services: [], resource_label: 'app' }, victor);
      t.equal(r.statusCode, 403, other);
    }
    await app.env.pool.query(`DELETE FROM viewer_filter WHERE user_id = 'victor@acme.example'`);
    await app.access.publish(); // a write outside the api: the access epoch moves before the next request (NOTIFY may lag)
    const none = await chart(url, { period: '30days', top: '0' }, { project_label: 'env' }, victor);
    t.equal(none.statusCode, 403);
    t.equal(none.json().detail, 'Please contact your system administrator');
    await app.env.pool.query(`INSERT INTO viewer_filter VALUES ('acme-corp', 'victor@acme.example', 'team', 'web')`);
    await app.access.publish(); // a write outside the api: the access epoch moves before the next request (NOTIFY may lag)
    const web = (await chart(url, { period: '30days', top: '0' }, { project_label: 'env' }, victor)).json();
    t.ok(web.series.length > 0 && web.series.every((s: { project_id: string }) => s.project_id.includes('web')), 'the new filter applies at once');
  });

  t.test("tenant isolation: another customer's billing account id answers 404 on every billing route", async (t) => {
    const q = { billing_account_id: GLOBEX_ACCOUNT, period: '30days', timezone: 'US/Pacific' };
    const routes: [string, string, object | undefined][] = [
      ['GET', '/v2/billing/settings/acme-corp', undefined],
      ['POST', '/v2/billing/aggregated/by_service/chart/acme-corp', { services: [] }],
      ['POST', '/v2/billing/details/chart/acme-corp', { services: [] }],
      ['POST', '/v2/billing/project/labels/chart/acme-corp', { project_label: 'team' }],
      ['POST', '/v2/billing/project/labels/details/chart/acme-corp', { project_label: 'team' }],
      ['POST', '/v2/billing/resource/labels/chart/acme-corp', { resource_label: 'app' }],
      ['POST', '/v2/billing/resource/labels/details/chart/acme-corp', { resource_label: 'app' }],
      ['POST', '/v2/billing/details/chart/acme-corp/export', { services: [] }],
      ['POST', '/v2/billing/project/labels/details/chart/acme-corp/export', { project_label: 'team' }],
    ];
    for (const [method, url, payload] of routes) {
      const res = await app.inject({ method: method as 'GET' | 'POST', url, query: q, payload, headers: alice });
      t.equal(res.statusCode, 404, `${method} ${url}`);
      t.equal(res.json().detail, 'Billing account not found', url);
      t.notMatch(res.body, /"data"|"rows"|"services"/, 'nothing of the account leaks');
      // bob (initech) asking for acme-corp itself: the customer is not his.
      const bobRes = await app.inject({ method: method as 'GET' | 'POST', url, query: { ...q, billing_account_id: ACME.billingAccountId }, payload, headers: bob });
      t.equal(bobRes.statusCode, 404, `bob: ${url}`);
      t.equal(bobRes.json().detail, 'Customer not found');
    }
  });

  t.test('tenant isolation', async (t) => {
    const own = await chart('/v2/billing/project/labels/chart/acme-corp', { billing_account_id: GLOBEX_ACCOUNT }, { project_label: 'team' });
    t.equal(own.statusCode, 404, "another customer's billing account");
    t.equal(own.json().detail, 'Billing account not found');
    const initech = await app.inject({ method: 'GET', url: '/v2/billing/settings/initech', headers: alice });
    t.equal(initech.statusCode, 404);
    t.equal(initech.json().detail, 'Customer not found');
    const bobAcme = await chart('/v2/billing/aggregated/by_service/chart/acme-corp', {}, {}, bob);
    t.equal(bobAcme.statusCode, 404);
    const bobOwn = await app.inject({ method: 'GET', url: '/v2/billing/settings/initech', headers: bob });
    t.equal(bobOwn.statusCode, 404);
    t.equal(bobOwn.json().detail, 'Missing Billing Account. Please contact your system administrator.');
    const anon = await app.inject({ method: 'GET', url: '/v2/billing/settings/acme-corp' });
    t.equal(anon.statusCode, 401);
  });

  t.test('bad input answers 400 with a detail', async (t) => {
    const cases: [Record<string, string>, object, RegExp][] = [
      [{ provider: 'gcpx' }, {}, /provider must be one of gcp, aws, azure, all/],
      [{ period: '14days' }, {}, /period must be one of/],
      [{ period: 'CustomizedPeriod' }, {}, /needs start_date and end_date/],
      [{ period: 'CustomizedPeriod', start_date: '2025-02-30', end_date: '2025-03-01' }, {}, /start_date '2025-02-30'/],
      [{ period: 'CustomizedPeriod', start_date: '2025-03-02', end_date: '2025-03-01' }, {}, /must not be after/],
      [{ period: 'CustomizedPeriod', start_date: '2025/03/01', end_date: '2025-03-01' }, {}, /yyyy-MM-dd/],
      [{ top: '7' }, {}, /top must be one of/],
      [{ timezone: 'Mars/Olympus' }, {}, /Unknown timezone/],
    ];
    for (const [q, body, detail] of cases) {
      const res = await chart('/v2/billing/aggregated/by_service/chart/acme-corp', q, body);
      t.equal(res.statusCode, 400, JSON.stringify(q));
      t.match(res.json().detail, detail);
    }
    const noLabel = await chart('/v2/billing/project/labels/chart/acme-corp', {}, { project_label: '' });
    t.equal(noLabel.statusCode, 400);
    t.match(noLabel.json().detail, /project_label: This field is required/);
    // Malformed bodies are refused by the schema, with a detail naming the field.
    const bodies: [string, object][] = [
      ['/v2/billing/aggregated/by_service/chart/acme-corp', { services: [{ name: 'BigQuery' }] }],
      ['/v2/billing/details/chart/acme-corp', { services: [], projects: [''] }],
      ['/v2/billing/project/labels/details/chart/acme-corp', {}],
      ['/v2/billing/resource/labels/chart/acme-corp', { project_label: 'team' }],
      ['/v2/billing/details/chart/acme-corp/export', { services: { all: true } }],
    ];
    for (const [url, body] of bodies) {
      const res = await chart(url, {}, body);
      t.equal(res.statusCode, 400, `${url} ${JSON.stringify(body)}`);
      t.match(res.json().detail, /services|projects|project_label|resource_label/, res.json().detail);
    }
    const badSettings = await app.inject({ method: 'GET', url: '/v2/billing/settings/acme-corp', query: { provider: 'ibm' }, headers: alice });
    t.equal(badSettings.statusCode, 400);
    t.match(badSettings.json().detail, /provider must be one of/);
  });
});

t.test('FOCUS sample through the api: per-provider totals exact, Set Discount months', async (t) => {
  const app = await build(t);
  await runIngest({ pool: app.env.pool, customerId: 'globex', billingAccountId: GLOBEX_ACCOUNT, sourceKind: 'focus-file', source: focusCsvSource(FOCUS_SAMPLE), fileName: 'focus.csv' });
  const records = parse(await readFile(FOCUS_SAMPLE), { columns: true }) as Record<string, string>[];
  const provider: Record<string, string> = { AWS: 'aws', Microsoft: 'azure', Oracle: 'oracle' };
  const want = new Map<string, bigint>();
  for (const r of records) want.set(provider[r.ProviderName], (want.get(provider[r.ProviderName]) ?? 0n) + units(r.BilledCost));
  const alice = bearer(await login(app, 'alice@acme.example'));
  const q = { billing_account_id: GLOBEX_ACCOUNT, period: 'CustomizedPeriod', start_date: '2024-08-01', end_date: '2024-09-30', top: '0' };
  for (const p of ['aws', 'azure', 'all']) {
    const res = await app.inject({ method: 'POST', url: '/v2/billing/aggregated/by_service/chart/globex', query: { ...q, provider: p }, payload: { services: [] }, headers: alice });
    t.equal(res.statusCode, 200);
    const body = res.json();
    const expected = p === 'all' ? [...want.values()].reduce((a, b) => a + b, 0n) : want.get(p)!;
    t.equal(body.summary.custom, money(expected), `provider ${p}`);
    t.equal(body.currency, 'USD');
    if (p === 'all') {
      const sept = body.months.find((m: { month: string }) => m.month === '2024-09');
      t.equal(sept.discount, '5');
      // September in US/Pacific (PDT, UTC-7) starts at 07:00 UTC on the 1st.
      const exact = records.filter((r) => r.ChargePeriodStart >= '2024-09-01 07:00:00').reduce((a, r) => a + units(r.BilledCost), 0n);
      t.equal(sept.monthly_spend, money(exact));
      t.equal(sept.discounted_spend, money(exact - (exact * 5n) / 100n));
    }
  }
  const settings = (await app.inject({ method: 'GET', url: '/v2/billing/settings/globex', headers: alice })).json();
  t.same(settings.providers, ['aws', 'azure', 'oracle'], 'other FOCUS producers are listed by name');
});
