/**
 * Notification channels: the routes (who may see and change them, across tenants), and deliveries through the outbox
 * and the notify-channel queue to receivers this test starts on 127.0.0.1. The receivers check what arrives by the
 * documented formats, with code written here: our webhook's signature (docs/decisions-notifications.md), Slack's
 * incoming-webhook message with Block Kit blocks, Teams' Workflows message with an Adaptive Card.
 */
import t from 'tap';
import { createHmac, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Pool } from '@cc/shared/db/pool.ts';
import { durableEnqueue } from '@cc/shared/outbox.ts';
import { queueChannelEvent } from '@cc/shared/notification-channels/queue.ts';
import { checkChannelUrl, postJson, RefusedDestination } from '@cc/shared/notification-channels/send.ts';
import type { ChannelEvent } from '@cc/shared/notification-channels/events.ts';
import { secretBoxFromConfig } from '@cc/shared/secrets-key.ts';
import { buildHandlers } from '../../workers/src/handlers.ts';
import { startWorkers } from '../../workers/src/worker-host.ts';
import { build, login, bearer } from '../helper.ts';
import { REDIS_URL } from '../db.ts';
import { waitFor } from '../faults.ts';

interface Received {
  headers: IncomingMessage['headers'];
  raw: string;
  at: number;
}

