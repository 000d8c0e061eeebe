/**
 * A support ticket raised from a selection of recommendations takes them on in Recommender: the claims are recorded
 * with the ticket, and the inventory-claims job sends markClaimed once the ticket has its key, markSucceeded once
 * it is Resolved or Closed. The job also sweeps every 10 minutes, so a lost enqueue only delays the change.
 */
import type { FastifyInstance } from 'fastify';
import type { Queryable } from '@cc/shared/db/pool.ts';
import { recordClaim } from '@cc/shared/db/inventory/claims.ts';
import { knownRecommendations } from '@cc/shared/db/inventory/claim-work.ts';
import { errors } from '../errors.ts';

/** Records the claims; a name the customer's inventory does not hold refuses the whole ticket. */
export async function recordTicketClaims(tx: Queryable, c: { customerId: string; ticketId: string; names: string[]; by: string }): Promise<void> {
  const names = [...new Set(c.names)];
  if (names.length === 0) return;
  const known = await knownRecommendations(tx, c.customerId, names);
  if (known.length !== names.length) throw new errors.badRequest('Unknown recommendation');
  for (const name of known) await recordClaim(tx, { customerId: c.customerId, recommendationName: name, ticketId: c.ticketId, ticketKey: null, claimedBy: c.by });
}

/**
 * Asks the claims job to look at the customer's claims. After a create it waits `delayMs`, the time the ticket
 * sync usually takes to give the ticket its key; the sweep catches anything slower.
 */
export async function enqueueClaims(app: FastifyInstance, customerId: string, delayMs = 0): Promise<void> {
  try {
    await app.producers.enqueue('inventory-claims', 'inventory.claims', { customer_id: customerId }, delayMs ? { delay: delayMs } : undefined);
  } catch (err) {
    app.log.warn({ err, customerId }, 'inventory-claims enqueue failed; the sweep will catch up');
  }
}
