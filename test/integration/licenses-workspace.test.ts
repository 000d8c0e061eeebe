/** The Workspace adapters: the real one against a fake Reseller + License Manager, the local tenant by the calendar. */
import t, { type Test } from 'tap';
import { auth as googleAuth } from 'googleapis/build/src/apis/reseller/index.js';
import { googleWorkspace } from '@cc/shared/adapters/workspace/real.ts';
import { localWorkspace, usedOn } from '@cc/shared/adapters/workspace/local.ts';
import { WorkspaceError } from '@cc/shared/ports/workspace.ts';
import { licensing } from 'googleapis/build/src/apis/licensing/index.js';
import { addSubscription, customerIdOf, startFakeWorkspace } from '../fakes/workspace-server.ts';
import { takeViolations } from '../fakes/spec-violations.ts';
import { findLicense, insertLicense } from '@cc/shared/db/licenses/licenses.ts';
import { insertOrder, setOrderStatus } from '@cc/shared/db/licenses/orders.ts';
import { approveOrder } from '../../api/src/licenses/decide.ts';
import { testEnv } from '../helper.ts';

async function realSetup(t: Test) {
  const fake = await startFakeWorkspace();
  t.teardown(() => fake.close());
  const auth = new googleAuth.OAuth2();
  auth.setCredentials({ access_token: fake.token, expiry_date: Date.now() + 3_600_000 });
  return { fake, ws: googleWorkspace({ auth, rootUrl: fake.rootUrl }) };
}

t.test('real: seats total from the subscription, used from the assignments, across pages', async (t) => {
  const { fake, ws } = await realSetup(t);
  addSubscription(fake, { customerDomain: 'acme.example', skuId: '1010020028', skuName: 'Google Workspace Business Standard', planName: 'ANNUAL_MONTHLY_PAY', seats: 50 });
  addSubscription(fake, { customerDomain: 'acme.example', skuId: '1010020027', skuName: 'Google Workspace Business Starter', planName: 'FLEXIBLE', seats: 20 });
  addSubscription(fake, { customerDomain: 'acme.example', skuId: '1010020020', skuName: 'Enterprise Plus', planName: 'FLEXIBLE', seats: 5, status: 'SUSPENDED' });
  addSubscription(fake, { customerDomain: 'other.example', skuId: '1010020028', skuName: 'Google Workspace Business Standard', planName: 'FLEXIBLE', seats: 9 });
  fake.assign('acme.example', '1010020028', 1203);
  fake.assign('acme.example', '1010020027', 7);
  const seats = await ws.listSeats('acme.example');
  t.same(seats, [
    { sku_id: '1010020028', sku_name: 'Google Workspace Business Standard', plan: 'ANNUAL_MONTHLY_PAY', total: 50, used: 1203 },
    { sku_id: '1010020027', sku_name: 'Google Workspace Business Starter', plan: 'FLEXIBLE', total: 20, used: 7 },
  ]);
  const assignmentPages = fake.requests.filter((r) => r.path === '/apps/licensing/v1/product/Google-Apps/users');
  t.equal(assignmentPages.length, 2, 'assignments paged at maxResults 1000');
  t.same([...new Set(assignmentPages.map((r) => r.query.get('customerId')))], [customerIdOf('acme.example')], "Licensing is given the customer's unique id from the subscriptions, not the domain");
  t.ok(assignmentPages.every((r) => r.query.get('maxResults') === '1000'));
  t.equal(fake.requests.filter((r) => r.path === '/apps/reseller/v1/subscriptions').length, 3, 'subscriptions listed until nextPageToken is absent');
  t.same(fake.unhandled, []);
});

