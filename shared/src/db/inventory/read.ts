/**
 * Reads of a customer's inventory snapshot: the two /inventory tables (server-side filter, sort and paging), one
 * asset by graph node id, an asset's change history, and the slim rows the graph is built from. Every query is
 * scoped by customer_id first, which leads every index.
 */
import { withTransaction, type Pool, type Queryable } from '../pool.ts';
import { decodeNodeId, type GraphAsset } from '../../inventory/graph.ts';

/** An inventory item (spec 000 §3) plus what the detail view needs. */
export interface InventoryItem {
  asset_name: string;
  asset_type: string;
  project_id: string;
  location: string | null;
  region: string | null;
  violation_rule: string | null;
  display_name: string;
  update_time: Date | null;
}

export interface RecommendationItem {
  name: string;
  etag: string;
  state: string;
  recommender: string;
  recommender_subtype: string;
  primary_impact_category: string;
  /** Decimal string; negative is a saving. */
  cost: string | null;
  currency: string | null;
  cost_duration: string | null;
  description: string;
  priority: string;
  target_resources: string[];
  location: string;
  project_id: string;
  last_refresh_time: Date | null;
  /** The ticket that took it on, if any. */
  ticket_key: string | null;
}

export interface Page<T> {
  total: number;
  items: T[];
}

/** Largest page a caller may ask for; the tables page far below it. */
export const MAX_PAGE = 1000;

export const ASSET_SORTS = ['asset_name', 'asset_type', 'project_id', 'region'] as const;
export const RECOMMENDATION_SORTS = ['project_id', 'recommender_subtype', 'primary_impact_category', 'location', 'cost'] as const;

interface Paging {
  offset?: number;
  limit?: number;
  desc?: boolean;
}

export interface AssetQuery extends Paging {
  /** Substring of the asset name, case-insensitive. */
  search?: string;
  asset_type?: string;
  project_id?: string;
  region?: string;
  /** Only assets that break a rule (true) or none (false). */
  violating?: boolean;
  /** Default asset_name, the order the spec reads the collection in. */
  sort?: (typeof ASSET_SORTS)[number];
  /** Only these projects' (a customerViewer's, api/src/viewer-restriction.ts); absent or null: all. */
  projects?: readonly string[] | null;
}

export interface RecommendationQuery extends Paging {
  search?: string;
  project_id?: string;
  primary_impact_category?: string;
  recommender_subtype?: string;
  state?: string;
  /** Default project_id, the order the spec reads the collection in. */
  sort?: (typeof RECOMMENDATION_SORTS)[number];
  /** Only these projects' (a customerViewer's); absent or null: all. */
  projects?: readonly string[] | null;
}

const likePattern = (s: string) => `%${s.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
const clampLimit = (n: number | undefined) => Math.min(Math.max(Math.trunc(n ?? 100), 1), MAX_PAGE);
const clampOffset = (n: number | undefined) => Math.max(Math.trunc(n ?? 0), 0);

/** The WHERE clause and parameters ($1–$7) of an asset list query: the customer first, then its filters. */
function assetFilter(customerId: string, q: AssetQuery): { where: string; params: unknown[] } {
  const where = `customer_id = $1
     AND ($2::text IS NULL OR asset_name ILIKE $2 OR display_name ILIKE $2)
     AND ($3::text IS NULL OR asset_type = $3) AND ($4::text IS NULL OR project_id = $4) AND ($5::text IS NULL OR region = $5)
     AND ($6::boolean IS NULL OR (violation_rule IS NOT NULL) = $6) AND ($7::text[] IS NULL OR project_id = ANY($7::text[]))`;
  const params = [customerId, q.search ? likePattern(q.search) : null, q.asset_type ?? null, q.project_id ?? null, q.region ?? null, q.violating ?? null];
  return { where, params: [...params, q.projects ?? null] };
}

/** What identifies an asset query's total: its filters (not its order or page). */
export const assetFilterKey = (q: AssetQuery): string =>
  JSON.stringify([q.search ?? null, q.asset_type ?? null, q.project_id ?? null, q.region ?? null, q.violating ?? null, q.projects ? [...q.projects].sort() : null]);

/** How many of the customer's assets match the filters of `q`. */
export async function countInventoryAssets(db: Queryable, customerId: string, q: AssetQuery = {}): Promise<number> {
  const { where, params } = assetFilter(customerId, q);
  const { rows } = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM inventory_asset WHERE ${where}`, params);
  return rows[0]!.n;
}

