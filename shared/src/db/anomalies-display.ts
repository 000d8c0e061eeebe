/**
 * Stored anomalies as the Anomaly Detection screen shows them: always in the customer's current display currency
 * (billing_currency), so the screen never mixes currencies. An anomaly keeps the currency it was judged
 * in (a stored amount keeps its currency); one judged before the customer's currency changed is shown converted at
 * the rate of its own date (the judged day), and the thresholds asked apply to the converted figures. Without a
 * rate within 7 days of that date it is left out, never shown in its old currency, and counted per judged currency
 * (the screen says how many, with the missing rate).
 * Decisions: docs/decisions-billing.md, "Anomalies after a currency change".
 */
import type { Queryable } from './pool.ts';
import type { AnomalyQuery, AnomalyRow } from './anomalies.ts';

/** Stored anomalies of one judged currency left out for want of a rate. */
export interface NotConverted {
  /** The currency they were judged (and are stored) in. */
  currency: string;
  count: number;
}

export interface DisplayedAnomalies {
  rows: AnomalyRow[];
  /**
   * Stored anomalies of the day passing no conversion (no rate for their date), per judged currency: not shown. Only
   * the request's percentage threshold can apply to them (the minimum amount is in the display currency).
   */
  not_converted: NotConverted[];
}

/** The screen's sentence for anomalies left out, worded as the dashboard's missing-rate message. */
export function notConvertedMessage(p: NotConverted & { display: string; date: string }): string {
  const what = p.count === 1 ? `1 anomaly judged in ${p.currency} is` : `${p.count} anomalies judged in ${p.currency} are`;
  return `No ${p.currency} to ${p.display} rate within 7 days before ${p.date}: ${what} not shown.`;
}

export async function listAnomaliesInDisplayCurrency(db: Queryable, q: AnomalyQuery): Promise<DisplayedAnomalies> {
  const filters = q.projectLabels === null ? null : JSON.stringify(q.projectLabels);
  const { rows } = await db.query<AnomalyRow & { judged_currency: string; converted: boolean }>(
    `WITH x AS (
       SELECT a.project_id, a.service, a.currency AS judged_currency, c.billing_currency AS display, k.rate,
              a.mean_cost * k.rate AS mean_cost, a.to_date_cost * k.rate AS to_date_cost,
              a.project_mean_cost * k.rate AS project_mean_cost, a.project_to_date_cost * k.rate AS project_to_date_cost,
              -- a rise in percent is the same in any currency: the one threshold an unconverted anomaly can be held to
              anomaly_exceeds(a.mean_cost, a.to_date_cost, a.project_mean_cost, a.project_to_date_cost, $4::numeric, 0) AS rises
         FROM anomaly a JOIN customer c ON c.customer_id = a.customer_id
         LEFT JOIN LATERAL fx_rate_on(a.currency, c.billing_currency, a.date) r ON a.currency <> c.billing_currency
         CROSS JOIN LATERAL (SELECT CASE WHEN a.currency = c.billing_currency THEN 1::numeric ELSE r.rate END AS rate) k
        WHERE a.customer_id = $1 AND a.billing_account_id = $2 AND a.date = $3::date
          AND ($6::jsonb IS NULL OR a.project_id IN (
                SELECT project_id FROM viewer_allowed_days($1, $2, $3::date - $7::int, $3::date, $6::jsonb)))
     )
     SELECT x.project_id, x.service,
            round(x.mean_cost, 2)::float8 AS mean_cost, round(x.to_date_cost, 2)::float8 AS to_date_cost,
            CASE WHEN x.mean_cost > 0 THEN round((x.to_date_cost - x.mean_cost) * 100 / x.mean_cost, 2)::float8 END AS delta_from_mean_cost_perc,
            x.display AS currency, x.judged_currency, x.rate IS NOT NULL AS converted
       FROM x
      WHERE (x.rate IS NULL AND x.rises)
         OR anomaly_exceeds(x.mean_cost, x.to_date_cost, x.project_mean_cost, x.project_to_date_cost, $4::numeric, $5::numeric)
      ORDER BY (x.to_date_cost - x.mean_cost) DESC NULLS LAST, x.project_id, x.service`,
    [q.customerId, q.billingAccountId, q.date, q.minPerc, q.minValue, filters, q.labelDays],
  );
  const missing = new Map<string, number>();
  for (const r of rows) if (!r.converted) missing.set(r.judged_currency, (missing.get(r.judged_currency) ?? 0) + 1);
  return {
    rows: rows.filter((r) => r.converted).map(({ converted: _c, judged_currency: _j, ...r }) => r),
    not_converted: [...missing].sort(([a], [b]) => a.localeCompare(b)).map(([currency, count]) => ({ currency, count })),
  };
}