t.test('the fake refuses, in the Licensing document’s words, a domain given as customerId', async (t) => {
  const { fake } = await realSetup(t);
  addSubscription(fake, { customerDomain: 'acme.example', skuId: '1010020028', skuName: 'Business Standard', planName: 'FLEXIBLE', seats: 5 });
  const auth = new googleAuth.OAuth2();
  auth.setCredentials({ access_token: fake.token, expiry_date: Date.now() + 3_600_000 });
  const api = licensing({ version: 'v1', auth, rootUrl: fake.rootUrl });
  const wrong = await api.licenseAssignments.listForProduct({ productId: 'Google-Apps', customerId: 'acme.example' }).catch((e: unknown) => e);
  t.match(wrong, { status: 400, message: /customerId="acme\.example".*The customer's unique ID as defined in the Admin console, such as `C00000000`/ });
  t.same(takeViolations().map((v) => v.replace(/customerId=.*/, 'customerId=…')), ['licensing v1 (discovery revision 20220430): licensing.licenseAssignments.listForProduct: customerId=…']);
  const unknownParam = await api.licenseAssignments.listForProduct({ productId: 'Google-Apps', customerId: customerIdOf('acme.example'), maxResults: 5000 }).catch((e: unknown) => e);
  t.match(unknownParam, { status: 400, message: /maxResults: 5000 is outside 1\.\.1000/ }, 'the parameter bounds come from the document too');
  t.equal(takeViolations().length, 1);
});

t.test('real: ensureSeats sets the plan’s writable field, by SKU, once', async (t) => {
  const { fake, ws } = await realSetup(t);
  addSubscription(fake, { customerDomain: 'acme.example', skuId: '1010020028', skuName: 'Business Standard', planName: 'ANNUAL_YEARLY_PAY', seats: 50 });
  addSubscription(fake, { customerDomain: 'acme.example', skuId: '1010020027', skuName: 'Business Starter', planName: 'FLEXIBLE', seats: 20 });
  fake.assign('acme.example', '1010020028', 48);

  const first = await ws.ensureSeats('acme.example', '1010020028', 60);
  t.match(first, { total: 60, used: 48 });
  t.same(fake.seatChanges.map((c) => c.body), [{ kind: 'subscriptions#seats', numberOfSeats: 60 }], 'numberOfSeats only, never licensedNumberOfSeats');
  const changedId = fake.subscriptions[0].subscriptionId;
  t.not(changedId, 'sub-1', 'Google gave the subscription a new id');
  const again = await ws.ensureSeats('acme.example', '1010020028', 60);
  t.match(again, { total: 60 });
  t.equal(fake.seatChanges.length, 1, 'a repeat finds the seats there (looked up by SKU, not by the old id) and changes nothing');
  t.equal((await ws.ensureSeats('acme.example', '1010020028', 55)).total, 60, 'never reduces');

  await ws.ensureSeats('acme.example', '1010020027', 25);
  t.same(fake.seatChanges[1].body, { kind: 'subscriptions#seats', maximumNumberOfSeats: 25 }, 'flexible plans set maximumNumberOfSeats');
});

t.test('real: provider errors become WorkspaceErrors, transient or not', async (t) => {
  const { fake, ws } = await realSetup(t);
  addSubscription(fake, { customerDomain: 'acme.example', skuId: '1010020028', skuName: 'Business Standard', planName: 'FLEXIBLE', seats: 5 });
  await t.rejects(ws.listSeats('nobody.example'), { name: 'WorkspaceError', transient: false, message: /subscriptions.list: Not Found/ });
  await t.rejects(ws.ensureSeats('acme.example', '999', 10), { transient: false, message: /no active subscription for SKU 999/ });
  fake.failNextChangeSeats(503);
  const err = await ws.ensureSeats('acme.example', '1010020028', 10).catch((e: unknown) => e);
  t.ok(err instanceof WorkspaceError && err.transient, 'a 503 is transient');
  // The client retries a 429 by itself (gaxios); past its retries the error is transient.
  fake.quotaExceededNext(20);
  await t.rejects(ws.listSeats('acme.example'), { name: 'WorkspaceError', transient: true }, '429 is transient');
});

t.test('local: a tenant per domain whose usage grows by the calendar, deterministic', async (t) => {
  const { pool } = await testEnv(t, { seed: false });
  let now = Date.parse('2026-03-02T20:00:00Z');
  const ws = localWorkspace(pool, { now: () => now });
  const day0 = await ws.listSeats('acme.example');
  t.same(day0.map((s) => [s.sku_id, s.plan, s.total, s.used]), [
    ['1010020027', 'FLEXIBLE', 20, 12],
    ['1010020028', 'ANNUAL_MONTHLY_PAY', 50, 42],
  ]);
  t.same(await ws.listSeats('acme.example'), day0, 'the same day gives the same answer');
  now += 6 * 86_400_000;
  t.same((await ws.listSeats('acme.example')).map((s) => s.used), [16, 46], 'two more users every three days');
  await t.rejects(ws.ensureSeats('acme.example', '42', 3), { name: 'WorkspaceError', transient: false });
  t.match(await ws.ensureSeats('acme.example', '1010020028', 60), { total: 60, used: 46 });
  t.match(await ws.ensureSeats('acme.example', '1010020028', 60), { total: 60 }, 'absolute: repeating adds nothing');
  t.equal(usedOn({ seats: 10, base_used: 9, start_day: '2026-01-01' }, '2026-02-01'), 10, 'never more than the seats');
  await t.rejects(ws.listSeats(''), { message: /no domain_name/ });
});

t.test('approval against the provider: the seats are added once, through failures, retries and races', async (t) => {
  const { fake, ws } = await realSetup(t);
  const { pool } = await testEnv(t);
  addSubscription(fake, { customerDomain: 'acme.example', skuId: '1010020028', skuName: 'Business Standard', planName: 'ANNUAL_MONTHLY_PAY', seats: 50 });
  fake.assign('acme.example', '1010020028', 49);
  await insertLicense(pool, { customer_id: 'acme-corp', sku_id: '1010020028', sku_name: 'Business Standard', volume_total: 50, volume_available: 1, threshold: 2, auto_order: false, new_order: 1 });
  const order = await insertOrder(pool, { customer_id: 'acme-corp', sku_id: '1010020028', sku_name: 'Business Standard', order_amount: 4, order_by: 'alice@acme.example', comment: '' });
  const caller = { customerId: 'acme-corp', domain: 'acme.example', admin: 'admin@commandcenter.local' };

  fake.failNextChangeSeats(400);
  const failed = await approveOrder(pool, ws, caller, order.order_id);
  t.match(failed, { outcome: 'provider-failed', order: { status: 'Failed', error: 'subscriptions.changeSeats: Backend Error' } });
  const [a, b] = await Promise.all([approveOrder(pool, ws, caller, order.order_id), approveOrder(pool, ws, caller, order.order_id)]);
  t.match([a, b], [{ outcome: 'done', order: { status: 'Fulfilled' } }, { outcome: 'done', order: { status: 'Fulfilled' } }]);
  t.equal(fake.subscriptions[0].seats, 54, '50 + 4, not 58 or 62');
  t.same(fake.seatChanges.map((c) => c.body.numberOfSeats), [54, 54], 'the failed call and its retry asked for the same absolute number');
  t.match(await findLicense(pool, 'acme-corp', '1010020028'), { volume_total: 54, volume_available: 5 });

  // A crash after Google's answer but before the record: the order is still Approved with its target.
  const second = await insertOrder(pool, { customer_id: 'acme-corp', sku_id: '1010020028', sku_name: 'Business Standard', order_amount: 6, order_by: 'alice@acme.example', comment: '' });
  await setOrderStatus(pool, second.order_id, { status: 'Approved', decided_by: caller.admin, seats_target: 60 });
  fake.subscriptions[0].seats = 60;
  t.match(await approveOrder(pool, ws, caller, second.order_id), { outcome: 'done', order: { status: 'Fulfilled' } });
  t.equal(fake.seatChanges.length, 2, 'Google already held the target: no second change');
  t.equal(fake.subscriptions[0].seats, 60);
});