/** Every ANCHOR_EVERY-th row of an ordered asset list is kept as an anchor a deeper page seeks from. */
export const ANCHOR_EVERY = 500;

/** One row's place in an asset list's order: its sort column's value (as text) and its name, the tie-breaker. */
export interface AssetAnchor {
  value: string | null;
  asset_name: string;
}

/** Where a page starts reading: after `anchor`, the row at 0-based position `position` of the ordered list. */
export interface AssetSeek {
  anchor: AssetAnchor;
  position: number;
}

function assetOrder(q: AssetQuery): { sort: (typeof ASSET_SORTS)[number]; dir: 'ASC' | 'DESC'; order: string } {
  const sort = ASSET_SORTS.includes(q.sort ?? 'asset_name') ? (q.sort ?? 'asset_name') : 'asset_name';
  const dir = q.desc ? 'DESC' : 'ASC';
  // Ties broken by asset_name: stable pages, and the (customer_id, <sort>, asset_name) index serves the order.
  return { sort, dir, order: sort === 'asset_name' ? `asset_name ${dir}` : `${sort} ${dir}, asset_name ${dir}` };
}

/**
 * The anchors of an ordered asset list: the rows at positions ANCHOR_EVERY - 1, 2 × ANCHOR_EVERY - 1, … One pass over
 * the matching rows, made once per filter, order and snapshot (api/src/inventory/asset-pages.ts).
 */
export async function listAssetAnchors(db: Queryable, customerId: string, q: AssetQuery = {}): Promise<AssetAnchor[]> {
  const { sort, order } = assetOrder(q);
  const { where, params } = assetFilter(customerId, q);
  const { rows } = await db.query<AssetAnchor>(
    `SELECT value, asset_name FROM (
       SELECT ${sort}::text AS value, asset_name, row_number() OVER (ORDER BY ${order}) AS n FROM inventory_asset WHERE ${where}
     ) s WHERE n % $8 = 0 ORDER BY n`,
    [...params, ANCHOR_EVERY],
  );
  return rows;
}

/**
 * The rows after an anchor, in order, as one or two index ranges ("arms", read one after the other). A row value
 * comparison seeks straight into the (customer_id, <sort>, asset_name) index; region alone may be null, and nulls
 * sort last ascending and first descending, so there the part beyond the nulls' boundary is a second arm.
 */
function seekArms(sort: (typeof ASSET_SORTS)[number], dir: 'ASC' | 'DESC', anchor: AssetAnchor, first: number): { arms: string[]; values: unknown[] } {
  const cmp = dir === 'ASC' ? '>' : '<';
  const [p1, p2] = [`$${first}`, `$${first + 1}`];
  if (sort === 'asset_name') return { arms: [`asset_name ${cmp} ${p1}`], values: [anchor.asset_name] };
  if (anchor.value !== null) {
    const after = `(${sort}, asset_name) ${cmp} (${p1}::text, ${p2}::text)`;
    return { arms: sort === 'region' && dir === 'ASC' ? [after, 'region IS NULL'] : [after], values: [anchor.value, anchor.asset_name] };
  }
  // only region is ever null: the anchor is among the nulls
  const inNulls = `region IS NULL AND asset_name ${cmp} ${p1}`;
  return { arms: dir === 'ASC' ? [inNulls] : [inNulls, 'region IS NOT NULL'], values: [anchor.asset_name] };
}

const ASSET_COLUMNS = 'asset_name, asset_type, project_id, location, region, violation_rule, display_name, update_time';

