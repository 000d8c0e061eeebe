/**
 * victor (customerViewer, filter team=analytics) on System Health: his figures are his billing dashboard's — the
 * month to date of his projects equals the dashboard's (his account is the customer's first), a project is counted
 * only on the days it carried his label — without the customer's alerts or unconverted spend of others; the inventory
 * shows his projects' assets only; with no filter left every answer that carries spend or projects refuses him, as
 * billing does. Mails about the whole account are not sent to him.
 */
import t from 'tap';
import { addDays } from '@cc/shared/time.ts';
import { listUnnotifiedAnomalies } from '@cc/shared/db/anomalies.ts';
import { listPendingNotices } from '@cc/shared/db/alerts.ts';
import { provisioningRecipients } from '@cc/shared/provisioning/mails.ts';
import { encodeNodeId } from '@cc/shared/inventory/graph.ts';
import { build, login, bearer } from '../helper.ts';
import { ACCOUNT_A, ACCOUNT_B, ACME, ALICE, DAYS, VICTOR, seedViewerEstate } from '../fixtures/viewer-estate.ts';

const cents = (s: string) => Math.round(Number(s) * 100);
const sumCents = (xs: string[]) => xs.reduce((a, x) => a + cents(x), 0);

t.test('a viewer’s System Health figures are those of his billing dashboard', async (t) => {
  const app = await build(t);
  const { today, anomalyDate } = await seedViewerEstate(app.env.pool);
  const victor = bearer(await login(app, VICTOR));
  const alice = bearer(await login(app, ALICE));
  const figures = async (headers: Record<string, string>) => app.inject({ url: `/v1/monitoring/${ACME}/figures/`, headers });
  const dashboard = async (account: string, headers = victor) =>
    app.inject({
      method: 'POST',
      url: `/v2/billing/project/labels/chart/${ACME}`,
      query: { billing_account_id: account, period: '30days', top: '0' },
      payload: { project_label: 'team' },
      headers,
    });

  const mine = (await figures(victor)).json();
  const all = (await figures(alice)).json();
  // his billing account is the first (the picker is hidden for him): acme-analytics-dev, on the second, is not his
  t.same(mine.projects.map((p: { project_id: string }) => p.project_id), ['acme-analytics-prod', 'acme-mixed-etl']);

  t.test('month to date: the sum of his projects equals his dashboard’s', async (t) => {
    const a = await dashboard(ACCOUNT_A);
    t.equal(a.statusCode, 200, a.body.slice(0, 200));
    const billing = cents(a.json().summary.month_to_date);
    const health = sumCents(mine.projects.map((p: { month_to_date: string }) => p.month_to_date));
    t.equal(health, billing, `figures ${health / 100} = dashboard ${billing / 100}`);
    t.same((await dashboard(ACCOUNT_B)).json(), { detail: 'Billing account not found' }, 'the second account is not his');
    // the customer's: both accounts' dashboards (the USD project is in neither: it has no rate)
    const both = cents((await dashboard(ACCOUNT_A, alice)).json().summary.month_to_date) + cents((await dashboard(ACCOUNT_B, alice)).json().summary.month_to_date);
    const allHealth = sumCents(all.projects.map((p: { month_to_date: string }) => p.month_to_date));
    t.equal(allHealth, both, `customer: figures ${allHealth / 100} = dashboards ${both / 100}`);
    // (on the first of a month both are 0: the month has no day before today)
    if (!today.endsWith('-01')) t.ok(allHealth > health, 'the customer’s is larger');
  });

  t.test('the project whose team changes counts on his days only', async (t) => {
    // acme-mixed-etl: team=analytics on even days of the fixture (day i costs 7 + i/100, less 0.25 credits)
    const from = addDays(today, -(DAYS - 1));
    let want = 0;
    let wantAll = 0;
    for (let i = 0; i < DAYS; i++) {
      const day = addDays(from, i);
      if (day < `${today.slice(0, 8)}01` || day >= today) continue;
      const c = cents((7 + i / 100).toFixed(2)) - 25;
      wantAll += c;
      if (i % 2 === 0) want += c;
    }
    const row = (f: { projects: { project_id: string; month_to_date: string }[] }) => f.projects.find((p) => p.project_id === 'acme-mixed-etl');
    t.equal(cents(row(mine)?.month_to_date ?? '0'), want);
    t.equal(cents(row(all)?.month_to_date ?? '0'), wantAll);
  });

  t.test('his anomalies, no alerts, no one else’s unconverted spend', async (t) => {
    const anomalies = (f: { projects: { project_id: string; open_anomalies: number }[] }) => f.projects.filter((p) => p.open_anomalies > 0).map((p) => p.project_id);
    t.same(anomalies(mine), ['acme-analytics-prod']);
    t.same(anomalies(all), ['acme-analytics-prod', 'acme-secret-lab', 'acme-webshop-prod']);
    t.same(mine.alerts, [], 'the alerts are the customer’s, over the whole account');
    t.equal(all.alerts.length, 2);
    t.same(mine.unconverted, [], 'the USD spend is the ledger project’s');
    t.same(all.unconverted.map((u: { currency: string }) => u.currency), ['USD']);
    t.equal(mine.anomaly_date, anomalyDate);
  });

  t.test('the credentials panel lists his projects', async (t) => {
    const panel = await app.inject({ url: `/v1/monitoring/${ACME}/`, headers: victor });
    t.equal(panel.statusCode, 200);
    t.same(panel.json().projects.map((p: { project_id: string }) => p.project_id).sort(), ['acme-analytics-prod', 'acme-mixed-etl']);
    const full = await app.inject({ url: `/v1/monitoring/${ACME}/`, headers: alice });
    t.equal(full.json().projects.length, 6);
  });

  t.test('the inventory shows the assets and recommendations of his projects only', async (t) => {
    type Asset = { asset_name: string; project_id: string };
    const assets = async (headers: Record<string, string>) =>
      (await app.inject({ url: `/v1/asset-inventory/${ACME}/assets?limit=1000`, headers })).json() as { total: number; items: Asset[] };
    const his = await assets(victor);
    const every = await assets(alice);
    t.same([...new Set(his.items.map((a) => a.project_id))].sort(), ['acme-analytics-prod', 'acme-mixed-etl']);
    t.equal(his.total, his.items.length, 'the total counts his assets');
    t.ok(every.total > his.total);
    const node = (a: Asset, kind: 'node' | 'history') => app.inject({ url: `/v1/asset-inventory/${ACME}/${kind}/${encodeNodeId(a.asset_name)}`, headers: victor });
    const other = every.items.find((a) => a.project_id === 'acme-webshop-prod')!;
    const own = his.items[0];
    for (const kind of ['node', 'history'] as const) {
      t.same((await node(other, kind)).json(), { detail: 'Inventory node not found' }, `another project's ${kind}`);
      t.equal((await node(own, kind)).statusCode, 200, `his own ${kind}`);
    }
    const recs = (await app.inject({ url: `/v1/asset-inventory/${ACME}/recommendations?limit=1000`, headers: victor })).json();
    t.ok(recs.items.every((r: { project_id: string }) => ['acme-analytics-prod', 'acme-mixed-etl'].includes(r.project_id)), 'recommendations of his projects');
  });

  t.test('mails about the whole account are not sent to a viewer', async (t) => {
    await app.env.pool.query(`INSERT INTO customer_member (customer_id, list, user_id) VALUES ($1, 'alert', $2)`, [ACME, VICTOR]);
    const digest = await listUnnotifiedAnomalies(app.env.pool, anomalyDate, ACME);
    t.ok(digest.length > 0);
    for (const a of digest) t.same(a.recipients, [ALICE], `anomaly ${a.project_id}`);
    const { rows } = await app.env.pool.query(`SELECT id FROM alert WHERE customer_id = $1 ORDER BY id LIMIT 1`, [ACME]);
    await app.env.pool.query(
      `INSERT INTO alert_notice (alert_id, customer_id, month, billing_account_id, spend, quota, currency, evaluated_day)
       VALUES ($1, $2, $3, $4, 150, 100, 'EUR', $5)`,
      [rows[0].id, ACME, today.slice(0, 7), ACCOUNT_A, today],
    );
    const notices = await listPendingNotices(app.env.pool, ACME);
    t.same(notices.map((n) => n.recipients), [[ALICE]]);
    t.same(await provisioningRecipients(app.env.pool, { customer_id: ACME, requester: ALICE }), [ALICE]);
  });

  t.test('no filter left: refused wherever spend or projects are answered, as billing does', async (t) => {
    const removed = await app.inject({ method: 'DELETE', url: `/v1/viewers/${ACME}/filters/${encodeURIComponent(VICTOR)}/`, headers: alice });
    t.equal(removed.statusCode, 200);
    const refused = { detail: 'Please contact your system administrator' };
    const billing = await dashboard(ACCOUNT_A);
    t.equal(billing.statusCode, 403);
    t.same(billing.json(), refused);
    for (const url of [
      `/v1/monitoring/${ACME}/figures/`,
      `/v1/monitoring/${ACME}/`,
      `/v1/asset-inventory/${ACME}/assets`,
      `/v1/anomalies/customer_id/${ACME}/billing_account_id/${ACCOUNT_A}/date/${anomalyDate}/minimum_anomaly_threshold/0/minimum_value_toggled_anomaly/0`,
    ]) {
      const res = await app.inject({ url, headers: victor });
      t.equal(res.statusCode, 403, url);
      t.same(res.json(), refused, url);
    }
    t.equal((await figures(alice)).statusCode, 200, 'the customer still reads them');
  });
});

t.test('with Grafana dashboards, a viewer gets no password: they show every project', async (t) => {
  const app = await build(t, { config: { MONITORING: 'grafana', GRAFANA_URL: 'http://127.0.0.1:9', GRAFANA_ADMIN_PASSWORD: 'unused-here' } });
  const res = await app.inject({ method: 'POST', url: `/v1/monitoring/${ACME}/password`, headers: bearer(await login(app, VICTOR)) });
  t.equal(res.statusCode, 403);
  t.match(res.json().detail, /customer viewer sees only the projects of their filter/);
  const alice = await app.inject({ method: 'POST', url: `/v1/monitoring/${ACME}/password`, headers: bearer(await login(app, ALICE)) });
  t.same(alice.json(), { detail: 'Monitoring not implemented for this customer' }, 'the customer gets on to the usual answer');
});
