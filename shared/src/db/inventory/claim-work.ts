/**
 * What the inventory jobs act on: the customers a nightly sync covers, and the recommendation claims whose
 * upstream state change is due (markClaimed once the ticket has a key, markSucceeded once it is Resolved or Closed
 * after a resolution, markFailed once it is cancelled or closed without ever being resolved).
 */

/**
 * SQL: the ticket `t` ended without resolving what it took on: cancelled, or closed with no status change to
 * Resolved on record (a Jira workflow may close an issue directly).
 */
const ENDED_UNRESOLVED = `(t.status = 'Cancel' OR (t.status = 'Closed' AND NOT EXISTS (
  SELECT 1 FROM ticket_comment tc WHERE tc.ticket_id = t.id AND tc.current_status = 'Resolved')))`;
const ENDED_RESOLVED = `(t.status IN ('Resolved', 'Closed') AND NOT ${ENDED_UNRESOLVED})`;
import type { Queryable } from '../pool.ts';
import type { RecommendationClaim } from './claims.ts';

/** Customers with the inventory flag; with `needServiceAccount`, only those the real source can read as. */
export async function inventoryCustomers(db: Queryable, needServiceAccount: boolean): Promise<string[]> {
  const { rows } = await db.query<{ customer_id: string }>(
    `SELECT customer_id FROM customer
      WHERE inventory AND (NOT $1 OR (gcp_service_account AND service_account_email <> '')) ORDER BY customer_id`,
    [needServiceAccount],
  );
  return rows.map((r) => r.customer_id);
}

/** A ticket key reaches the claim once the ticket sync has recorded it on the ticket. */
export async function fillClaimTicketKeys(db: Queryable, customerId: string): Promise<void> {
  await db.query(
    `UPDATE inventory_recommendation_claim c SET ticket_key = t.jira_key FROM ticket t
      WHERE c.customer_id = $1 AND c.ticket_key IS NULL AND t.id = c.ticket_id AND t.jira_key IS NOT NULL`,
    [customerId],
  );
}

/** Claims sent upstream whose ticket is now Resolved (or Closed after that) and whose success has not gone out yet. */
export async function claimsToSucceed(db: Queryable, customerId: string): Promise<RecommendationClaim[]> {
  const { rows } = await db.query<RecommendationClaim>(
    `SELECT c.* FROM inventory_recommendation_claim c JOIN ticket t ON t.id = c.ticket_id
      WHERE c.customer_id = $1 AND c.claim_sent_at IS NOT NULL AND c.succeeded_sent_at IS NULL AND c.failed_sent_at IS NULL
        AND ${ENDED_RESOLVED}
      ORDER BY c.claimed_at`,
    [customerId],
  );
  return rows;
}

/** Claims sent upstream whose ticket ended unresolved and whose failure has not gone out yet. */
export async function claimsToFail(db: Queryable, customerId: string): Promise<RecommendationClaim[]> {
  const { rows } = await db.query<RecommendationClaim>(
    `SELECT c.* FROM inventory_recommendation_claim c JOIN ticket t ON t.id = c.ticket_id
      WHERE c.customer_id = $1 AND c.claim_sent_at IS NOT NULL AND c.succeeded_sent_at IS NULL AND c.failed_sent_at IS NULL
        AND ${ENDED_UNRESOLVED}
      ORDER BY c.claimed_at`,
    [customerId],
  );
  return rows;
}

/** Customers with a claim whose next state change may be due (the periodic sweep visits only these). */
export async function customersWithClaimWork(db: Queryable, ticketId?: string): Promise<string[]> {
  const { rows } = await db.query<{ customer_id: string }>(
    `SELECT DISTINCT c.customer_id FROM inventory_recommendation_claim c JOIN ticket t ON t.id = c.ticket_id
      WHERE ($1::uuid IS NULL OR c.ticket_id = $1)
        AND ((c.claim_sent_at IS NULL AND t.jira_key IS NOT NULL)
          OR (c.succeeded_sent_at IS NULL AND c.failed_sent_at IS NULL AND c.claim_sent_at IS NOT NULL
              AND t.status IN ('Resolved', 'Closed', 'Cancel')))
      ORDER BY 1`,
    [ticketId ?? null],
  );
  return rows.map((r) => r.customer_id);
}

/** The stored recommendation's etag and state (a state change needs the current etag). */
export async function storedRecommendation(db: Queryable, customerId: string, name: string): Promise<{ etag: string; state: string } | null> {
  const { rows } = await db.query<{ etag: string; state: string }>(`SELECT etag, state FROM inventory_recommendation WHERE customer_id = $1 AND name = $2`, [
    customerId,
    name,
  ]);
  return rows[0] ?? null;
}

/**
 * The answer of a state change, kept in the snapshot until the next sync: the table shows the new state at once,
 * and markSucceeded after markClaimed sends the etag markClaimed answered.
 */
export async function setStoredRecommendationState(db: Queryable, customerId: string, name: string, state: string, etag: string): Promise<void> {
  await db.query(`UPDATE inventory_recommendation SET state = $3, etag = $4 WHERE customer_id = $1 AND name = $2`, [customerId, name, state, etag]);
}

/** Of the names given, those the customer's snapshot holds (a ticket may claim only its own recommendations). */
export async function knownRecommendations(db: Queryable, customerId: string, names: string[]): Promise<string[]> {
  const { rows } = await db.query<{ name: string }>(`SELECT name FROM inventory_recommendation WHERE customer_id = $1 AND name = ANY($2) ORDER BY name`, [
    customerId,
    names,
  ]);
  return rows.map((r) => r.name);
}

/** Seconds of a Recommender duration (`2592000s`) in SQL; a cost is compared per 30 days. */
const PER_30_DAYS = `(2592000 / NULLIF(rtrim(cost_duration, 's'), '')::numeric)`;

/**
 * Savings per 30 days (positive decimal text) of the claimed and of the succeeded recommendations; `projects`: only
 * these projects' (a customerViewer's), null: the customer's.
 */
export async function recommendationSavings(db: Queryable, customerId: string, projects: readonly string[] | null = null): Promise<{ claimed: string; realised: string }> {
  const { rows } = await db.query<{ claimed: string; realised: string }>(
    `SELECT round(COALESCE(sum(-cost * ${PER_30_DAYS}) FILTER (WHERE state = 'CLAIMED'), 0), 2)::text AS claimed,
            round(COALESCE(sum(-cost * ${PER_30_DAYS}) FILTER (WHERE state = 'SUCCEEDED'), 0), 2)::text AS realised
       FROM inventory_recommendation WHERE customer_id = $1 AND cost < 0 AND ($2::text[] IS NULL OR project_id = ANY($2::text[]))`,
    [customerId, projects],
  );
  return rows[0]!;
}
