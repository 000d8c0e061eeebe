/**
 * Recommendation ↔ ticket claims, the Recommender scan cache, and the local inventory source's own state.
 */
import type { Queryable } from '../pool.ts';
import type { Recommendation, RecommendationState } from '../../ports/inventory.ts';

export interface RecommendationClaim {
  customer_id: string;
  recommendation_name: string;
  ticket_id: string;
  ticket_key: string | null;
  claimed_by: string;
  claimed_at: Date;
  claim_sent_at: Date | null;
  succeeded_sent_at: Date | null;
  failed_sent_at: Date | null;
  last_error: string | null;
}

/** Records that a ticket took the recommendation on; a second claim of the same recommendation keeps the first. */
export async function recordClaim(
  db: Queryable,
  c: { customerId: string; recommendationName: string; ticketId: string; ticketKey: string | null; claimedBy: string },
): Promise<RecommendationClaim> {
  await db.query(
    `INSERT INTO inventory_recommendation_claim (customer_id, recommendation_name, ticket_id, ticket_key, claimed_by)
     VALUES ($1, $2, $3, $4, $5) ON CONFLICT (customer_id, recommendation_name) DO NOTHING`,
    [c.customerId, c.recommendationName, c.ticketId, c.ticketKey, c.claimedBy],
  );
  const { rows } = await db.query<RecommendationClaim>(
    `SELECT * FROM inventory_recommendation_claim WHERE customer_id = $1 AND recommendation_name = $2`,
    [c.customerId, c.recommendationName],
  );
  return rows[0]!;
}

/** The ticket's key, once the system of record has given it one. */
export async function setClaimTicketKey(db: Queryable, ticketId: string, ticketKey: string): Promise<void> {
  await db.query(`UPDATE inventory_recommendation_claim SET ticket_key = $2 WHERE ticket_id = $1 AND ticket_key IS NULL`, [ticketId, ticketKey]);
}

/** Claims whose upstream markClaimed has not gone out yet (and whose ticket has a key to send). */
export async function claimsToSend(db: Queryable, customerId: string): Promise<RecommendationClaim[]> {
  const { rows } = await db.query<RecommendationClaim>(
    `SELECT * FROM inventory_recommendation_claim
      WHERE customer_id = $1 AND claim_sent_at IS NULL AND ticket_key IS NOT NULL ORDER BY claimed_at`,
    [customerId],
  );
  return rows;
}

/**
 * Marks the claim's upstream state change as sent. Answers false when it already was: the caller that gets
 * false must not send it again.
 */
export async function markClaimSent(db: Queryable, customerId: string, recommendationName: string, which: 'claimed' | 'succeeded' | 'failed'): Promise<boolean> {
  const column = { claimed: 'claim_sent_at', succeeded: 'succeeded_sent_at', failed: 'failed_sent_at' }[which];
  const { rowCount } = await db.query(
    `UPDATE inventory_recommendation_claim SET ${column} = now(), last_error = NULL
      WHERE customer_id = $1 AND recommendation_name = $2 AND ${column} IS NULL`,
    [customerId, recommendationName],
  );
  return rowCount === 1;
}

export async function recordClaimError(db: Queryable, customerId: string, recommendationName: string, error: string): Promise<void> {
  await db.query(`UPDATE inventory_recommendation_claim SET last_error = left($3, 2000) WHERE customer_id = $1 AND recommendation_name = $2`, [
    customerId,
    recommendationName,
    error,
  ]);
}

/** What Recommender answered for `parent` within the last `maxAgeMs`. */
export async function freshRecommenderScans(db: Queryable, customerId: string, parents: string[], maxAgeMs: number): Promise<Map<string, Recommendation[]>> {
  const { rows } = await db.query<{ parent: string; recommendations: Recommendation[] }>(
    `SELECT parent, recommendations FROM inventory_recommender_scan
      WHERE customer_id = $1 AND parent = ANY($2) AND scanned_at > now() - make_interval(secs => $3::double precision / 1000)`,
    [customerId, parents, maxAgeMs],
  );
  return new Map(rows.map((r) => [r.parent, r.recommendations]));
}

export async function saveRecommenderScan(db: Queryable, customerId: string, parent: string, recommendations: Recommendation[]): Promise<void> {
  await db.query(
    `INSERT INTO inventory_recommender_scan (customer_id, parent, recommendations) VALUES ($1, $2, $3::jsonb)
     ON CONFLICT (customer_id, parent) DO UPDATE SET scanned_at = now(), recommendations = EXCLUDED.recommendations`,
    [customerId, parent, JSON.stringify(recommendations)],
  );
}

/** A state change makes a cached scan stale: the next sync must read the new state and etag. */
export async function forgetRecommenderScan(db: Queryable, customerId: string, recommendationName: string): Promise<void> {
  await db.query(
    // Scan parents name the project by id, recommendation names by number: match on the cached content instead.
    `DELETE FROM inventory_recommender_scan WHERE customer_id = $1 AND recommendations @> jsonb_build_array(jsonb_build_object('name', $2::text))`,
    [customerId, recommendationName],
  );
}

export interface LocalRecommendationState {
  state: Extract<RecommendationState, 'CLAIMED' | 'SUCCEEDED' | 'FAILED'>;
  state_metadata: Record<string, string>;
}

export async function localRecommendationStates(db: Queryable, customerId: string): Promise<Map<string, LocalRecommendationState>> {
  const { rows } = await db.query<LocalRecommendationState & { name: string }>(
    `SELECT name, state, state_metadata FROM inventory_local_recommendation_state WHERE customer_id = $1`,
    [customerId],
  );
  return new Map(rows.map((r) => [r.name, { state: r.state, state_metadata: r.state_metadata }]));
}

export async function setLocalRecommendationState(db: Queryable, customerId: string, name: string, s: LocalRecommendationState): Promise<void> {
  await db.query(
    `INSERT INTO inventory_local_recommendation_state (customer_id, name, state, state_metadata) VALUES ($1, $2, $3, $4::jsonb)
     ON CONFLICT (customer_id, name) DO UPDATE SET state = EXCLUDED.state, state_metadata = EXCLUDED.state_metadata, updated_at = now()`,
    [customerId, name, s.state, JSON.stringify(s.state_metadata)],
  );
}
