/**
 * The recommendation list's totals and savings are kept per recommendation version, not counted on every page, and
 * follow every write of the recommendations at once: a sync, a state change on taking one on, any statement.
 */
import t from 'tap';
import type { FastifyInstance } from 'fastify';
import { setStoredRecommendationState } from '@cc/shared/db/inventory/claim-work.ts';
import { recommendationVersion } from '@cc/shared/db/inventory/recommendation-read.ts';
import { localInventorySource } from '@cc/shared/adapters/inventory/local.ts';
import { syncInventory } from '../../workers/src/inventory/sync.ts';
import { build, login, bearer } from '../helper.ts';
import { billProjects } from '../inventory-fixtures.ts';

const URL_ = '/v1/asset-inventory/acme-corp/recommendations';
const get = async (app: FastifyInstance, token: string, query = '') => {
  const res = await app.inject({ method: 'GET', url: `${URL_}?limit=5${query}`, headers: bearer(token) });
  if (res.statusCode !== 200) throw new Error(`${res.statusCode} ${res.body}`);
  return res.json() as { total: number; items: { name: string; state: string; monthly_cost: string | null }[]; savings: { claimed: string } };
};

t.test('kept per version: a write of any kind shows at once, nothing else recounts', async (t) => {
  const app = await build(t);
  const { pool } = app.env;
  await billProjects(pool, [['acme-shop-prod', 'Webshop'], ['acme-lab-dev', 'Lab']]);
  const v0 = await recommendationVersion(pool, 'acme-corp');
  await syncInventory({ pool, source: localInventorySource(pool) }, 'acme-corp');
  const v1 = await recommendationVersion(pool, 'acme-corp');
  t.not(v1, v0, 'a sync moves the version');
  const alice = await login(app, 'alice@acme.example');
  const all = await get(app, alice);
  const { rows } = await pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM inventory_recommendation WHERE customer_id = 'acme-corp'`);
  t.equal(all.total, rows[0]!.n, 'the total is the count of stored recommendations');
  t.equal((await get(app, alice, '&state=CLAIMED')).total, 0);

  // Taken on: its state is written outside a sync; the filtered total and the savings follow at once.
  const saving = (await get(app, alice, '&primary_impact_category=COST')).items.find((r) => r.monthly_cost !== null && Number(r.monthly_cost) < 0)!;
  await setStoredRecommendationState(pool, 'acme-corp', saving.name, 'CLAIMED', 'etag-2');
  t.not(await recommendationVersion(pool, 'acme-corp'), v1, 'a state change moves the version');
  t.equal((await get(app, alice, '&state=CLAIMED')).total, 1);
  t.ok(Number((await get(app, alice)).savings.claimed) > 0, 'the claimed saving counts it');

  // A write the triggers do not see (triggers switched off for this session only): the kept total stands, so pages
  // are not recounting; the next statement that writes brings it up to date.
  const client = await pool.connect();
  try {
    await client.query(`SET session_replication_role = replica`);
    await client.query(`DELETE FROM inventory_recommendation WHERE customer_id = 'acme-corp' AND name <> $1 AND name IN (SELECT name FROM inventory_recommendation WHERE customer_id = 'acme-corp' AND name <> $1 LIMIT 1)`, [saving.name]);
  } finally {
    await client.query(`RESET session_replication_role`);
    client.release();
  }
  t.equal((await get(app, alice)).total, all.total, 'kept: not recounted on a page');
  await pool.query(`DELETE FROM inventory_recommendation WHERE customer_id = 'acme-corp' AND name IN (SELECT name FROM inventory_recommendation WHERE customer_id = 'acme-corp' AND name <> $1 LIMIT 1)`, [saving.name]);
  t.equal((await get(app, alice)).total, all.total - 2, 'a delete moves the version: counted again');

  // Another customer's writes leave acme-corp's version alone; a deleted customer's counter goes with it.
  const before = await recommendationVersion(pool, 'acme-corp');
  await pool.query(`UPDATE inventory_recommendation SET state = state WHERE customer_id = 'globex'`);
  t.equal(await recommendationVersion(pool, 'acme-corp'), before);
});
