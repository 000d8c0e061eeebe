import type { PendingNotice } from '@cc/shared/db/alerts.ts';
import { COST_BASIS_LABELS } from '@cc/shared/schemas/billing.ts';
import type { RenderedMail } from './anomaly-notice.ts';
import { escapeHtml, formatMoney, htmlFrame, screenLink } from './layout.ts';

/** The alert's scope as the screen names it: Total, or 'Project Label key = value' / 'Resource Label key = value'. */
export function alertScope(n: Pick<PendingNotice, 'group_by' | 'label_key' | 'label_value'>): string {
  if (n.group_by === 'service') return 'Total';
  const kind = n.group_by === 'project_label' ? 'Project Label' : 'Resource Label';
  return `${kind} ${n.label_key} = ${n.label_value}`;
}

/** First crossing of an alert's quota in a billing month. */
export function alertNotice(n: PendingNotice, publicUrl: string): RenderedMail {
  const link = screenLink(publicUrl, '/billing/alerts', { customerId: n.customer_id, billingAccountId: n.billing_account_id });
  const scope = alertScope(n);
  const spend = formatMoney(n.spend, n.currency);
  const quota = formatMoney(n.quota, n.currency);
  const subject = `${n.customer_name}: Month-To-Date spend ${spend} exceeds the alert quota of ${quota}`;
  const text = [
    `Billing alert for ${n.customer_name}`,
    '',
    `Month-To-Date spend (${n.month}, up to ${n.evaluated_day}) of ${scope} on billing account ${n.billing_account_id} is ${spend},`,
    `which exceeds the alert quota of ${quota}.`,
    `Cost basis: ${COST_BASIS_LABELS[n.cost_basis]}`,
    '',
    'You will not be notified again for this alert this month.',
    `Alerts in CommandCenter: ${link}`,
  ].join('\n');
  const body = `<p>Month-To-Date spend of <strong>${escapeHtml(n.customer_name)}</strong> exceeds an alert quota.</p>
<table cellpadding="6" style="border-collapse: collapse;" border="1">
<tr><th align="left">Group By</th><td>${escapeHtml(scope)}</td></tr>
<tr><th align="left">Billing account</th><td>${escapeHtml(n.billing_account_id)}</td></tr>
<tr><th align="left">Month</th><td>${escapeHtml(n.month)} (up to ${escapeHtml(n.evaluated_day)})</td></tr>
<tr><th align="left">Month-To-Date spend</th><td><b>${escapeHtml(spend)}</b></td></tr>
<tr><th align="left">Quota</th><td>${escapeHtml(quota)}</td></tr>
<tr><th align="left">Cost basis</th><td>${escapeHtml(COST_BASIS_LABELS[n.cost_basis])}</td></tr>
</table>
<p>You will not be notified again for this alert this month.</p>`;
  return { subject, text, html: htmlFrame(`Billing alert for ${n.customer_name}`, body, { href: link, label: 'Open Billing Alerts' }) };
}
