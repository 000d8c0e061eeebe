/** Shared bits of the notice e-mails: escaping and one plain HTML frame (mail clients ignore most CSS). */

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ESCAPES[c]);
}

/** Formats decimal text for people: English grouping, 2 decimals (display only; sums were done in SQL). */
export function formatMoney(decimal: string, currency: string): string {
  const n = Number(decimal);
  return `${n.toLocaleString('en-GB', { minimumFractionDigits: 2, maximumFractionDigits: 2 })} ${currency}`;
}

export function htmlFrame(title: string, body: string, link: { href: string; label: string }): string {
  return `<!doctype html>
<html><body style="font-family: -apple-system, Segoe UI, Helvetica, Arial, sans-serif; color: #1f2328;">
<h2 style="font-size: 18px;">${escapeHtml(title)}</h2>
${body}
<p><a href="${escapeHtml(link.href)}">${escapeHtml(link.label)}</a></p>
<p style="color: #59636e; font-size: 12px;">You receive this because you are on the billing alert list of this customer in CommandCenter.</p>
</body></html>`;
}

export { screenLink } from '@cc/shared/links.ts';
