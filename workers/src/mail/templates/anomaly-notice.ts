import type { UnnotifiedAnomaly } from '@cc/shared/db/anomalies.ts';
import { COST_BASIS_LABELS } from '@cc/shared/schemas/billing.ts';
import { escapeHtml, formatMoney, htmlFrame, screenLink } from './layout.ts';

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

const perc = (a: UnnotifiedAnomaly) => (a.delta_from_mean_cost_perc === null ? 'new spend' : `+${a.delta_from_mean_cost_perc}%`);

/**
 * One notice per customer, billing account and day, listing the anomalies found that were not e-mailed before, each
 * with the sentence that says why it is one (by anomaly id; an anomaly without one is listed without it).
 */
export function anomalyNotice(
  customerName: string,
  billingAccountId: string,
  date: string,
  anomalies: UnnotifiedAnomaly[],
  publicUrl: string,
  why: ReadonlyMap<string, string> = new Map(),
): RenderedMail {
  // The link opens the screen on this customer and account, whatever the reader had selected.
  const about = anomalies[0] ? { customerId: anomalies[0].customer_id, billingAccountId } : undefined;
  const link = screenLink(publicUrl, '/anomalydetection', about);
  const subject = `${customerName}: ${anomalies.length} spend ${anomalies.length === 1 ? 'anomaly' : 'anomalies'} on ${date}`;
  const lines = anomalies.flatMap((a) => [
    `- ${a.project_id} / ${a.service}: latest daily spend ${formatMoney(a.to_date_cost, a.currency)}, ` +
      `mean daily spend ${formatMoney(a.mean_cost, a.currency)} (${perc(a)})`,
    ...(why.has(a.id) ? [`  Why: ${why.get(a.id)}`] : []),
  ]);
  // Worded as the alert notice says it: the reader compares the figures with the screen or the invoice on that basis.
  const basis = anomalies[0] ? COST_BASIS_LABELS[anomalies[0].cost_basis] : null;
  const text = [
    `Anomaly Detection found unusual spend for ${customerName} on billing account ${billingAccountId} on ${date}:`,
    '',
    ...lines,
    '',
    ...(basis ? [`Cost basis: ${basis}`, ''] : []),
    `See them in CommandCenter: ${link}`,
  ].join('\n');
  const rows = anomalies
    .map(
      (a) =>
        `<tr><td>${escapeHtml(a.project_id)}</td><td>${escapeHtml(a.service)}</td>` +
        `<td style="text-align:right">${escapeHtml(formatMoney(a.mean_cost, a.currency))}</td>` +
        `<td style="text-align:right">${escapeHtml(formatMoney(a.to_date_cost, a.currency))}</td>` +
        `<td style="text-align:right">${escapeHtml(perc(a))}</td></tr>` +
        (why.has(a.id) ? `\n<tr><td colspan="5">Why: ${escapeHtml(why.get(a.id) ?? '')}</td></tr>` : ''),
    )
    .join('\n');
  const body = `<p>Anomaly Detection found unusual spend for <strong>${escapeHtml(customerName)}</strong> on billing account
${escapeHtml(billingAccountId)} on ${escapeHtml(date)}.</p>
<table cellpadding="6" style="border-collapse: collapse;" border="1">
<thead><tr><th>Project</th><th>Service</th><th>Mean Daily Spend</th><th>Latest Daily Spend</th><th>Percentage Change</th></tr></thead>
<tbody>
${rows}
</tbody></table>${basis ? `\n<p>Cost basis: ${escapeHtml(basis)}</p>` : ''}`;
  return { subject, text, html: htmlFrame(subject, body, { href: link, label: 'Open Anomaly Detection' }) };
}
