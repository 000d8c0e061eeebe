/**
 * Billing viewers: list, add and remove project-label filters; only viewers of the customer; tenants; and the change
 * applies to the viewer's very next request (same token) — their claims and their billing chart narrow at once.
 */
import t from 'tap';
import { addDays, billingToday } from '@cc/shared/time.ts';
import { build, login, bearer } from '../helper.ts';

const ACME = 'acme-corp';
const ACCOUNT = '01A2B3-C4D5E6-F7A8B9';
const VICTOR = 'victor@acme.example';

t.test('billing viewers', async (t) => {
  const app = await build(t);
  const { pool } = app.env;
  const alice = bearer(await login(app, 'alice@acme.example'));
  const bob = bearer(await login(app, 'bob@initech.example'));
  const victor = bearer(await login(app, VICTOR));
  const list = (headers = alice, customer = ACME) => app.inject({ method: 'GET', url: `/v1/viewers/${customer}/`, headers });
  const add = (payload: object, headers = alice, customer = ACME) =>
    app.inject({ method: 'POST', url: `/v1/viewers/${customer}/filters/`, payload, headers });
  const remove = (user: string, headers = alice, customer = ACME) =>
    app.inject({ method: 'DELETE', url: `/v1/viewers/${customer}/filters/${encodeURIComponent(user)}/`, headers });
  const victorFilters = async () => (await app.inject({ method: 'GET', url: '/v1/auth/me', headers: victor })).json().claims.filters;

  // Two projects carry different team labels yesterday: the viewer's chart shows the one their filter admits.
  const yesterday = addDays(billingToday(), -1);
  await pool.query(
    `INSERT INTO cost_daily (customer_id, billing_account_id, usage_date, provider, provider_name, project_id, project_name, service, cost, credits, currency)
     VALUES ($1, $2, $3, 'gcp', 'Google Cloud', 'p-analytics', 'Analytics', 'BigQuery', 70, 0, 'EUR'),
            ($1, $2, $3, 'gcp', 'Google Cloud', 'p-web', 'Web', 'Cloud Run', 30, 0, 'EUR')`,
    [ACME, ACCOUNT, yesterday],
  );
  await pool.query(
    `INSERT INTO cost_daily_label (customer_id, billing_account_id, usage_date, provider, label_kind, label_key, label_value, project_id, cost, credits, currency)
     VALUES ($1, $2, $3, 'gcp', 'project', 'team', 'analytics', 'p-analytics', 70, 0, 'EUR'),
            ($1, $2, $3, 'gcp', 'project', 'team', 'web', 'p-web', 30, 0, 'EUR')`,
    [ACME, ACCOUNT, yesterday],
  );
  const chartProjects = async () => {
    const res = await app.inject({
      method: 'POST',
      url: `/v2/billing/project/labels/details/chart/${ACME}`,
      query: { billing_account_id: ACCOUNT, period: '7days', top: '0' },
      payload: { project_label: 'team' },
      headers: victor,
    });
    if (res.statusCode !== 200) return { status: res.statusCode, detail: res.json().detail };
    return { status: 200, projects: [...new Set((res.json().series as { project_id: string }[]).map((s) => s.project_id))].sort() };
  };

  t.test('the list shows viewers of the customer with their filters', async (t) => {
    const res = await list();
    t.equal(res.statusCode, 200);
    t.same(res.json(), [{ user: VICTOR, project_label: [{ label_key: 'team', label_value: 'analytics' }] }]);
    t.same(await chartProjects(), { status: 200, projects: ['p-analytics'] });
  });

  t.test('adding a filter applies to the viewer’s next request', async (t) => {
    const res = await add({ users: [VICTOR.toUpperCase()], label_key: 'team', label_value: 'web' });
    t.equal(res.statusCode, 200);
    t.same(res.json(), [
      { user: VICTOR, project_label: [{ label_key: 'team', label_value: 'analytics' }, { label_key: 'team', label_value: 'web' }] },
    ]);
    t.same(await victorFilters(), [
      { customer: ACME, project_label: [{ label_key: 'team', label_value: 'analytics' }, { label_key: 'team', label_value: 'web' }] },
    ]);
    t.same(await chartProjects(), { status: 200, projects: ['p-analytics', 'p-web'] });
    const again = await add({ users: [VICTOR], label_key: 'team', label_value: 'web' });
    t.equal(again.json()[0].project_label.length, 2, 'adding the same filter twice keeps one');
  });

  t.test('only viewers of the customer get filters; nothing half-saved', async (t) => {
    const res = await add({ users: [VICTOR, 'alice@acme.example'], label_key: 'team', label_value: 'data' });
    t.equal(res.statusCode, 400);
    t.same(res.json(), { detail: 'alice@acme.example is not a viewer of this customer' });
    const stranger = await add({ users: ['bob@initech.example'], label_key: 'team', label_value: 'data' });
    t.same(stranger.json(), { detail: 'bob@initech.example is not a viewer of this customer' });
    const { rows } = await pool.query(`SELECT count(*)::int AS n FROM viewer_filter WHERE label_value = 'data'`);
    t.equal(rows[0].n, 0);
    for (const payload of [{ users: [], label_key: 'team', label_value: 'x' }, { users: [VICTOR], label_key: '', label_value: 'x' }, { users: [VICTOR], label_key: 'team' }]) {
      const bad = await add(payload);
      t.equal(bad.statusCode, 400, JSON.stringify(payload));
      t.type(bad.json().detail, 'string');
    }
    const notViewer = await remove('alice@acme.example');
    t.equal(notViewer.statusCode, 404);
    t.same(notViewer.json(), { detail: 'User not found' });
  });

  t.test('tenants: other customers and viewers are refused', async (t) => {
    const bobRead = await list(bob);
    t.equal(bobRead.statusCode, 404);
    t.same(bobRead.json(), { detail: 'Customer not found' });
    t.equal((await add({ users: [VICTOR], label_key: 'team', label_value: 'x' }, bob)).statusCode, 404);
    t.equal((await remove(VICTOR, bob)).statusCode, 404);
    // bob names his own customer and acme's viewer: not a viewer of initech, acme's filters untouched.
    await pool.query(`UPDATE customer SET billing_viewer = true WHERE customer_id = 'initech'`);
    await app.access.publish(); // a write outside the api: the access epoch moves before the next request (NOTIFY may lag)
    const own = await add({ users: [VICTOR], label_key: 'team', label_value: 'x' }, bob, 'initech');
    t.same(own.json(), { detail: 'victor@acme.example is not a viewer of this customer' });
    const ownRemove = await remove(VICTOR, bob, 'initech');
    t.same(ownRemove.json(), { detail: 'User not found' });
    t.equal((await list()).json()[0].project_label.length, 2);
    // A viewer may not manage viewers, not even read the list.
    t.equal((await list(victor)).statusCode, 403);
    t.equal((await remove(VICTOR, victor)).statusCode, 403);
    // Globex has the Billing Viewer feature off.
    const globex = await list(alice, 'globex');
    t.equal(globex.statusCode, 403);
    t.same(globex.json(), { detail: 'Billing Viewer is disabled for this customer' });
  });

  t.test('removing drops every filter of the user for the customer, at once', async (t) => {
    const res = await remove(VICTOR);
    t.equal(res.statusCode, 200);
    t.same(res.json(), [{ user: VICTOR, project_label: [] }]);
    t.same(await victorFilters(), []);
    t.same(await chartProjects(), { status: 403, detail: 'Please contact your system administrator' });
    const back = await add({ users: [VICTOR], label_key: 'team', label_value: 'web' });
    t.equal(back.statusCode, 200);
    t.same(await chartProjects(), { status: 200, projects: ['p-web'] });
  });
});
