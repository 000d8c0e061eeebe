import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { findAttachment, listAttachments } from '@cc/shared/db/tickets/attachments.ts';
import { listComments } from '@cc/shared/db/tickets/comments.ts';
import { listTickets } from '@cc/shared/db/tickets/read.ts';
import { allowedTransitions, isTicketStatus, type TicketRole } from '@cc/shared/tickets/rules.ts';
import type { AttachmentStore } from '@cc/shared/ports/attachment-store.ts';
import { withErrors } from '@cc/shared/schemas/common.ts';
import {
  AttachmentParams,
  TicketComment,
  TicketDetail,
  TicketKeyParams,
  TicketListItem,
  TicketListParams,
  TicketListQuery,
  TransitionsAnswer,
  TransitionsParams,
  TransitionsQuery,
} from '@cc/shared/schemas/tickets.ts';
import { errors } from '../../errors.ts';
import { ticketOr404, ticketTenant } from '../../tickets/context.ts';
import { comment, detail, listItem } from '../../tickets/present.ts';

const tags = ['tickets'];

/** Reads of the local ticket view (spec 000 §7 Tickets). */
export function ticketReads(store: AttachmentStore): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/v1/jira/msp_tickets/:customer/list',
      {
        config: { permission: 'supportrequest_read', tenant: { params: 'customer' }, feature: 'support_request' },
        schema: {
          tags,
          summary: "A customer's tickets, last modified first (one page: limit/offset; X-Total-Count holds the count of all)",
          params: TicketListParams,
          querystring: TicketListQuery,
          response: withErrors({ 200: Type.Array(TicketListItem) }),
        },
      },
      async (req, reply) => {
        const page = await app.pgRead.fresh((db) => listTickets(db, req.customer.customer_id, { limit: req.query.limit ?? 500, offset: req.query.offset ?? 0 }));
        // the screens page on the server: the count of all the customer's tickets rides in a header, the body stays a list
        void reply.header('x-total-count', String(page.total));
        return page.rows.map(listItem);
      },
    );

    app.get(
      '/v1/jira/msp_tickets/:key',
      {
        config: { permission: 'supportrequest_read', tenant: ticketTenant(app), feature: 'support_request' },
        schema: { tags, summary: 'One ticket', params: TicketKeyParams, response: withErrors({ 200: TicketDetail }) },
      },
      async (req) => {
        const t = await ticketOr404(app.pg, req.params.key);
        return detail(t, await listAttachments(app.pg, t.id));
      },
    );

    app.get(
      '/v1/jira/msp_tickets/:key/comment',
      {
        config: { permission: 'supportrequest_read', tenant: ticketTenant(app), feature: 'support_request' },
        schema: { tags, summary: "A ticket's comments, newest first", params: TicketKeyParams, response: withErrors({ 200: Type.Array(TicketComment) }) },
      },
      async (req) => {
        const t = await ticketOr404(app.pg, req.params.key);
        return (await listComments(app.pg, t.id)).map(comment);
      },
    );

    app.get(
      '/v1/jira/msp_tickets/:role/:state/transitions',
      {
        config: { permission: 'supportrequest_read', tenant: 'none' },
        schema: {
          tags,
          summary: 'Allowed next statuses for a role from a status (Closed and Cancel: none)',
          params: TransitionsParams,
          querystring: TransitionsQuery,
          response: withErrors({ 200: TransitionsAnswer }),
        },
      },
      async (req) => {
        const { role } = req.params;
        if (role !== 'admin' && role !== 'customer') throw new errors.badRequest('role must be admin or customer');
        // customers and viewers may not read the provider's table: it would only mislead their screens
        if (role === 'admin' && !req.auth!.admin) throw new errors.forbidden('Admin only');
        const status = req.query.status || req.params.state;
        if (!isTicketStatus(status)) throw new errors.badRequest('Status must be one of Open, In Progress, Resolved, Closed, Cancel');
        const next = allowedTransitions(role as TicketRole, status);
        return { status, role: role as TicketRole, transitions: next.map((name) => ({ id: name, name })) };
      },
    );

    app.get(
      '/v1/jira/msp_tickets/:key/attachment/:attachment_id',
      {
        config: { permission: 'supportrequest_read', tenant: ticketTenant(app), feature: 'support_request' },
        schema: {
          tags,
          summary: 'Download an attachment (binary)',
          params: AttachmentParams,
          response: withErrors({ 200: Type.Unknown({ description: 'the file bytes, with its content type' }) }),
        },
      },
      async (req, reply) => {
        const t = await ticketOr404(app.pg, req.params.key);
        const a = await findAttachment(app.pg, t.id, req.params.attachment_id);
        if (!a) throw new errors.notFound('Attachment not found');
        const bytes = await store.get(a.stored_name);
        if (!bytes) throw new errors.notFound('Attachment not found');
        return reply
          .type(a.mime_type)
          .header('content-disposition', `attachment; filename*=UTF-8''${encodeURIComponent(a.file_name)}`)
          .header('x-content-type-options', 'nosniff')
          .header('cache-control', 'private, no-store')
          .send(bytes);
      },
    );
  };
}
