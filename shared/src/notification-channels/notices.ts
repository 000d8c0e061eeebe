/**
 * The channel event of each notice, built beside its e-mail (same subject, same idempotency key where the e-mail has
 * one), so a channel says what the e-mail says.
 */
import type { ChannelEventType } from '../schemas/notification-channels.ts';
import { screenLink } from '../links.ts';
import type { OrderRow } from '../db/licenses/orders.ts';
import type { ChannelEvent } from './events.ts';

/** Lines of an e-mail's text that only carry its link: a channel shows the link as a button instead. */
const withoutLinkLines = (text: string) =>
  text
    .split('\n')
    .filter((l) => !/https?:\/\/\S+\s*$/.test(l) || l.replace(/https?:\/\/\S+/g, '').trim().length > 40)
    .join('\n')
    .trim();

export function eventFromNotice(
  type: ChannelEventType,
  key: string,
  customerId: string,
  notice: { subject: string; text: string },
  link: string | null,
  data: Record<string, unknown>,
  facts: { name: string; value: string }[] = [],
  now = new Date(),
): ChannelEvent {
  return { type, key, customer_id: customerId, occurred_at: now.toISOString(), title: notice.subject, text: withoutLinkLines(notice.text), facts, link, data };
}

/** A license order placed (by a user, or automatically) or decided (approved, fulfilled, rejected, failed). */
export function licenseOrderEvent(kind: 'placed' | 'decided', o: OrderRow, customerName: string, publicUrl: string): ChannelEvent {
  const link = screenLink(publicUrl, '/workspacelicense', { customerId: o.customer_id });
  const subject = kind === 'placed'
    ? `License order of ${o.order_amount} ${o.sku_name} placed for ${customerName}`
    : `License order of ${o.order_amount} ${o.sku_name} for ${customerName}: ${o.status}`;
  const text = kind === 'placed'
    ? `${o.auto ? 'An automatic order' : `${o.order_by}'s order`} of ${o.order_amount} ${o.sku_name} seats awaits an admin's approval.${o.comment ? `\n\n${o.comment}` : ''}`
    : `The order of ${o.order_amount} ${o.sku_name} seats by ${o.order_by} is ${o.status}${o.decided_by ? ` (decided by ${o.decided_by})` : ''}.${o.error ? `\n\nError: ${o.error}` : ''}`;
  return eventFromNotice(
    kind === 'placed' ? 'license_order.placed' : 'license_order.decided',
    kind === 'placed' ? `license-order-${o.order_id}` : `license-order-${o.order_id}-${o.status}`,
    o.customer_id,
    { subject, text },
    link,
    { order_id: o.order_id, sku_id: o.sku_id, sku_name: o.sku_name, order_amount: o.order_amount, order_by: o.order_by, status: o.status, auto: o.auto },
    [
      { name: 'Seats', value: String(o.order_amount) },
      { name: 'License', value: o.sku_name },
      { name: 'Status', value: o.status },
    ],
  );
}

/** A project request rejected by an admin (approval goes out with its e-mail, shared/src/provisioning/mails.ts). */
export function projectRejectedEvent(r: { id: string; customer_id: string; project_name: string; folder_name: string; requester: string }, by: string, publicUrl: string): ChannelEvent {
  return eventFromNotice(
    'project_request.decided',
    `provisioning-rejected-${r.id}`,
    r.customer_id,
    { subject: `Project ${r.project_name} rejected`, text: `The request for project ${r.project_name} in folder ${r.folder_name} was rejected by ${by}.` },
    screenLink(publicUrl, '/projectprovisioning', { customerId: r.customer_id }),
    { project_request_id: r.id, project_name: r.project_name, folder_name: r.folder_name, requester: r.requester, event: 'rejected', decided_by: by },
    [{ name: 'Project', value: r.project_name }, { name: 'Requested by', value: r.requester }],
  );
}

/** A comment the provider (an admin) wrote on one of the customer's tickets. */
export function ticketCommentEvent(t: { id: string; customer_id: string; summary: string; jira_key: string | null }, c: { id: string; message: string; author: string }, publicUrl: string): ChannelEvent {
  const name = t.jira_key ?? t.summary.slice(0, 60);
  const message = c.message.length > 1500 ? `${c.message.slice(0, 1499)}…` : c.message;
  return eventFromNotice(
    'ticket.commented',
    `ticket-comment-${c.id}`,
    t.customer_id,
    { subject: `New comment on ticket ${name}`, text: `${c.author} commented on "${t.summary}":\n\n${message}` },
    `${publicUrl.replace(/\/+$/, '')}/supportrequest/view/${t.id}`,
    { ticket_id: t.id, jira_key: t.jira_key, comment_id: c.id, author: c.author },
    [{ name: 'Ticket', value: name }, { name: 'By', value: c.author }],
  );
}
