/** Local rows → the answers of spec 000 §3 (Ticket, Comment). */
import type { AttachmentRow } from '@cc/shared/db/tickets/attachments.ts';
import type { CommentRow } from '@cc/shared/db/tickets/comments.ts';
import type { TicketRow } from '@cc/shared/db/tickets/read.ts';
import { firstResponseBucket } from '@cc/shared/tickets/first-response.ts';
import type { TicketAttachment, TicketComment, TicketDetail, TicketListItem } from '@cc/shared/schemas/tickets.ts';

const iso = (d: Date) => d.toISOString();

export const attachmentUrl = (ticketId: string, attachmentId: string) => `/v1/jira/msp_tickets/${ticketId}/attachment/${attachmentId}`;

export function listItem(t: TicketRow): TicketListItem {
  return {
    id: t.id,
    jira_issue_key: t.jira_key,
    summary: t.summary,
    status: t.status as TicketListItem['status'],
    priority: t.priority as TicketListItem['priority'],
    creation_date: iso(t.created_at),
    creation_by: t.created_by,
    update_date: iso(t.updated_at),
    first_response_date: t.first_response_at ? iso(t.first_response_at) : null,
    first_response_bucket: firstResponseBucket(t.created_at, t.first_response_at),
    customer_satisfaction_score: t.satisfaction_score,
    customer_id: t.customer_id,
    customer_name: t.customer_name,
    sync_state: t.sync_state,
  };
}

export function attachment(a: AttachmentRow): TicketAttachment {
  return {
    id: a.id,
    name: a.file_name,
    url: attachmentUrl(a.ticket_id, a.id),
    mime_type: a.mime_type,
    size: Number(a.size),
    created: iso(a.created_at),
    author: a.author,
  };
}

export function detail(t: TicketRow, attachments: AttachmentRow[]): TicketDetail {
  return {
    ...listItem(t),
    description: t.description,
    assignee: t.assignee,
    update_by: t.updated_by,
    first_response_by: t.first_response_by,
    customer_satisfaction_comment:
      t.satisfaction_score !== null && t.satisfaction_at
        ? { author: t.satisfaction_by ?? '', date: iso(t.satisfaction_at), message: t.satisfaction_message ?? '' }
        : null,
    attachments: attachments.map(attachment),
    sync_error: t.sync_error,
  };
}

export function comment(c: CommentRow): TicketComment {
  return {
    id: c.id,
    message: c.message,
    author: c.author,
    date: iso(c.created_at),
    previous_status: c.previous_status,
    current_status: c.current_status,
    previous_priority: c.previous_priority,
    current_priority: c.current_priority,
  };
}
