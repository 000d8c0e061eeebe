/**
 * The inventory snapshot's version and what is read at one version: counts kept per snapshot and the graph's rows.
 */
import { withTransaction, type Pool, type Queryable } from '../pool.ts';
import type { GraphAsset } from '../../inventory/graph.ts';

/**
 * Which snapshot a customer's inventory is at: it changes with every successful sync, the only writer of the
 * snapshot (replaceSnapshot marks its run succeeded in the transaction that replaces the assets, so the count of
 * succeeded runs goes up by one at each commit, whatever order concurrent runs started in). One probe of the partial
 * index of migration 070.
 */
export async function snapshotVersion(db: Queryable, customerId: string): Promise<string> {
  const { rows } = await db.query<{ version: string }>(
    `SELECT count(*) || '.' || coalesce(max(id), 0) AS version FROM inventory_sync_run WHERE customer_id = $1 AND status = 'succeeded'`,
    [customerId],
  );
  return rows[0]!.version;
}

/** A count and the snapshot version it belongs to, read in one snapshot so the pair always agrees. */
export async function countInSnapshot(pool: Pool, customerId: string, count: (db: Queryable) => Promise<number>): Promise<{ version: string; total: number }> {
  return withTransaction(pool, async (tx) => {
    await tx.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY');
    const version = await snapshotVersion(tx, customerId);
    return { version, total: await count(tx) };
  });
}

/**
 * The graph's rows and the snapshot version they belong to, read in one snapshot so the pair always agrees.
 * `projects`: only these projects' assets (a customerViewer's); null: all.
 */
export async function readGraphSnapshot(pool: Pool, customerId: string, projects: readonly string[] | null = null): Promise<{ version: string; assets: GraphAsset[] }> {
  return withTransaction(pool, async (tx) => {
    await tx.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY');
    const version = await snapshotVersion(tx, customerId);
    return { version, assets: await listGraphAssets(tx, customerId, projects) };
  });
}

/** The snapshot as the graph builder needs it: only the data keys that make edges cross the wire. */
export async function listGraphAssets(db: Queryable, customerId: string, projects: readonly string[] | null = null): Promise<GraphAsset[]> {
  const { rows } = await db.query<GraphAsset>(
    `SELECT asset_name, asset_type, display_name, ancestors, parent_name AS parent,
            jsonb_strip_nulls(jsonb_build_object('disks', data->'disks', 'networkInterfaces', data->'networkInterfaces', 'network', data->'network')) AS data
       FROM inventory_asset WHERE customer_id = $1 AND ($2::text[] IS NULL OR project_id = ANY($2::text[])) ORDER BY asset_name`,
    [customerId, projects],
  );
  return rows;
}
