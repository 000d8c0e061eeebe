/**
 * Changes to a ticket's fields (status, priority, satisfaction): each runs through `changeTicket`, so the lock, the
 * one-transaction write and the sync that follows are the same for all of them.
 */
import type { FastifyInstance } from 'fastify';
import { randomUUID } from 'node:crypto';
import { withTransaction, type Queryable } from '@cc/shared/db/pool.ts';
import type { TicketRow } from '@cc/shared/db/tickets/read.ts';
import { claimStatusComment, insertComment } from '@cc/shared/db/tickets/comments.ts';
import { saveSatisfaction, updatePriority, updateStatus } from '@cc/shared/db/tickets/write.ts';
import {
  TICKET_MESSAGES,
  checkCommentMessage,
  checkPriorityChange,
  checkSatisfaction,
  checkStatusChange,
  ticketRole,
} from '@cc/shared/tickets/rules.ts';
import type { Static } from '@sinclair/typebox';
import type { PriorityBody, SatisfactionBody, StatusBody } from '@cc/shared/schemas/tickets.ts';
import type { AuthUser } from '../plugins/app/auth.ts';
import { errors } from '../errors.ts';
import { commentText, enqueueSync, rule, ticketOr404 } from './context.ts';

/**
 * Applies one change to the locked ticket inside the transaction (one field write: local_version moves by one) and
 * returns the id of the comment it wrote, if any.
 */
export type TicketChange = (tx: Queryable, t: TicketRow) => Promise<string | null>;

/**
 * Locks the ticket `key`, applies the change in one transaction, then queues the change's comment (first, so the
 * system of record shows it before the field moves) and the field push. Returns the ticket id.
 */
export async function changeTicket(app: FastifyInstance, key: string, change: TicketChange): Promise<string> {
  const result = await withTransaction(app.pg, async (tx) => {
    const t = await ticketOr404(tx, key, { forUpdate: true });
    const commentId = await change(tx, t);
    return { id: t.id, version: t.local_version + 1, commentId };
  });
  if (result.commentId) await enqueueSync(app, { op: 'comment', ticket_id: result.id, ref: result.commentId });
  await enqueueSync(app, { op: 'push', ticket_id: result.id, ref: String(result.version) });
  return result.id;
}

/** Spec 000 §4: a status change needs a comment, given inline or posted just before (then claimed here). */
export const changeStatus =
  (user: AuthUser, body: Static<typeof StatusBody>): TicketChange =>
  async (tx, t) => {
    const to = rule(() => checkStatusChange(ticketRole(user.admin), t.status, body.name));
    const inline = commentText(body.comment_body);
    let commentId: string | null = null;
    if (inline !== undefined) {
      const message = rule(() => checkCommentMessage(inline));
      const c = await insertComment(tx, {
        id: randomUUID(),
        ticket_id: t.id,
        message,
        author: user.email,
        by_provider: user.admin,
        previous_status: t.status,
        current_status: to,
        used_by_change: true,
      });
      commentId = c.id;
    } else if (!(await claimStatusComment(tx, t.id, user.email, t.status, to))) {
      throw new errors.badRequest(TICKET_MESSAGES.required);
    }
    await updateStatus(tx, t.id, to, user.email);
    return commentId;
  };

/** A priority change always carries its comment. */
export const changePriority =
  (user: AuthUser, body: Static<typeof PriorityBody>): TicketChange =>
  async (tx, t) => {
    const to = rule(() => checkPriorityChange(t.status, t.priority, body.priority.name));
    const message = rule(() => checkCommentMessage(commentText(body.comment_body)));
    const c = await insertComment(tx, {
      id: randomUUID(),
      ticket_id: t.id,
      message,
      author: user.email,
      by_provider: user.admin,
      previous_priority: t.priority,
      current_priority: to,
      used_by_change: true,
    });
    await updatePriority(tx, t.id, to, user.email);
    return c.id;
  };

/** Customer satisfaction: once, on a Closed ticket. */
export const giveSatisfaction =
  (user: AuthUser, body: Static<typeof SatisfactionBody>): TicketChange =>
  async (tx, t) => {
    const s = rule(() => checkSatisfaction(t, user.admin, body));
    await saveSatisfaction(tx, t.id, s, user.email);
    return null;
  };
