/**
 * The spend of every customer for the provider's overview: each customer's daily spend on its default (first)
 * billing account, every provider, on the customer's cost basis, in its own currency exactly as its billing
 * dashboard reads it (rows in another currency at their day's rate; a row without a rate within 7 days is in no
 * figure), and each day's figure again in the provider's currency at that day's rate (fx_rate_on, as billing
 * converts). Decisions in docs/decisions-operations.md.
 */
import type { Pool } from './pool.ts';
import { queryWithoutJit } from './operations.ts';

export interface CustomerSpendDays {
  customer_id: string;
  customer_name: string;
  currency: string;
  billing_account_id: string | null;
  /** Day → spend in the customer's currency (decimal text). */
  days: Map<string, string>;
  /** Day → the same spend in the provider currency; a day without a rate is missing here. */
  providerDays: Map<string, string>;
  open_anomalies: number;
  alerts_over_quota: number;
  last_usage_date: string | null;
}

// $1 first day, $2 last day, $3 provider currency, $4 anomaly date, $5 month (YYYY-MM)
const SPEND_SQL = `
WITH c AS (
  SELECT customer_id, customer_name, billing_currency AS display, billing_cost_basis AS basis, billing_account_ids[1] AS account
    FROM customer
), per_currency AS (
  SELECT c.customer_id, c.display, d.usage_date, d.currency, sum(basis_spend(c.basis, d.cost, d.credits, d.amortisation)) AS spend
    FROM c JOIN cost_daily d ON d.billing_account_id = c.account AND d.customer_id = c.customer_id AND d.usage_date BETWEEN $1::date AND $2::date
   GROUP BY 1, 2, 3, 4
), own_rates AS MATERIALIZED (
  -- one rate lookup per currency pair and day, not one per customer (500 customers share a handful of pairs)
  SELECT x.currency, x.display, x.usage_date, r.rate
    FROM (SELECT DISTINCT currency, display, usage_date FROM per_currency WHERE currency <> display) x
    CROSS JOIN LATERAL fx_rate_on(x.currency, x.display, x.usage_date) r
), own AS (
  -- converting a day's sum of one currency equals converting each row of it: numeric products are exact
  SELECT p.customer_id, p.display, p.usage_date, sum(CASE WHEN p.currency = p.display THEN p.spend ELSE p.spend * r.rate END) AS spend
    FROM per_currency p
    LEFT JOIN own_rates r ON r.currency = p.currency AND r.display = p.display AND r.usage_date = p.usage_date
   WHERE p.currency = p.display OR r.rate IS NOT NULL
   GROUP BY 1, 2, 3
), provider_rates AS MATERIALIZED (
  SELECT x.display, x.usage_date, r.rate
    FROM (SELECT DISTINCT display, usage_date FROM own WHERE display <> $3) x
    CROSS JOIN LATERAL fx_rate_on(x.display, $3, x.usage_date) r
), days AS (
  SELECT o.customer_id, jsonb_object_agg(o.usage_date::text, o.spend::text) AS days,
         coalesce(jsonb_object_agg(o.usage_date::text, round(CASE WHEN o.display = $3 THEN o.spend ELSE o.spend * r.rate END, 24)::text)
                    FILTER (WHERE o.display = $3 OR r.rate IS NOT NULL), '{}') AS provider_days
    FROM own o
    LEFT JOIN provider_rates r ON r.display = o.display AND r.usage_date = o.usage_date
   GROUP BY o.customer_id
)
SELECT c.customer_id, c.customer_name, c.display AS currency, c.account AS billing_account_id,
       coalesce(d.days, '{}') AS days, coalesce(d.provider_days, '{}') AS provider_days,
       (SELECT count(*) FROM anomaly x WHERE x.customer_id = c.customer_id AND x.billing_account_id = c.account AND x.date = $4::date AND x.flagged)::int AS open_anomalies,
       (SELECT count(*) FROM alert_notice n WHERE n.customer_id = c.customer_id AND n.month = $5)::int AS alerts_over_quota,
       (SELECT x.usage_date::text FROM cost_daily x WHERE x.billing_account_id = c.account AND x.customer_id = c.customer_id
         ORDER BY x.usage_date DESC LIMIT 1) AS last_usage_date
  FROM c LEFT JOIN days d ON d.customer_id = c.customer_id
 ORDER BY c.customer_name, c.customer_id`;

interface Row {
  customer_id: string;
  customer_name: string;
  currency: string;
  billing_account_id: string | null;
  days: Record<string, string>;
  provider_days: Record<string, string>;
  open_anomalies: number;
  alerts_over_quota: number;
  last_usage_date: string | null;
}

/** Every customer's daily spend from `from` to `to`, with its open anomalies (of `anomalyDate`) and this month's alerts over quota. */
export async function customersSpendDays(
  pool: Pool,
  q: { from: string; to: string; providerCurrency: string; anomalyDate: string; month: string },
): Promise<CustomerSpendDays[]> {
  const rows = await queryWithoutJit<Row>(pool, SPEND_SQL, [q.from, q.to, q.providerCurrency, q.anomalyDate, q.month]);
  return rows.map(({ days, provider_days, ...r }) => ({ ...r, days: new Map(Object.entries(days)), providerDays: new Map(Object.entries(provider_days)) }));
}