/**
 * The SQL of one page of assets: OFFSET from the list's start, or, given a seek, from the anchor before the page, so
 * a page deep in 100,000 assets reads at most ANCHOR_EVERY + limit matching rows instead of every row before it.
 */
export function assetPageQuery(customerId: string, q: AssetQuery, seek?: AssetSeek): { text: string; values: unknown[] } {
  const { sort, dir, order } = assetOrder(q);
  const { where, params } = assetFilter(customerId, q);
  const offset = clampOffset(q.offset);
  const limit = clampLimit(q.limit);
  if (!seek || seek.position >= offset) {
    return { text: `SELECT ${ASSET_COLUMNS} FROM inventory_asset WHERE ${where} ORDER BY ${order} OFFSET $8 LIMIT $9`, values: [...params, offset, limit] };
  }
  const skip = offset - seek.position - 1;
  const { arms, values } = seekArms(sort, dir, seek.anchor, 10);
  // Each arm reads no more than the page needs; the arm number keeps the arms in their order.
  const selects = arms.map((arm, i) => `(SELECT ${ASSET_COLUMNS}, ${i} AS arm FROM inventory_asset WHERE ${where} AND ${arm} ORDER BY ${order} LIMIT $8::int + $9::int)`);
  return {
    text: `SELECT ${ASSET_COLUMNS} FROM (${selects.join(' UNION ALL ')}) page ORDER BY arm, ${order} OFFSET $8 LIMIT $9`,
    values: [...params, skip, limit, ...values],
  };
}

/**
 * A page of assets and the total matching; `total` is counted unless the caller already knows it, and `seek` (an
 * anchor at or before the page) lets a deep page start from it (api/src/inventory/asset-pages.ts).
 */
export async function listInventoryAssets(
  db: Queryable,
  customerId: string,
  q: AssetQuery = {},
  total?: Promise<number>,
  seek?: AssetSeek,
): Promise<Page<InventoryItem>> {
  const [n, { rows }] = await Promise.all([total ?? countInventoryAssets(db, customerId, q), db.query<InventoryItem>(assetPageQuery(customerId, q, seek))]);
  return { total: n, items: rows };
}

/** The WHERE clause and parameters ($1–$7) of a recommendation list query: the customer first, then its filters. */
function recommendationFilter(customerId: string, q: RecommendationQuery): { where: string; params: unknown[] } {
  const where = `r.customer_id = $1
     AND ($2::text IS NULL OR r.description ILIKE $2 OR r.name ILIKE $2 OR array_to_string(r.target_resources, ' ') ILIKE $2)
     AND ($3::text IS NULL OR r.project_id = $3) AND ($4::text IS NULL OR r.primary_impact_category = $4)
     AND ($5::text IS NULL OR r.recommender_subtype = $5) AND ($6::text IS NULL OR r.state = $6)
     AND ($7::text[] IS NULL OR r.project_id = ANY($7::text[]))`;
  const filters = [customerId, q.search ? likePattern(q.search) : null, q.project_id ?? null, q.primary_impact_category ?? null, q.recommender_subtype ?? null, q.state ?? null];
  return { where, params: [...filters, q.projects ?? null] };
}

/** What identifies a recommendation query's total: its filters (not its order or page). */
export const recommendationFilterKey = (q: RecommendationQuery): string =>
  JSON.stringify([q.search ?? null, q.project_id ?? null, q.primary_impact_category ?? null, q.recommender_subtype ?? null, q.state ?? null, q.projects ? [...q.projects].sort() : null]);

