import type { OrderRow } from '@cc/shared/db/licenses/orders.ts';
import type { RenderedMail } from './anomaly-notice.ts';
import { escapeHtml, htmlFrame, screenLink } from './layout.ts';

/** An automatic license order waiting for a provider admin's decision. */
export function licenseOrderNotice(o: OrderRow, customerName: string, publicUrl: string): RenderedMail {
  const link = screenLink(publicUrl, '/workspacelicense', { customerId: o.customer_id });
  const subject = `${customerName}: automatic order of ${o.order_amount} ${o.sku_name} seats`;
  const text = [
    `Automatic license order for ${customerName}`,
    '',
    `${o.order_amount} seats of ${o.sku_name} (SKU ${o.sku_id}) were ordered and wait for approval.`,
    o.comment,
    '',
    `Orders in CommandCenter: ${link}`,
  ].join('\n');
  const body = `<p>${o.order_amount} seats of <strong>${escapeHtml(o.sku_name)}</strong> (SKU ${escapeHtml(o.sku_id)}) were ordered for
<strong>${escapeHtml(customerName)}</strong> and wait for approval.</p>
<p>${escapeHtml(o.comment)}</p>`;
  return { subject, text, html: htmlFrame(subject, body, { href: link, label: 'Open the orders in CommandCenter' }) };
}
