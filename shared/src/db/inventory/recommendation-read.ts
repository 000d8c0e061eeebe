/**
 * Reads of a customer's recommendations: the /inventory recommendation table (server-side filter, sort and paging)
 * and the version its kept totals are made at. Scoped by customer_id first, which leads every index.
 */
import { withTransaction, type Pool, type Queryable } from '../pool.ts';
import { clampLimit, clampOffset, isoText, likePattern, type Page, type Paging } from './paging.ts';

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

export const RECOMMENDATION_SORTS = ['project_id', 'recommender_subtype', 'primary_impact_category', 'location', 'cost'] as const;

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
 * The cost per 30 days to the cent, in SQL: exact decimal arithmetic, as the savings figure is (claim-work.ts); null
 * without a cost or a positive duration in seconds (`2592000s`).
 */
const MONTHLY_COST = `CASE WHEN p.cost IS NULL OR p.cost_duration IS NULL OR p.cost_duration !~ '^[0-9]+(\\.[0-9]+)?s$' THEN NULL
  WHEN rtrim(p.cost_duration, 's')::numeric > 0 THEN round(p.cost * 2592000 / rtrim(p.cost_duration, 's')::numeric, 2)::text END`;

/**
 * One page of recommendations as the JSON text of the answer's `items` (the wire RecommendationItem: monthly_cost
 * added, last_refresh_time as toISOString writes it), built in PostgreSQL: the api sends the string on instead of
 * parsing 1,600 fields (the target arrays by a JavaScript parser) and serialising them again.
 */
export async function recommendationPageItemsJson(db: Queryable, customerId: string, q: RecommendationQuery = {}): Promise<string> {
  const sort = RECOMMENDATION_SORTS.includes(q.sort ?? 'project_id') ? (q.sort ?? 'project_id') : 'project_id';
  const dir = q.desc ? 'DESC' : 'ASC';
  const { where, params } = recommendationFilter(customerId, q);
  const { rows } = await db.query<{ items: string }>(
    `SELECT '[' || coalesce(string_agg(row_to_json(j)::text, ',' ORDER BY p.${sort} ${dir} NULLS LAST, p.name ${dir}), '') || ']' AS items
       FROM (SELECT r.name, r.state, r.recommender, r.recommender_subtype, r.primary_impact_category, r.cost, r.currency, r.cost_duration,
                    r.description, r.priority, r.target_resources, r.location, r.project_id, r.last_refresh_time, c.ticket_key
               FROM inventory_recommendation r
               LEFT JOIN inventory_recommendation_claim c ON c.customer_id = r.customer_id AND c.recommendation_name = r.name
              WHERE ${where} ORDER BY r.${sort} ${dir} NULLS LAST, r.name ${dir} OFFSET $8 LIMIT $9) p,
            LATERAL (SELECT p.name, p.state, p.recommender, p.recommender_subtype, p.primary_impact_category, p.cost::text AS cost, p.currency,
                            p.cost_duration, ${MONTHLY_COST} AS monthly_cost, p.description, p.priority, p.target_resources, p.location,
                            p.project_id, ${isoText('p.last_refresh_time')} AS last_refresh_time, p.ticket_key) j`,
    [...params, clampOffset(q.offset), clampLimit(q.limit)],
  );
  return rows[0]!.items;
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
