/**
 * A customerViewer sees only what his project-label filter admits, on every answer: every operation of the OpenAPI
 * document (routes added later too) is called as victor (filter team=analytics) and then as alice (the customer),
 * on an estate where acme has projects outside victor's filter on both billing accounts. No answer victor gets may
 * name one of those projects. alice's answers show the walk reaches data: the routes that carry projects name them
 * for her.
 */
import t from 'tap';
import { randomUUID } from 'node:crypto';
import { build } from '../helper.ts';
import { example, operations, type Operation } from './openapi.ts';
import { ACCOUNT_A, ACCOUNT_B, ACME, ADMITTED, ALICE, EXCLUDED, VICTOR, seedViewerEstate } from '../fixtures/viewer-estate.ts';

/** Path values that reach the handlers (the customer, its accounts, the anomaly date), by parameter name. */
function pathValues(anomalyDate: string, account: string): Record<string, string> {
  return {
    customer: ACME,
    customer_id: ACME,
    id: ACME,
    list: 'users',
    billing_account_id: account,
    date: anomalyDate,
    minimum_anomaly_threshold: '0',
    minimum_value_toggled_anomaly: '0',
    user: VICTOR,
    key: 'CC-1',
    attachment_id: '00000000-0000-4000-8000-0000000a0a00',
    role: 'customer',
    state: 'Open',
    nodeId: 'x',
    generated_name: 'probe.txt',
    token: 'probe-token',
  };
}

/** Query values that give a full answer rather than a 400 (the charts' period, the viewer's label key). */
const QUERY: Record<string, string> = { period: '30days', top: '0', timezone: 'UTC', provider: 'all' };

interface Call {
  label: string;
  method: string;
  url: string;
  payload?: string;
}

function calls(op: Operation, anomalyDate: string): Call[] {
  const names = op.parameters.map((p) => p.name);
  // an operation that names a billing account is walked on each of the customer's two
  const accounts = names.includes('billing_account_id') ? [ACCOUNT_A, ACCOUNT_B] : [ACCOUNT_A];
  return accounts.map((account) => {
    const values = pathValues(anomalyDate, account);
    const path = op.path.replace(/\{(\w+)\}/g, (_m, name: string) => encodeURIComponent(values[name] ?? String(example(undefined, name))));
    const query = op.parameters
      .filter((p) => p.in === 'query' && (p.required || p.name in QUERY || p.name === 'billing_account_id'))
      .map((p) => `${p.name}=${encodeURIComponent(p.name === 'billing_account_id' ? account : (QUERY[p.name] ?? String(example(p.schema, p.name))))}`);
    const body = op.body ? { ...(example(op.body) as object), ...(op.path.includes('/project/labels/') ? { project_label: 'team' } : {}) } : undefined;
    const url = query.length ? `${path}?${query.join('&')}` : path;
    return { label: `${op.method} ${url}`, method: op.method, url, payload: body === undefined ? undefined : JSON.stringify(body) };
  });
}

t.test('every route answers a viewer only with the projects his filter admits', async (t) => {
  const app = await build(t);
  const { anomalyDate } = await seedViewerEstate(app.env.pool);
  const ops = await operations(app);
  t.ok(ops.length > 50, `walking ${ops.length} operations of the OpenAPI document`);

  // A fresh token (and session) per request: a walked logout or "sign out everywhere" ends no session the walk needs.
  const token = (sub: string) => `Bearer ${app.jwt.sign({ sub, claims: null, sid: randomUUID() }, { expiresIn: '10m', jti: randomUUID() })}`;
  const send = (c: Call, sub: string) =>
    app.inject({
      method: c.method as 'GET',
      url: c.url,
      headers: { authorization: token(sub), ...(c.payload === undefined ? {} : { 'content-type': 'application/json' }) },
      payload: c.payload,
    });
  const named = (body: string) => EXCLUDED.filter((p) => body.includes(p));

  const all = ops.flatMap((op) => calls(op, anomalyDate));
  // victor first: alice's walk includes changes (a viewer's filters removed, an alert deleted) his must not see yet
  const victor = new Map<string, { status: number; body: string }>();
  for (const c of all) {
    const res = await send(c, VICTOR);
    victor.set(c.label, { status: res.statusCode, body: res.body });
  }
  const alice = new Map<string, { status: number; body: string }>();
  for (const c of all) {
    const res = await send(c, ALICE);
    alice.set(c.label, { status: res.statusCode, body: res.body });
  }

  const leaks = [...victor].filter(([, r]) => named(r.body).length > 0).map(([label, r]) => `${label} → ${r.status} names ${named(r.body).join(', ')}`);
  t.same(leaks, [], 'no answer to the viewer names a project outside his filter');

  // The walk reaches the data: for alice these routes name projects victor may not see, for victor they answer with his own.
  const carries = [...alice].filter(([, r]) => r.status === 200 && named(r.body).length > 0).map(([label]) => label);
  t.ok(carries.length >= 8, `${carries.length} answers name projects outside victor's filter for alice:\n${carries.join('\n')}`);
  const expectCarrying = [
    'GET /v1/monitoring/acme-corp/figures/',
    'GET /v1/monitoring/acme-corp/',
    `POST /v2/billing/project/labels/details/chart/acme-corp?billing_account_id=${ACCOUNT_A}`,
    `GET /v1/anomalies/customer_id/acme-corp/billing_account_id/${ACCOUNT_A}/date/${anomalyDate}`,
    'GET /v1/asset-inventory/acme-corp/assets',
    'GET /v1/asset-inventory/acme-corp/visualize/',
  ];
  for (const prefix of expectCarrying) t.ok(carries.some((l) => l.startsWith(prefix)), `alice's ${prefix} names them`);
  const seen = (prefix: string) => [...victor].find(([l]) => l.startsWith(prefix))?.[1];
  for (const prefix of expectCarrying) {
    const r = seen(prefix);
    t.equal(r?.status, 200, `victor reads ${prefix}`);
    t.ok(ADMITTED.some((p) => r?.body.includes(p)), `and sees his own projects there`);
  }
});
