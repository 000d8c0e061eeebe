/**
 * The recommendation list's pages are kept per recommendation version (api/src/inventory/recommendation-pages.ts)
 * and follow at once every write a page shows: the recommendations, and a claim's ticket key (migration 130), made,
 * given later or dropped with its ticket. A viewer's page is his projects' whatever was kept for others, and follows
 * a change of his filter at once.
 */
import t from 'tap';
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { recordClaim, setClaimTicketKey } from '@cc/shared/db/inventory/claims.ts';
import { recommendationVersion } from '@cc/shared/db/inventory/recommendation-read.ts';
import { localInventorySource } from '@cc/shared/adapters/inventory/local.ts';
import { syncInventory } from '../../workers/src/inventory/sync.ts';
import { build, login, bearer } from '../helper.ts';
import { billProjects } from '../inventory-fixtures.ts';

const URL_ = '/v1/asset-inventory/acme-corp/recommendations';
type Page = { total: number; items: { name: string; project_id: string; ticket_key: string | null }[] };
const get = async (app: FastifyInstance, token: string, query = '') => {
  const res = await app.inject({ method: 'GET', url: `${URL_}?limit=5${query}`, headers: bearer(token) });
  if (res.statusCode !== 200) throw new Error(`${res.statusCode} ${res.body}`);
  return res.json() as Page;
};

t.test('a kept page follows claims and writes, and a viewer gets his own', async (t) => {
  const app = await build(t);
  const { pool } = app.env;
  await billProjects(pool, [['acme-shop-prod', 'Webshop'], ['acme-lab-dev', 'Lab']]);
  await syncInventory({ pool, source: localInventorySource(pool) }, 'acme-corp');
  const alice = await login(app, 'alice@acme.example');
  const first = await get(app, alice);
  const name = first.items[0]!.name;
  t.equal(first.items[0]!.ticket_key, null, 'not taken on yet');
  t.same(await get(app, alice), first, 'asked again: the same page');

  // Taken on by a ticket whose key comes later: a claim row alone, the recommendation itself untouched.
  const ticketId = randomUUID();
  await pool.query(`INSERT INTO ticket (id, customer_id, summary, description, priority, created_by) VALUES ($1, 'acme-corp', 'Take it on', '', 'P3', 'alice@acme.example')`, [ticketId]);
  const v0 = await recommendationVersion(pool, 'acme-corp');
  await recordClaim(pool, { customerId: 'acme-corp', recommendationName: name, ticketId, ticketKey: null, claimedBy: 'alice@acme.example' });
  t.not(await recommendationVersion(pool, 'acme-corp'), v0, 'a claim made moves the version');
  await setClaimTicketKey(pool, ticketId, 'MSP-7');
  t.equal((await get(app, alice)).items[0]!.ticket_key, 'MSP-7', 'the ticket key given later shows at once');

  // What a page does not show leaves the version (and the kept page) alone.
  const v1 = await recommendationVersion(pool, 'acme-corp');
  await pool.query(`UPDATE inventory_recommendation_claim SET last_error = 'upstream down', claim_sent_at = now() WHERE ticket_id = $1`, [ticketId]);
  t.equal(await recommendationVersion(pool, 'acme-corp'), v1, 'a claim\'s sending state is not on a page');

  // A write the triggers do not see (switched off for this session only): the kept page stands, so it is not
  // read again on every request; the next write that moves the version brings it up to date.
  const client = await pool.connect();
  try {
    await client.query(`SET session_replication_role = replica`);
    await client.query(`UPDATE inventory_recommendation_claim SET ticket_key = 'MSP-8' WHERE ticket_id = $1`, [ticketId]);
  } finally {
    await client.query(`RESET session_replication_role`);
    client.release();
  }
  t.equal((await get(app, alice)).items[0]!.ticket_key, 'MSP-7', 'kept: not read again');
  await pool.query(`DELETE FROM ticket WHERE id = $1`, [ticketId]);
  t.equal((await get(app, alice)).items[0]!.ticket_key, null, 'the claim dropped with its ticket shows at once');

  // A viewer whose filter admits the lab project only: his page is the lab's, not the page kept for alice; when
  // his filter changes, the next page follows it.
  await pool.query(
    `INSERT INTO cost_daily_label (customer_id, billing_account_id, usage_date, provider, label_kind, label_key, label_value, project_id, cost, credits, currency)
     VALUES ('acme-corp', '01A2B3-C4D5E6-F7A8B9', '2026-01-02', 'gcp', 'project', 'team', 'analytics', 'acme-lab-dev', 10, 0, 'EUR'),
            ('acme-corp', '01A2B3-C4D5E6-F7A8B9', '2026-01-02', 'gcp', 'project', 'team', 'shop', 'acme-shop-prod', 10, 0, 'EUR')`,
  );
  const victor = await login(app, 'victor@acme.example');
  const his = await get(app, victor);
  t.ok(his.items.length > 0, 'he sees recommendations');
  t.ok(his.items.every((r) => r.project_id === 'acme-lab-dev'), 'of his project only');
  await pool.query(`UPDATE viewer_filter SET label_value = 'shop' WHERE customer_id = 'acme-corp' AND user_id = 'victor@acme.example'`);
  const after = await get(app, victor);
  t.ok(after.items.length > 0 && after.items.every((r) => r.project_id === 'acme-shop-prod'), 'a changed filter shows at once');
});
