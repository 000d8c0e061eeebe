/**
 * Reads of a customer's assets: the /inventory asset table (server-side filter, sort and paging, deep pages from
 * kept anchors), one asset by graph node id and an asset's change history. Every query is scoped by customer_id
 * first, which leads every index.
 */
import type { Queryable } from '../pool.ts';
import { decodeNodeId } from '../../inventory/graph.ts';
import { clampLimit, clampOffset, isoText, likePattern, type Page, type Paging } from './paging.ts';

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

export const ASSET_SORTS = ['asset_name', 'asset_type', 'project_id', 'region'] as const;

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
export function assetPageQuery(customerId: string, q: AssetQuery, seek?: AssetSeek, withArm = false): { text: string; values: unknown[] } {
  const { sort, dir, order } = assetOrder(q);
  const { where, params } = assetFilter(customerId, q);
  const offset = clampOffset(q.offset);
  const limit = clampLimit(q.limit);
  if (!seek || seek.position >= offset) {
    const columns = withArm ? `${ASSET_COLUMNS}, 0 AS arm` : ASSET_COLUMNS;
    return { text: `SELECT ${columns} FROM inventory_asset WHERE ${where} ORDER BY ${order} OFFSET $8 LIMIT $9`, values: [...params, offset, limit] };
  }
  const skip = offset - seek.position - 1;
  const { arms, values } = seekArms(sort, dir, seek.anchor, 10);
  // Each arm reads no more than the page needs; the arm number keeps the arms in their order.
  const selects = arms.map((arm, i) => `(SELECT ${ASSET_COLUMNS}, ${i} AS arm FROM inventory_asset WHERE ${where} AND ${arm} ORDER BY ${order} LIMIT $8::int + $9::int)`);
  return {
    text: `SELECT ${ASSET_COLUMNS}${withArm ? ', arm' : ''} FROM (${selects.join(' UNION ALL ')}) page ORDER BY arm, ${order} OFFSET $8 LIMIT $9`,
    values: [...params, skip, limit, ...values],
  };
}

/**
 * The same page as assetPageQuery, as the JSON text of the answer's `items` (InventoryItem, update_time as
 * toISOString writes it), built in PostgreSQL: the api passes one string on instead of parsing 800 fields and 100
 * dates into objects and serialising them again, which was most of a page's cost in the api (docs/decisions-inventory.md).
 */
export async function assetPageItemsJson(db: Queryable, customerId: string, q: AssetQuery = {}, seek?: AssetSeek): Promise<string> {
  const { sort, dir } = assetOrder(q);
  const page = assetPageQuery(customerId, q, seek, true);
  // the page's order again, on the page's own columns (the lateral row's names are the same)
  const order = sort === 'asset_name' ? `p.asset_name ${dir}` : `p.${sort} ${dir}, p.asset_name ${dir}`;
  const { rows } = await db.query<{ items: string }>(
    `SELECT '[' || coalesce(string_agg(row_to_json(j)::text, ',' ORDER BY p.arm, ${order}), '') || ']' AS items
       FROM (${page.text}) p,
            LATERAL (SELECT p.asset_name, p.asset_type, p.project_id, p.location, p.region, p.violation_rule, p.display_name,
                            ${isoText('p.update_time')} AS update_time) j`,
    page.values,
  );
  return rows[0]!.items;
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
