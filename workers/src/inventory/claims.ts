/**
 * Sends the recommendation state changes support tickets ask for: markClaimed with the ticket key in
 * `stateMetadata` once the ticket has one, markSucceeded once the ticket is Resolved or Closed, markFailed once
 * it is cancelled or closed without having been resolved (else the recommendation stays CLAIMED). One sender per
 * customer at a time (an advisory lock), and each change is marked sent by a compare-and-set, so a change goes out
 * once; a failure is recorded on the claim and retried by the next run.
 */
import { withClient, type Pool, type Queryable } from '@cc/shared/db/pool.ts';
import { findCustomer } from '@cc/shared/db/customers.ts';
import { claimsToSend, markClaimSent, recordClaimError, type RecommendationClaim } from '@cc/shared/db/inventory/claims.ts';
import { claimsToFail, claimsToSucceed, fillClaimTicketKeys, setStoredRecommendationState, storedRecommendation } from '@cc/shared/db/inventory/claim-work.ts';
import type { InventoryScope, InventorySource } from '@cc/shared/ports/inventory.ts';

export interface ClaimDeps {
  pool: Pool;
  source: InventorySource;
}

export interface ClaimResult {
  claimed: number;
  succeeded: number;
  /** Recommendations marked FAILED upstream because their ticket ended unresolved. */
  markedFailed: number;
  /** State changes that could not be sent (recorded on the claim, retried by the next run). */
  failed: number;
}

async function withCustomerLock<T>(pool: Pool, customerId: string, fn: (db: Queryable) => Promise<T>): Promise<T | null> {
  const key = `inventory-claims:${customerId}`;
  return withClient(pool, async (client) => {
    const { rows } = await client.query<{ ok: boolean }>('SELECT pg_try_advisory_lock(hashtext($1)) AS ok', [key]);
    // Another run holds it and sends the same changes: nothing left for this one.
    if (!rows[0]!.ok) return null;
    try {
      return await fn(client);
    } finally {
      await client.query('SELECT pg_advisory_unlock(hashtext($1))', [key]);
    }
  });
}

export async function sendClaims(deps: ClaimDeps, customerId: string): Promise<ClaimResult | { skipped: string }> {
  const customer = await findCustomer(deps.pool, customerId);
  if (!customer) return { skipped: 'no such customer' };
  const scope: InventoryScope = { customerId, serviceAccountEmail: customer.service_account_email, currency: customer.billing_currency };
  const done = await withCustomerLock(deps.pool, customerId, async (db) => {
    const result: ClaimResult = { claimed: 0, succeeded: 0, markedFailed: 0, failed: 0 };
    await fillClaimTicketKeys(db, customerId);
    const send = async (c: RecommendationClaim, which: 'claimed' | 'succeeded' | 'failed') => {
      const stored = await storedRecommendation(db, customerId, c.recommendation_name);
      if (!stored) {
        await recordClaimError(db, customerId, c.recommendation_name, 'the recommendation is no longer in the inventory');
        result.failed++;
        return;
      }
      const req = { ...scope, name: c.recommendation_name, etag: stored.etag, stateMetadata: { ticket: c.ticket_key ?? '' } };
      try {
        const marked =
          which === 'claimed' ? await deps.source.markClaimed(req) : which === 'succeeded' ? await deps.source.markSucceeded(req) : await deps.source.markFailed(req);
        await setStoredRecommendationState(db, customerId, marked.name, marked.state, marked.etag);
        if (await markClaimSent(db, customerId, c.recommendation_name, which)) result[which === 'failed' ? 'markedFailed' : which]++;
      } catch (err) {
        await recordClaimError(db, customerId, c.recommendation_name, (err as Error).message);
        result.failed++;
      }
    };
    for (const c of await claimsToSend(db, customerId)) await send(c, 'claimed');
    for (const c of await claimsToSucceed(db, customerId)) await send(c, 'succeeded');
    for (const c of await claimsToFail(db, customerId)) await send(c, 'failed');
    return result;
  });
  return done ?? { skipped: 'another run is sending this customer’s claims' };
}
