/**
 * The license job: seats synced from the (local) Workspace tenant, and exactly one automatic order per threshold
 * crossing, whether the job runs twice in a row or twice at once on two connections; none while one is pending.
 */
import t from 'tap';
import { createPool } from '@cc/shared/db/pool.ts';
import { createProducer } from '@cc/shared/producer.ts';
import { findLicense, insertLicense } from '@cc/shared/db/licenses/licenses.ts';
import { insertOrder, listOrders, setOrderStatus } from '@cc/shared/db/licenses/orders.ts';
import { listHistory } from '@cc/shared/db/licenses/history.ts';
import { localWorkspace } from '@cc/shared/adapters/workspace/local.ts';
import { buildHandlers } from '../../workers/src/handlers.ts';
import type { JobFor } from '@cc/shared/queues.ts';
import { testEnv } from '../helper.ts';
import { REDIS_URL } from '../db.ts';

const ACME = 'acme-corp';
const SKU = '1010020028';
const DAY_MS = 86_400_000;

t.test('one automatic order per crossing, run twice and concurrently', async (t) => {
  const { pool, config } = await testEnv(t);
  const other = createPool(config.DATABASE_URL, 2);
  t.teardown(() => other.end());
  const producer = createProducer(REDIS_URL, config.QUEUE_PREFIX, () => undefined);
  t.teardown(() => producer.close());
  let now = Date.parse('2026-03-02T20:00:00Z');
  const worker = (db: typeof pool) =>
    buildHandlers(['license'], { pool: db, workspace: localWorkspace(db, { now: () => now }), enqueue: producer.enqueue, publicUrl: 'http://cc.test' }).license;
  const job = { data: { customer_id: ACME } } as JobFor<'license'>;
  const [w1, w2] = [worker(pool), worker(other)];
  const autoOrders = async () => (await listOrders(pool, ACME)).filter((o) => o.auto);

  const seats = (await localWorkspace(pool, { now: () => now }).listSeats('acme.example')).find((s) => s.sku_id === SKU)!;
  t.match(seats, { total: 50, used: 42 });
  await insertLicense(pool, { customer_id: ACME, sku_id: SKU, sku_name: seats.sku_name, volume_total: 50, volume_available: 8, threshold: 10, auto_order: true, new_order: 5 });

  const [a, b] = await Promise.all([w1(job), w2(job)]);
  t.same([...(a as { ordered: string[] }).ordered, ...(b as { ordered: string[] }).ordered].length, 1, 'two workers at once: one order');
  let orders = await autoOrders();
  t.equal(orders.length, 1);
  t.match(orders[0], {
    status: 'Pending', order_amount: 5, order_by: 'auto-order', sku_id: SKU,
    comment: 'Automatic order: 8 of 50 seats available, at or below the threshold of 10',
  });
  await w1(job);
  t.equal((await autoOrders()).length, 1, 'none while one is pending');

  await setOrderStatus(pool, orders[0].order_id, { status: 'Rejected', decided_by: 'admin@commandcenter.local' });
  now += 3 * DAY_MS;
  await Promise.all([w1(job), w2(job)]);
  t.equal((await autoOrders()).length, 1, 'still below the threshold: the crossing already had its order');
  t.match(await findLicense(pool, ACME, SKU), { volume_available: 6 }, 'seats synced');

  // Seats added (an approved order elsewhere): the license recovers above its threshold, then usage grows into it.
  await localWorkspace(pool, { now: () => now }).ensureSeats('acme.example', SKU, 60);
  await w1(job);
  t.match(await findLicense(pool, ACME, SKU), { volume_total: 60, volume_available: 16 });
  t.equal((await autoOrders()).length, 1, 'above the threshold: nothing to order');
  now += 9 * DAY_MS;
  await Promise.all([w1(job), w2(job), w1(job)]);
  t.match(await findLicense(pool, ACME, SKU), { volume_available: 10 });
  orders = await autoOrders();
  t.equal(orders.length, 2, 'the new crossing got exactly one order');
  t.match(orders[0], { status: 'Pending', comment: 'Automatic order: 10 of 60 seats available, at or below the threshold of 10' });

  // A person's pending order also holds the automatic one back.
  await setOrderStatus(pool, orders[0].order_id, { status: 'Rejected', decided_by: 'admin@commandcenter.local' });
  await pool.query(`UPDATE license SET volume_available = 30 WHERE customer_id = $1`, [ACME]);
  await pool.query(`UPDATE license SET volume_available = 2 WHERE customer_id = $1`, [ACME]);
  await insertOrder(pool, { customer_id: ACME, sku_id: SKU, sku_name: seats.sku_name, order_amount: 3, order_by: 'alice@acme.example', comment: 'for the new team' });
  const { placeDueAutoOrders } = await import('@cc/shared/db/licenses/orders.ts');
  t.same(await placeDueAutoOrders(pool, ACME, 'auto-order'), [], 'a pending manual order: no automatic one');

  const history = await listHistory(pool, ACME, {}, true);
  const fields = history.flatMap((h) => h.updates.map((u) => `${h.kind}:${u.field}:${JSON.stringify(u.from)}->${JSON.stringify(u.to)}`));
  t.ok(fields.includes('license:volume_available:8->6'), 'synced seats are in the history');
  t.ok(fields.includes('license:volume_total:50->60'));
  t.ok(fields.includes('order:order:null->"Pending"') && fields.includes('order:order:"Pending"->"Rejected"'), 'orders and decisions are in the history');
  t.ok(history.some((h) => h.changed_by === 'license-sync'), 'the sync is named as the actor');
  t.same(await listHistory(pool, ACME, {}, false).then((rows) => rows.filter((r) => r.kind === 'order')), [], 'false leaves orders out');

  const notices = await producer.queues.notify.getJobs(['waiting', 'delayed', 'active', 'completed']);
  const forOrders = notices.filter((j) => j.id?.startsWith('notify-license-order-'));
  t.same(forOrders.map((j) => j.id).sort(), [`notify-license-order-${orders[0].order_id}`, `notify-license-order-${orders[1].order_id}`].sort(), 'one notice per automatic order');
  t.same(forOrders[0].data.to, ['admin@commandcenter.local', 'alice@acme.example'], 'the alert list and the admins');
  await producer.queues.notify.obliterate({ force: true });
});
