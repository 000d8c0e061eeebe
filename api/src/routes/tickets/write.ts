import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { recordChannelEvent } from '@cc/shared/notification-channels/queue.ts';
import { ticketCommentEvent } from '@cc/shared/notification-channels/notices.ts';
import { randomUUID } from 'node:crypto';
import type { Queryable } from '@cc/shared/db/pool.ts';
import type { Enqueue } from '@cc/shared/producer.ts';
import type { TenantCustomer } from '@cc/shared/db/customers.ts';
import { listMembers } from '@cc/shared/db/customers-write.ts';
import { insertAttachment, listAttachments } from '@cc/shared/db/tickets/attachments.ts';
import { insertComment } from '@cc/shared/db/tickets/comments.ts';
import { insertTicket, markTicketUpdated } from '@cc/shared/db/tickets/write.ts';
import type { AttachmentStore } from '@cc/shared/ports/attachment-store.ts';
import {
  PRIORITY_MEANINGS,
  checkAttachmentCount,
  checkCommentMessage,
  checkNewTicket,
  checkOpenForChanges,
  checkStatusChange,
  isTicketPriority,
  ticketRole,
} from '@cc/shared/tickets/rules.ts';
import { withErrors } from '@cc/shared/schemas/common.ts';
import { AddCommentBody, CreateTicketBody, PriorityBody, SatisfactionBody, StatusBody, TicketComment, TicketDetail, TicketKeyParams } from '@cc/shared/schemas/tickets.ts';
import { errors } from '../../errors.ts';
import { enqueueSync, rule, ticketOr404, ticketTenant } from '../../tickets/context.ts';
import { changePriority, changeStatus, changeTicket, giveSatisfaction } from '../../tickets/change.ts';
import { checkUploads } from '../../tickets/uploads.ts';
import { comment, detail } from '../../tickets/present.ts';
import { enqueueClaims, recordTicketClaims } from '../../inventory/claims.ts';

const tags = ['tickets'];
/** The ticket sync gives a new ticket its key within seconds; the claim needs that key. */
const CLAIM_AFTER_CREATE_MS = 30_000;

