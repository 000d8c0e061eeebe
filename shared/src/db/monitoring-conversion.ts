/**
 * The currency side of the System Health figures: the display currency, and the spend of the figures'
 * days (the month and the 29 days before today) that has no rate within 7 days of its usage day, per currency, with
 * the same sentence the billing dashboard shows. That spend is in no figure.
 */
import type { Queryable } from './pool.ts';

export interface UnconvertedSpend {
  currency: string;
  /** Original amount, 2 decimals. */
  amount: string;
  missing_from: string;
  missing_to: string;
  message: string;
}

/** As the dashboard's message (api/src/billing/conversion.ts), so both screens say the same. */
const message = (u: Omit<UnconvertedSpend, 'message'>, display: string) => {
  const days = u.missing_from === u.missing_to ? `on ${u.missing_from}` : `from ${u.missing_from} to ${u.missing_to}`;
  return `No ${u.currency} to ${display} rate within 7 days before the usage days ${days}: ${u.amount} ${u.currency} is not converted and not included in the figures.`;
};

/** `viewerFilters`: a customerViewer's filters as jsonb text (null: unrestricted); his spend only, as in his figures. */
export async function healthConversion(
  db: Queryable,
  customerId: string,
  today: string,
  viewerFilters: string | null = null,
): Promise<{ currency: string; unconverted: UnconvertedSpend[] }> {
  const { rows } = await db.query<{ display: string; currency: string | null; amount: string | null; missing_from: string | null; missing_to: string | null }>(
    `WITH c AS (
       SELECT billing_currency AS display, billing_account_ids, least(date_trunc('month', $2::date)::date, $2::date - 29) AS first_day
         FROM customer WHERE customer_id = $1
     ), accounts AS (
       -- a viewer's: the first account only, as his figures
       SELECT a.billing_account_id FROM c CROSS JOIN LATERAL unnest(c.billing_account_ids) WITH ORDINALITY AS a(billing_account_id, n)
        WHERE $3::jsonb IS NULL OR a.n = 1
     ), rates AS (
       -- once per account, not per row
       SELECT a.billing_account_id, r.currency, r.day, r.rate
         FROM accounts a CROSS JOIN c CROSS JOIN LATERAL fx_day_rates(c.display, a.billing_account_id, c.first_day, $2::date) r
     ), missing AS (
       SELECT d.currency, round(sum(d.cost + d.credits), 2)::text AS amount,
              min(d.usage_date)::text AS missing_from, max(d.usage_date)::text AS missing_to
         FROM c CROSS JOIN accounts a
         JOIN cost_daily d ON d.customer_id = $1 AND d.billing_account_id = a.billing_account_id
          AND d.usage_date BETWEEN c.first_day AND $2::date AND d.currency <> c.display
         LEFT JOIN rates r ON r.billing_account_id = d.billing_account_id AND r.currency = d.currency AND r.day = d.usage_date
        WHERE r.rate IS NULL
          AND ($3::jsonb IS NULL OR (d.usage_date, d.project_id) IN (
                SELECT v.usage_date, v.project_id FROM viewer_allowed_days($1, a.billing_account_id, c.first_day, $2::date, $3::jsonb) v))
        GROUP BY d.currency
     )
     SELECT c.display, m.currency, m.amount, m.missing_from, m.missing_to FROM c LEFT JOIN missing m ON true ORDER BY m.currency`,
    [customerId, today, viewerFilters],
  );
  const display = rows[0]?.display ?? 'EUR';
  const unconverted = rows
    .filter((r) => r.currency !== null)
    .map((r) => {
      const u = { currency: r.currency!, amount: r.amount!, missing_from: r.missing_from!, missing_to: r.missing_to! };
      return { ...u, message: message(u, display) };
    });
  return { currency: display, unconverted };
}