/** How many of the customer's recommendations match the filters of `q`. */
export async function countInventoryRecommendations(db: Queryable, customerId: string, q: RecommendationQuery = {}): Promise<number> {
  const { where, params } = recommendationFilter(customerId, q);
  const { rows } = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM inventory_recommendation r WHERE ${where}`, params);
  return rows[0]!.n;
}

/** A page of recommendations and the total matching; `total` is counted unless the caller already knows it (api/src/inventory/recommendation-totals.ts). */
export async function listInventoryRecommendations(db: Queryable, customerId: string, q: RecommendationQuery = {}, total?: Promise<number>): Promise<Page<RecommendationItem>> {
  const sort = RECOMMENDATION_SORTS.includes(q.sort ?? 'project_id') ? (q.sort ?? 'project_id') : 'project_id';
  const dir = q.desc ? 'DESC' : 'ASC';
  const order = `r.${sort} ${dir} NULLS LAST, r.name ${dir}`;
  const { where, params } = recommendationFilter(customerId, q);
  const [n, { rows }] = await Promise.all([
    total ?? countInventoryRecommendations(db, customerId, q),
    db.query<RecommendationItem>(
      `SELECT r.name, r.etag, r.state, r.recommender, r.recommender_subtype, r.primary_impact_category, r.cost::text AS cost,
              r.currency, r.cost_duration, r.description, r.priority, r.target_resources, r.location, r.project_id,
              r.last_refresh_time, c.ticket_key
         FROM inventory_recommendation r
         LEFT JOIN inventory_recommendation_claim c ON c.customer_id = r.customer_id AND c.recommendation_name = r.name
        WHERE ${where} ORDER BY ${order} OFFSET $8 LIMIT $9`,
      [...params, clampOffset(q.offset), clampLimit(q.limit)],
    ),
  ]);
  return { total: n, items: rows };
}

/**
 * Which state a customer's recommendations are at: the counter every statement writing them bumps (migration 125's
 * triggers: a sync, a state change on taking one on). One primary key probe; '0' before the first write.
 */
export async function recommendationVersion(db: Queryable, customerId: string): Promise<string> {
  const { rows } = await db.query<{ version: string }>(`SELECT version::text FROM inventory_recommendation_version WHERE customer_id = $1`, [customerId]);
  return rows[0]?.version ?? '0';
}

/** A value derived from the recommendations and the version it belongs to, read in one snapshot so the pair always agrees. */
export async function readAtRecommendationVersion<T>(pool: Pool, customerId: string, read: (db: Queryable) => Promise<T>): Promise<{ version: string; value: T }> {
  return withTransaction(pool, async (tx) => {
    await tx.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY');
    const version = await recommendationVersion(tx, customerId);
    return { version, value: await read(tx) };
  });
}

/** One asset as the node detail shows it (spec 001 §7: name, asset_type, location, data). */
export interface AssetDetail {
  asset_name: string;
  display_name: string;
  asset_type: string;
  location: string | null;
  project_id: string;
  ancestors: string[];
  parent_name: string | null;
  data: Record<string, unknown>;
}

/** `nodeId` as it comes in the URL (slashes written as `*`); null when the customer has no such asset. */
export async function findAssetByNodeId(db: Queryable, customerId: string, nodeId: string): Promise<AssetDetail | null> {
  const { rows } = await db.query<AssetDetail>(
    `SELECT asset_name, display_name, asset_type, location, project_id, ancestors, parent_name, data
       FROM inventory_asset WHERE customer_id = $1 AND asset_name = $2`,
    [customerId, decodeNodeId(nodeId)],
  );
  return rows[0] ?? null;
}

export interface AssetChange {
  change: 'added' | 'removed' | 'changed';
  changed_fields: string[];
  changed_at: Date;
  sync_run_id: string;
}

/** Newest first. Works for assets no longer in the snapshot too (their last entry is 'removed'). */
export async function assetHistory(db: Queryable, customerId: string, assetName: string, limit = 100): Promise<AssetChange[]> {
  const { rows } = await db.query<AssetChange>(
    `SELECT change, changed_fields, changed_at, sync_run_id FROM inventory_asset_change
      WHERE customer_id = $1 AND asset_name = $2 ORDER BY id DESC LIMIT $3`,
    [customerId, assetName, clampLimit(limit)],
  );
  return rows;
}

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