/** A receiver on 127.0.0.1: records each request and answers with `answer(n)` (n counts from 0). */
async function receiver(tt: { teardown(fn: () => unknown): void }, answer: (n: number, r: Received, res: ServerResponse) => void = (_n, _r, res) => res.writeHead(200).end('ok')) {
  const got: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const r = { headers: req.headers, raw: Buffer.concat(chunks).toString('utf8'), at: Date.now() };
      got.push(r);
      answer(got.length - 1, r, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  tt.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/hook`;
  return { url, got };
}

/** Our documented scheme, checked as a receiver would: HMAC-SHA256 of the raw body, hex, after `sha256=`. */
function verifyWebhook(secret: string, r: Received, nowSeconds = Math.floor(Date.now() / 1000)) {
  const expected = `sha256=${createHmac('sha256', secret).update(r.raw).digest('hex')}`;
  const body = JSON.parse(r.raw) as { id: string; timestamp: number; type: string };
  return {
    signatureOk: r.headers['x-commandcenter-signature'] === expected,
    timestampOk: r.headers['x-commandcenter-timestamp'] === String(body.timestamp) && Math.abs(nowSeconds - body.timestamp) <= 300,
    deliveryOk: r.headers['x-commandcenter-delivery'] === body.id,
    body,
  };
}

const event = (over: Partial<ChannelEvent> = {}): ChannelEvent => ({
  type: 'alert.over_quota',
  key: `test-${randomUUID()}`,
  customer_id: 'acme-corp',
  occurred_at: new Date().toISOString(),
  title: 'Alert over quota: 120.00 EUR spent of 100.00',
  text: 'Acme Corp spent 120.00 EUR this month, over the quota of 100.00 EUR.',
  facts: [{ name: 'Spend', value: '120.00 EUR' }],
  link: 'http://cc.test/billing/alerts?customer=acme-corp',
  data: { alert_id: 1 },
  ...over,
});

t.test('notification channels', async (t) => {
  const app = await build(t);
  const { pool, config } = app.env;
  const admin = await login(app, 'admin@commandcenter.local');
  const alice = await login(app, 'alice@acme.example');
  const bob = await login(app, 'bob@initech.example');
  const victor = await login(app, 'victor@acme.example');
  const host = await startWorkers({
    redisUrl: REDIS_URL,
    prefix: config.QUEUE_PREFIX,
    queues: ['notify-channel'],
    handlers: buildHandlers(['notify-channel'], { pool, secretBox: secretBoxFromConfig(config), enqueue: app.producers.enqueue, channelSendPolicy: { production: false } }),
  });
  t.teardown(() => host.close());
  const enqueue = durableEnqueue(pool, app.producers);

  const create = (token: string, customer: string, body: Record<string, unknown>) =>
    app.inject({ method: 'POST', url: `/v1/customers/${customer}/channels/`, headers: bearer(token), payload: body });
  // each test removes its channels at its end: the next test's events reach only its own
  const remove = async (customer: string, id: string) => {
    const res = await app.inject({ method: 'DELETE', url: `/v1/customers/${customer}/channels/${id}/`, headers: bearer(admin) });
    if (res.statusCode !== 204) throw new Error(`channel ${id} not deleted: ${res.body}`);
  };
  const deliveries = (p: Pool, channelId: string) =>
    p.query<{ id: string; attempt: number; delivered_at: Date | null; failed_at: Date | null; last_status: number | null; last_error: string | null }>(
      'SELECT id::text, attempt, delivered_at, failed_at, last_status, last_error FROM channel_delivery WHERE channel_id = $1 ORDER BY created_at', [channelId]).then((r) => r.rows);

  t.test('a signed webhook: secret shown once, body signed as documented, sent once per event', async (t) => {
    const rx = await receiver(t);
    const res = await create(alice, 'acme-corp', { kind: 'webhook', name: 'Ops hook', url: rx.url, events: ['alert.over_quota', 'anomaly.found'] });
    t.equal(res.statusCode, 201);
    const { channel, secret } = res.json() as { channel: { id: string; host: string }; secret: string };
    t.match(secret, /^whsec_[A-Za-z0-9_-]{43}$/);
    t.equal(channel.host, new URL(rx.url).host);
    const list = await app.inject({ method: 'GET', url: '/v1/customers/acme-corp/channels/', headers: bearer(alice) });
    t.equal(list.statusCode, 200);
    t.notOk(list.body.includes(secret), 'the secret is never answered again');
    t.notOk(list.body.includes('/hook'), 'nor the URL');
    const { rows: [stored] } = await pool.query('SELECT url_sealed, secret_sealed FROM notification_channel WHERE id = $1', [channel.id]);
    t.notOk(stored.secret_sealed.includes(secret), 'stored sealed');
    t.notOk(stored.url_sealed.includes('127.0.0.1'), 'the URL too');

    const e = event();
    t.equal(await queueChannelEvent(pool, enqueue, e), 1);
    t.equal(await queueChannelEvent(pool, enqueue, e), 0, 'the same event again records nothing');
    t.equal(await queueChannelEvent(pool, enqueue, event({ type: 'ticket.commented' })), 0, 'an event the channel does not take');
    await waitFor('the delivery', async () => (await deliveries(pool, channel.id))[0]?.delivered_at, 60_000);
    t.equal(rx.got.length, 1);
    const v = verifyWebhook(secret, rx.got[0]);
    t.ok(v.signatureOk, 'X-CommandCenter-Signature is sha256= and the hex HMAC of the raw body');
    t.ok(v.timestampOk, 'X-CommandCenter-Timestamp is the body\'s timestamp, and recent');
    t.ok(v.deliveryOk, 'X-CommandCenter-Delivery is the body\'s id');
    t.equal(v.body.id, (await deliveries(pool, channel.id))[0].id, 'the delivery id is the row\'s');
    t.equal(v.body.type, 'alert.over_quota');
    t.equal(rx.got[0].headers['content-type'], 'application/json');
    // a tampered body fails the check written from the documentation
    t.notOk(verifyWebhook(secret, { ...rx.got[0], raw: rx.got[0].raw.replace('120.00', '12.00') }).signatureOk);

    const test = await app.inject({ method: 'POST', url: `/v1/customers/acme-corp/channels/${channel.id}/test/`, headers: bearer(alice) });
    t.same(test.json(), { ok: true, status: 200, detail: 'Delivered: the receiver answered 200' });
    t.ok(verifyWebhook(secret, rx.got[1]).signatureOk, 'the test is signed the same way');
    await remove('acme-corp', channel.id);
  });

  t.test('Slack: an incoming-webhook message with Block Kit blocks', async (t) => {
    const rx = await receiver(t);
    const res = await create(admin, 'acme-corp', { kind: 'slack', name: 'Slack #finops', url: rx.url, events: ['anomaly.found'] });
    t.equal(res.statusCode, 201);
    t.equal(res.json().secret, null, 'no secret: the URL is Slack\'s credential');
    t.teardown(() => remove('acme-corp', (res.json() as { channel: { id: string } }).channel.id));
    await queueChannelEvent(pool, enqueue, event({ type: 'anomaly.found', title: 'Anomalies <found> & more', text: 'Spend rose on 2026-11-20.' }));
    await waitFor('the Slack message', async () => rx.got.length === 1, 60_000);
    const body = JSON.parse(rx.got[0].raw) as { text: string; blocks: { type: string; text?: { type: string; text: string }; fields?: { type: string; text: string }[]; elements?: { type: string; text: string }[] }[] };
    // Slack: `text` is the notification fallback; blocks are header (plain_text ≤ 150), section (mrkdwn ≤ 3000), context
    t.equal(typeof body.text, 'string');
    t.same(body.blocks.map((b) => b.type), ['header', 'section', 'section', 'context']);
    t.equal(body.blocks[0].text!.type, 'plain_text');
    t.ok(body.blocks[0].text!.text.length <= 150);
    t.equal(body.blocks[1].text!.type, 'mrkdwn');
    t.ok(body.blocks[2].fields!.every((f) => f.type === 'mrkdwn' && f.text.length <= 2000));
    t.ok(body.blocks[3].elements!.every((e) => e.type === 'mrkdwn'));
    t.match(body.blocks[3].elements![1].text, /^<http:\/\/cc\.test\/billing\/alerts\?customer=acme-corp\|Open in CommandCenter>$/);
  });

  t.test('Microsoft Teams: a Workflows message with one Adaptive Card', async (t) => {
    const rx = await receiver(t);
    const res = await create(alice, 'acme-corp', { kind: 'teams', name: 'Teams FinOps', url: rx.url, events: ['license_order.placed'] });
    t.equal(res.statusCode, 201);
    t.teardown(() => remove('acme-corp', (res.json() as { channel: { id: string } }).channel.id));
    await queueChannelEvent(pool, enqueue, event({ type: 'license_order.placed' }));
    await waitFor('the Teams message', async () => rx.got.length === 1, 60_000);
    const body = JSON.parse(rx.got[0].raw) as { type: string; attachments: { contentType: string; contentUrl: null; content: { type: string; version: string; $schema: string; body: { type: string }[]; actions: { type: string; url: string }[] } }[] };
    t.equal(body.type, 'message');
    t.equal(body.attachments.length, 1);
    t.equal(body.attachments[0].contentType, 'application/vnd.microsoft.card.adaptive');
    t.equal(body.attachments[0].contentUrl, null);
    const card = body.attachments[0].content;
    t.equal(card.type, 'AdaptiveCard');
    t.equal(card.$schema, 'http://adaptivecards.io/schemas/adaptive-card.json');
    t.match(card.version, /^1\.[0-9]$/);
    t.same(card.body.map((b) => b.type), ['TextBlock', 'TextBlock', 'FactSet', 'TextBlock']);
    t.same(card.actions.map((a) => a.type), ['Action.OpenUrl']);
  });

  t.test('retried on 500 and on 429 after its Retry-After, under the same delivery id', async (t) => {
    const rx = await receiver(t, (n, _r, res) => {
      if (n === 0) res.writeHead(500).end('x'.repeat(5000));
      else if (n === 1) res.writeHead(429, { 'retry-after': '1' }).end('slow down');
      else res.writeHead(200).end('ok');
    });
    const { channel } = (await create(alice, 'acme-corp', { kind: 'webhook', name: 'Flaky', url: rx.url, events: ['alert.over_quota'] })).json() as { channel: { id: string } };
    await queueChannelEvent(pool, enqueue, event());
    await waitFor('the third attempt delivered', async () => (await deliveries(pool, channel.id))[0]?.delivered_at, 60_000);
    t.equal(rx.got.length, 3);
    const ids = rx.got.map((r) => r.headers['x-commandcenter-delivery']);
    t.equal(new Set(ids).size, 1, 'one delivery id for every attempt');
    const [d] = await deliveries(pool, channel.id);
    t.equal(d.attempt, 3);
    // the attempt after the 429 waited what Retry-After said (the job's delay, not a measured time)
    const { rows } = await pool.query<{ opts: { delay?: number } }>(`SELECT opts FROM outbox WHERE queue = 'notify-channel' AND job_id = $1`, [`channel-${d.id}-3`]);
    t.equal(rows[0].opts.delay, 1000);
    const { rows: [kept] } = await pool.query<{ n: number }>(`SELECT max(length(last_response))::int AS n FROM channel_delivery`);
    t.ok(kept.n <= 1024, 'at most 1 KB of an answer kept');
    await remove('acme-corp', channel.id);
  });

  t.test('refused: http and private addresses in production, redirects not followed', async (t) => {
    t.throws(() => checkChannelUrl('http://hooks.example.com/x', true), { message: 'URL must start with https://' });
    t.throws(() => checkChannelUrl('http://127.0.0.1:9/x', true), { message: 'URL must start with https://' });
    t.throws(() => checkChannelUrl('http://hooks.example.com/x', false), /https:\/\//);
    t.ok(checkChannelUrl('http://127.0.0.1:9/x', false), 'http to loopback outside production');
    const bad = await create(alice, 'acme-corp', { kind: 'slack', name: 'Plain http', url: 'http://hooks.example.com/x', events: ['anomaly.found'] });
    t.same([bad.statusCode, bad.json()], [400, { detail: 'URL must start with https:// (http:// only to localhost outside production)' }]);
    // production: the name is resolved and its address checked before any connection (localhost → 127.0.0.1)
    const rx = await receiver(t);
    const port = new URL(rx.url).port;
    for (const url of [`https://localhost:${port}/hook`, `https://127.0.0.1:${port}/hook`, `https://[::ffff:10.0.0.1]:${port}/hook`, `https://169.254.169.254/latest`]) {
      await t.rejects(postJson(url, '{}', {}, { production: true }), RefusedDestination, url);
    }
    t.equal(rx.got.length, 0, 'nothing reached the receiver');

    const target = await receiver(t);
    const redirecting = await receiver(t, (_n, _r, res) => res.writeHead(302, { location: target.url }).end());
    const { channel } = (await create(alice, 'acme-corp', { kind: 'webhook', name: 'Moved', url: redirecting.url, events: ['alert.over_quota'] })).json() as { channel: { id: string } };
    await queueChannelEvent(pool, enqueue, event());
    const [d] = await waitFor('given up', async () => ((await deliveries(pool, channel.id))[0]?.failed_at ? deliveries(pool, channel.id) : null), 60_000);
    t.equal(d.last_status, 302);
    t.match(d.last_error, /^redirect not followed \(302 to http:\/\/127\.0\.0\.1/);
    t.equal(redirecting.got.length, 1);
    t.equal(target.got.length, 0, 'the redirect was not followed');
    await remove('acme-corp', channel.id);
  });

  t.test('given up after a day of retries, then in the operations inbox until a later delivery', async (t) => {
    const rx = await receiver(t, (_n, _r, res) => res.writeHead(503).end('down'));
    const { channel } = (await create(alice, 'acme-corp', { kind: 'webhook', name: 'Down for good', url: rx.url, events: ['alert.over_quota'] })).json() as { channel: { id: string } };
    // an event of yesterday: its next retry would start more than a day after it
    const e = event();
    await queueChannelEvent(pool, enqueue, e);
    await pool.query(`UPDATE channel_delivery SET created_at = now() - interval '25 hours' WHERE channel_id = $1`, [channel.id]);
    const [d] = await waitFor('given up', async () => ((await deliveries(pool, channel.id))[0]?.failed_at ? deliveries(pool, channel.id) : null), 60_000);
    t.match(d.last_error, /^given up after a day: answered 503$/);
    app.operationsInbox.invalidate();
    const inbox = await app.inject({ method: 'GET', url: '/v1/operations/inbox?kind=channel_delivery_failed', headers: bearer(admin) });
    const items = (inbox.json() as { items: { kind: string; customer_id: string; what: string }[] }).items;
    t.same(items.map((i) => [i.kind, i.customer_id, i.what]), [['channel_delivery_failed', 'acme-corp', 'Notification channel Down for good: 1 notice not delivered']]);
    const listed = (await app.inject({ method: 'GET', url: '/v1/customers/acme-corp/channels/', headers: bearer(alice) })).json() as { items: { id: string; failed_deliveries: number }[] };
    t.equal(listed.items.find((c) => c.id === channel.id)!.failed_deliveries, 1);
    await remove('acme-corp', channel.id);
    app.operationsInbox.invalidate();
    const after = await app.inject({ method: 'GET', url: '/v1/operations/inbox?kind=channel_delivery_failed', headers: bearer(admin) });
    t.same((after.json() as { items: unknown[] }).items, [], 'a deleted channel leaves the inbox');
  });

  t.test('the events are recorded where their e-mails are: orders, decisions, provider comments', async (t) => {
    const rx = await receiver(t);
    const { channel } = (await create(alice, 'acme-corp', { kind: 'webhook', name: 'Everything', url: rx.url, events: ['license_order.placed', 'license_order.decided', 'project_request.decided', 'ticket.commented'] })).json() as { channel: { id: string } };
    const types = async () => (await pool.query<{ type: string }>(`SELECT event->>'type' AS type FROM channel_delivery WHERE channel_id = $1 ORDER BY created_at`, [channel.id])).rows.map((r) => r.type);

    // a license order placed by alice, then rejected by the provider
    t.equal((await app.inject({ method: 'PUT', url: '/v1/licenses/acme.example', headers: bearer(alice), payload: { sku_id: '1010020028', threshold: 5, auto_order: false, new_order: 1 } })).statusCode < 300, true);
    const placed = await app.inject({ method: 'PUT', url: '/v1/licenses/orders/acme.example', headers: bearer(alice), payload: { sku_id: '1010020028', customer_id: 'acme-corp', order_amount: 3, comment: 'new hires' } });
    t.equal(placed.statusCode, 201);
    const orderId = (placed.json() as { order_id: string }).order_id;
    t.equal((await app.inject({ method: 'POST', url: `/v1/licenses/orders/acme.example/${orderId}/false`, headers: bearer(admin) })).statusCode, 200);

    // a project request rejected by the provider
    const asked = await app.inject({ method: 'POST', url: '/v1/asset-inventory/project/create', headers: bearer(alice), payload: { customer_id: 'acme-corp', bu: 'retail', product: 'webshop', env: 'dev', owner_value: 'alice', template_name: 'Standard analytics project' } });
    t.equal(asked.statusCode, 201);
    const { rows: [request] } = await pool.query<{ id: string }>(`SELECT id::text FROM project_request WHERE customer_id = 'acme-corp' ORDER BY created_at DESC LIMIT 1`);
    t.equal((await app.inject({ method: 'POST', url: '/v1/projectprovisioning/acme-corp/reject', headers: bearer(admin), payload: { ids: [request.id] } })).statusCode, 200);
    // and another approved (with its e-mail, in the same transaction)
    t.equal((await app.inject({ method: 'POST', url: '/v1/asset-inventory/project/create', headers: bearer(alice), payload: { customer_id: 'acme-corp', bu: 'retail', product: 'webshop', env: 'prod', owner_value: 'alice', template_name: 'Standard analytics project' } })).statusCode, 201);
    const { rows: [second] } = await pool.query<{ id: string }>(`SELECT id::text FROM project_request WHERE customer_id = 'acme-corp' AND state = 'Pending approval' ORDER BY created_at DESC LIMIT 1`);
    t.equal((await app.inject({ method: 'POST', url: '/v1/projectprovisioning/acme-corp/approve', headers: bearer(admin), payload: { ids: [second.id] } })).statusCode, 200);

    // a ticket: alice's own comment is not sent, the provider's is
    const ticket = await app.inject({ method: 'POST', url: '/v1/jira/msp_tickets', headers: bearer(alice), payload: { customer: 'acme-corp', id: randomUUID(), summary: 'Quota for BigQuery', description: 'Please raise it.', priority: 'P3' } });
    t.equal(ticket.statusCode, 201, ticket.body);
    const ticketId = (ticket.json() as { id: string }).id;
    t.equal((await app.inject({ method: 'POST', url: `/v1/jira/msp_tickets/${ticketId}/comment`, headers: bearer(alice), payload: { message: 'Any news?' } })).statusCode, 201);
    t.equal((await app.inject({ method: 'POST', url: `/v1/jira/msp_tickets/${ticketId}/comment`, headers: bearer(admin), payload: { message: 'Raised to 2000 slots.' } })).statusCode, 201);

    t.same(await types(), ['license_order.placed', 'license_order.decided', 'project_request.decided', 'project_request.decided', 'ticket.commented']);
    await waitFor('all five delivered', async () => rx.got.length === 5, 60_000);
    const bodies = rx.got.map((r) => JSON.parse(r.raw) as { type: string; text: string; data: Record<string, unknown> });
    t.same(bodies.filter((b) => b.type === 'project_request.decided').map((b) => b.data.event).sort(), ['approved', 'rejected']);
    const comment = bodies.find((b) => b.type === 'ticket.commented')!;
    t.match(comment.text, /admin@commandcenter\.local commented on "Quota for BigQuery":\n\nRaised to 2000 slots\./);
  });

  t.test('a viewer and another tenant can neither see nor change channels', async (t) => {
    const rx = await receiver(t);
    const { channel } = (await create(alice, 'globex', { kind: 'slack', name: 'Globex Slack', url: rx.url, events: ['anomaly.found'] })).json() as { channel: { id: string } };
    for (const [method, url, payload] of [
      ['GET', '/v1/customers/acme-corp/channels/', undefined],
      ['POST', '/v1/customers/acme-corp/channels/', { kind: 'slack', name: 'x', url: rx.url, events: ['anomaly.found'] }],
      ['PATCH', `/v1/customers/acme-corp/channels/${channel.id}/`, { name: 'y' }],
      ['DELETE', `/v1/customers/acme-corp/channels/${channel.id}/`, undefined],
      ['POST', `/v1/customers/acme-corp/channels/${channel.id}/test/`, undefined],
    ] as const) {
      const res = await app.inject({ method, url, headers: bearer(victor), payload });
      t.equal(res.statusCode, 403, `viewer: ${method} ${url}`);
    }
    // bob (Initech) names Globex: the customer is not his
    for (const [method, url] of [['GET', '/v1/customers/globex/channels/'], ['PATCH', `/v1/customers/globex/channels/${channel.id}/`], ['DELETE', `/v1/customers/globex/channels/${channel.id}/`], ['POST', `/v1/customers/globex/channels/${channel.id}/test/`]] as const) {
      const res = await app.inject({ method, url, headers: bearer(bob), payload: method === 'PATCH' ? { name: 'z' } : undefined });
      t.same([res.statusCode, res.json()], [404, { detail: 'Customer not found' }], `bob: ${method} ${url}`);
    }
    // bob names his own customer and Globex's channel id: no such channel of his
    for (const [method, url] of [['PATCH', `/v1/customers/initech/channels/${channel.id}/`], ['DELETE', `/v1/customers/initech/channels/${channel.id}/`], ['POST', `/v1/customers/initech/channels/${channel.id}/test/`]] as const) {
      const res = await app.inject({ method, url, headers: bearer(bob), payload: method === 'PATCH' ? { name: 'z' } : undefined });
      t.same([res.statusCode, res.json()], [404, { detail: 'Notification channel not found' }], `bob: ${method} ${url}`);
    }
    t.same((await app.inject({ method: 'GET', url: '/v1/customers/initech/channels/', headers: bearer(bob) })).json(), { items: [] });
    t.equal(rx.got.length, 0, 'no test was sent');
    // alice, who holds both customers, changes and deletes it under Globex only
    t.equal((await app.inject({ method: 'PATCH', url: `/v1/customers/acme-corp/channels/${channel.id}/`, headers: bearer(alice), payload: { name: 'z' } })).statusCode, 404);
    const renamed = await app.inject({ method: 'PATCH', url: `/v1/customers/globex/channels/${channel.id}/`, headers: bearer(alice), payload: { name: 'Globex FinOps', events: ['anomaly.found', 'ticket.commented'] } });
    t.match(renamed.json(), { name: 'Globex FinOps', events: ['anomaly.found', 'ticket.commented'] });
    t.equal((await app.inject({ method: 'DELETE', url: `/v1/customers/globex/channels/${channel.id}/`, headers: bearer(alice) })).statusCode, 204);
    t.same((await app.inject({ method: 'GET', url: '/v1/customers/globex/channels/', headers: bearer(alice) })).json(), { items: [] });
  });
});
