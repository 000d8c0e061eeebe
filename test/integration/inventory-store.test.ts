/** The inventory snapshot store at scale: 100,000 assets replaced atomically, and table pages that stay fast. */
import t from 'tap';
import type { InventoryAsset } from '@cc/shared/ports/inventory.ts';
import { listInventoryAssets } from '@cc/shared/db/inventory/asset-read.ts';
import { replaceSnapshot, startSyncRun } from '@cc/shared/db/inventory/snapshot.ts';
import { claimsToSend, markClaimSent, recordClaim, setClaimTicketKey } from '@cc/shared/db/inventory/claims.ts';
import { testEnv } from '../helper.ts';

const N = 100_000;
const ZONES = ['europe-west1-b', 'europe-west4-c', 'us-central1-a', 'us-east1-d'];

function estate(from: number, to: number, version: (i: number) => number): InventoryAsset[] {
  const out: InventoryAsset[] = [];
  for (let i = from; i < to; i++) {
    const project = `proj-${String(i % 40).padStart(2, '0')}`;
    const zone = ZONES[i % ZONES.length]!;
    out.push({
      asset_name: `//compute.googleapis.com/projects/${project}/zones/${zone}/disks/disk-${String(i).padStart(6, '0')}`,
      asset_type: i % 3 ? 'compute.googleapis.com/Disk' : 'compute.googleapis.com/Instance',
      project_id: project,
      location: zone,
      display_name: `disk-${i}`,
      parent: `//cloudresourcemanager.googleapis.com/projects/${1000 + (i % 40)}`,
      ancestors: [`projects/${1000 + (i % 40)}`, 'organizations/1'],
      update_time: '2026-01-04T10:00:00Z',
      data: { name: `disk-${i}`, v: version(i) },
    });
  }
  return out;
}

// Two replacements of 100,000 assets take a while on a busy machine.
t.setTimeout(300_000);

t.test('100,000 assets: readers see the old snapshot or the new one, never a mix; pages stay fast', async (t) => {
  const { pool } = await testEnv(t);
  const old = estate(0, N, () => 1);
  await replaceSnapshot(pool, 'acme-corp', await startSyncRun(pool, 'acme-corp', 'local'), { assets: old, recommendations: [] });

  // The next snapshot drops the first 10,000, adds 10,000 new ones and changes every 4th of the rest.
  const next = estate(10_000, N + 10_000, (i) => (i % 4 === 0 ? 2 : 1));
  const fingerprint = `SELECT count(*)::int AS n, count(*) FILTER (WHERE data->>'v' = '2')::int AS v2,
                             count(*) FILTER (WHERE display_name = 'disk-0')::int AS first FROM inventory_asset WHERE customer_id = 'acme-corp'`;
  const seen = new Set<string>();
  let done = false;
  const reader = (async () => {
    while (!done) seen.add(JSON.stringify((await pool.query(fingerprint)).rows[0]));
  })();
  const runId = await startSyncRun(pool, 'acme-corp', 'local');
  const changes = await replaceSnapshot(pool, 'acme-corp', runId, { assets: next, recommendations: [] });
  done = true;
  await reader;
  seen.add(JSON.stringify((await pool.query(fingerprint)).rows[0]));
  t.same(changes, { added: 10_000, removed: 10_000, changed: 22_500, assets: N, recommendations: 0 });
  t.same([...seen].sort(), [JSON.stringify({ n: N, v2: 0, first: 1 }), JSON.stringify({ n: N, v2: 25_000, first: 0 })].sort(), 'only whole snapshots were seen');
  const { rows } = await pool.query(`SELECT change, count(*)::int AS n FROM inventory_asset_change WHERE sync_run_id = $1 GROUP BY 1 ORDER BY 1`, [runId]);
  t.same(rows, [{ change: 'added', n: 10_000 }, { change: 'changed', n: 22_500 }, { change: 'removed', n: 10_000 }]);

  await pool.query('ANALYZE inventory_asset');
  // Generous bounds: the machine is shared. What matters is that no page reads the whole table row by row in order.
  const timed = async (q: Parameters<typeof listInventoryAssets>[2]) => {
    const start = performance.now();
    const page = await listInventoryAssets(pool, 'acme-corp', q);
    return { page, ms: performance.now() - start };
  };
  const last = await timed({ offset: N - 50, limit: 100 });
  t.equal(last.page.items.length, 50);
  t.equal(last.page.items.at(-1)!.display_name, `disk-${N + 9_999}`);
  const byRegion = await timed({ sort: 'region', desc: true, offset: 1_000, limit: 100, asset_type: 'compute.googleapis.com/Instance' });
  t.equal(byRegion.page.total, Math.floor((N + 10_000 - 1) / 3) - Math.floor((10_000 - 1) / 3));
  t.ok(byRegion.page.items.every((a) => a.region === 'us-east1' && a.asset_type === 'compute.googleapis.com/Instance'));
  const search = await timed({ search: 'DISK-0999', project_id: 'proj-07', limit: 10 });
  t.same(search.page.items.map((a) => a.display_name), ['disk-99927', 'disk-99967']);
  for (const [what, r] of Object.entries({ last, byRegion, search })) t.ok(r.ms < 3_000, `${what} page in ${Math.round(r.ms)} ms`);
});

t.test('claims: one ticket per recommendation, each state change marked sent once', async (t) => {
  const { pool } = await testEnv(t);
  const ticket = async (id: string) =>
    pool.query(`INSERT INTO ticket (id, customer_id, summary, description, priority, created_by) VALUES ($1, 'acme-corp', 'Recommendation investigation', '', 'P3', 'ana@acme.example')`, [id]);
  const [t1, t2] = ['6f1c9a52-0c1e-4a8e-9d7e-1a2b3c4d5e6f', '7a2d0b63-1d2f-4b9f-8e8f-2b3c4d5e6f70'];
  await ticket(t1);
  await ticket(t2);
  const name = 'projects/111/locations/global/recommenders/google.iam.policy.Recommender/recommendations/iam-1';
  const first = await recordClaim(pool, { customerId: 'acme-corp', recommendationName: name, ticketId: t1, ticketKey: null, claimedBy: 'ana@acme.example' });
  const second = await recordClaim(pool, { customerId: 'acme-corp', recommendationName: name, ticketId: t2, ticketKey: 'MSP-9', claimedBy: 'bob@acme.example' });
  t.equal(second.ticket_id, t1, 'the first claim stands');
  t.same(await claimsToSend(pool, 'acme-corp'), [], 'nothing to send before the ticket has a key');
  await setClaimTicketKey(pool, t1, 'MSP-8');
  t.match(await claimsToSend(pool, 'acme-corp'), [{ recommendation_name: name, ticket_key: 'MSP-8', claimed_at: first.claimed_at }]);
  t.equal(await markClaimSent(pool, 'acme-corp', name, 'claimed'), true);
  t.equal(await markClaimSent(pool, 'acme-corp', name, 'claimed'), false, 'a second sender learns it already went');
  t.same(await claimsToSend(pool, 'acme-corp'), []);
  t.equal(await markClaimSent(pool, 'acme-corp', name, 'succeeded'), true);
  t.equal(await markClaimSent(pool, 'globex', name, 'succeeded'), false, 'scoped by customer');
});