/** Writes: saved to the local rows in one transaction, then sent to the system of record by the ticket-sync queue. */
export function ticketWrites(store: AttachmentStore): FastifyPluginAsyncTypebox {
  return async (app) => {
    const answer = async (id: string) => {
      const t = await ticketOr404(app.pg, id);
      return detail(t, await listAttachments(app.pg, t.id));
    };

    app.post(
      '/v1/jira/msp_tickets',
      {
        config: { permission: 'supportrequest_create', tenant: { body: 'customer' }, feature: 'support_request' },
        schema: { tags, summary: 'Raise a ticket (idempotent on id)', body: CreateTicketBody, response: withErrors({ 200: TicketDetail, 201: TicketDetail }) },
      },
      async (req, reply) => {
        const user = req.auth!;
        const fields = rule(() => checkNewTicket(req.body));
        const names = req.body.attachments ?? [];
        rule(() => checkAttachmentCount(0, names.length));
        const customer = req.customer;
        const id = req.body.id ?? randomUUID();
        // The ticket, its sync to the system of record, its claims and its e-mail commit together: a
        // crash or a Redis outage after the answer loses none of them, and a failed write leaves no half of it.
        const outcome = await app.outbox.transaction(async (tx, enqueue) => {
          const created = await insertTicket(tx, { id, customer_id: customer.customer_id, ...fields, created_by: user.email });
          if (!created) return 'replayed' as const;
          await recordTicketClaims(tx, { customerId: customer.customer_id, ticketId: id, names: req.body.recommendations ?? [], by: user.email });
          // a refused file rolls the ticket back with it
          const uploads = await checkUploads(tx, store, names, user.email);
          for (const u of uploads) {
            await insertAttachment(tx, { id: randomUUID(), ticket_id: id, file_name: u.file_name, stored_name: u.generated_name, mime_type: u.mime_type, size: u.size, author: user.email });
          }
          await enqueue('ticket-sync', 'ticket.sync', { op: 'create', ticket_id: id });
          if (req.body.recommendations?.length) await enqueue('inventory-claims', 'inventory.claims', { customer_id: customer.customer_id }, { delay: CLAIM_AFTER_CREATE_MS });
          await notifyCustomer(tx, enqueue, id, customer, fields, user.email);
          return 'created' as const;
        });
        if (outcome === 'replayed') {
          // a retried POST: the same ticket, nothing created twice; an id of another customer's ticket is not revealed
          const existing = await ticketOr404(app.pg, id);
          if (existing.customer_id !== customer.customer_id) throw new errors.badRequest('This ticket id is already used');
          return reply.code(200).send(await answer(id));
        }
        return reply.code(201).send(await answer(id));
      },
    );

    /** Spec 000 §2: a new ticket e-mails the customer's notify list (once per ticket: the notify key). */
    async function notifyCustomer(tx: Queryable, enqueue: Enqueue, id: string, customer: TenantCustomer, t: { summary: string; description: string; priority: string }, by: string) {
      const notify = await listMembers(tx, customer.customer_id, 'notify');
      if (notify.length === 0) return;
      const link = `${app.config.PUBLIC_URL}/supportrequest/view/${id}`;
      const meaning = isTicketPriority(t.priority) ? PRIORITY_MEANINGS[t.priority] : '';
      await enqueue('notify', 'notify.send', {
        to: notify,
        subject: `New support ticket for ${customer.customer_name}: ${t.summary}`,
        text: `${by} raised a Rapid Architecture Ticket for ${customer.customer_name}.\n\nSummary: ${t.summary}\nPriority: ${t.priority} (${meaning})\n\n${t.description}\n\nOpen it: ${link}\n`,
        key: `ticket-created-${id}`,
      });
    }

    app.post(
      '/v1/jira/msp_tickets/:key/comment',
      {
        config: { permission: 'supportrequest_update', tenant: ticketTenant(app), feature: 'support_request' },
        schema: { tags, summary: 'Add a comment', params: TicketKeyParams, body: AddCommentBody, response: withErrors({ 201: TicketComment }) },
      },
      async (req, reply) => {
        const user = req.auth!;
        const saved = await app.outbox.transaction(async (tx, outboxEnqueue) => {
          const t = await ticketOr404(tx, req.params.key, { forUpdate: true });
          rule(() => checkOpenForChanges(t.status));
          const message = rule(() => checkCommentMessage(req.body.message));
          const { previous_status: prev, current_status: next } = req.body;
          if (prev || next) {
            // the comment of a status change (spec 000 §4): it must describe a change this caller may make now
            if (prev !== t.status) throw new errors.badRequest(`previous_status must be the ticket's status (${t.status})`);
            rule(() => checkStatusChange(ticketRole(user.admin), t.status, next));
          }
          const c = await insertComment(tx, {
            id: randomUUID(),
            ticket_id: t.id,
            message,
            author: user.email,
            by_provider: user.admin,
            previous_status: prev ?? null,
            current_status: next ?? null,
          });
          await markTicketUpdated(tx, t.id, user.email);
          // the customer's notification channels hear of the provider's comments, with the comment
          if (user.admin) await recordChannelEvent(tx, outboxEnqueue, ticketCommentEvent(t, c, app.config.PUBLIC_URL));
          return c;
        });
        await enqueueSync(app, { op: 'comment', ticket_id: saved.ticket_id, ref: saved.id });
        return reply.code(201).send(comment(saved));
      },
    );

    app.patch(
      '/v1/jira/msp_tickets/:key/status',
      {
        config: { permission: 'supportrequest_update', tenant: ticketTenant(app), feature: 'support_request' },
        schema: { tags, summary: 'Change the status (needs a comment)', params: TicketKeyParams, body: StatusBody, response: withErrors({ 200: TicketDetail }) },
      },
      async (req) => {
        const t = await answer(await changeTicket(app, req.params.key, changeStatus(req.auth!, req.body)));
        // a recommendation taken on by this ticket is marked succeeded once the ticket is done
        if (t.status === 'Resolved' || t.status === 'Closed') await enqueueClaims(app, req.customer.customer_id);
        return t;
      },
    );

    app.patch(
      '/v1/jira/msp_tickets/:key/priority',
      {
        config: { permission: 'supportrequest_update', tenant: ticketTenant(app), feature: 'support_request' },
        schema: { tags, summary: 'Change the priority (with its comment)', params: TicketKeyParams, body: PriorityBody, response: withErrors({ 200: TicketDetail }) },
      },
      async (req) => answer(await changeTicket(app, req.params.key, changePriority(req.auth!, req.body))),
    );

    app.patch(
      '/v1/jira/msp_tickets/:key/satisfaction',
      {
        config: { permission: 'supportrequest_update', tenant: ticketTenant(app), feature: 'support_request' },
        schema: { tags, summary: 'Give customer satisfaction (once, Closed tickets)', params: TicketKeyParams, body: SatisfactionBody, response: withErrors({ 200: TicketDetail }) },
      },
      async (req) => answer(await changeTicket(app, req.params.key, giveSatisfaction(req.auth!, req.body))),
    );
  };
}

