import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Queryable } from '@cc/shared/db/pool.ts';
import { findTicket, findTicketCustomer, type TicketRow } from '@cc/shared/db/tickets/read.ts';
import type { TicketSyncCommand } from '@cc/shared/commands/ticket-sync.ts';
import { TicketRuleError } from '@cc/shared/tickets/rules.ts';
import type { TenantRule } from '../route-policy.ts';
import { errors } from '../errors.ts';

/**
 * Ticket routes name a ticket, not a customer: the tenant guard resolves the customer from the ticket row, so a
 * caller who may not see that customer gets the same 404 as for a ticket that does not exist.
 */
export const ticketTenant = (app: FastifyInstance): TenantRule => ({
  resolve: async (req: FastifyRequest) => findTicketCustomer(app.pg, String((req.params as { key?: string }).key ?? '')),
});

export async function ticketOr404(db: Queryable, key: string, opts: { forUpdate?: boolean } = {}): Promise<TicketRow> {
  const t = await findTicket(db, key, opts);
  if (!t) throw new errors.notFound('Ticket not found');
  return t;
}

/** Runs a rule check; a broken rule is a 400 with the rule's message. */
export function rule<T>(check: () => T): T {
  try {
    return check();
  } catch (err) {
    if (err instanceof TicketRuleError) throw new errors.badRequest(err.message);
    throw err;
  }
}

/**
 * Enqueues a write to the system of record after the local change committed. If Redis is down the change is
 * still saved; the periodic pull finds tickets with unsynced writes and catches them up.
 */
export async function enqueueSync(app: FastifyInstance, command: TicketSyncCommand): Promise<void> {
  try {
    await app.producers.enqueue('ticket-sync', 'ticket.sync', command);
  } catch (err) {
    app.log.warn({ err, command }, 'ticket-sync enqueue failed; the periodic pull will catch up');
  }
}

/** The text of a comment given as a string or as a comment object ({message}). */
export function commentText(body: string | { message?: string } | undefined): string | undefined {
  if (body === undefined) return undefined;
  return typeof body === 'string' ? body : body.message;
}
