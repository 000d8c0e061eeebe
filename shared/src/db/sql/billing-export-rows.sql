-- The Project-with-Service export's rows: per (bucket, project, service, original currency, rate) the original
-- spend, the rate with its fixing date and source, and the spend in the display currency (NULL: no rate within
-- 7 days, shown but never added). Display-currency rows have rate 1 and no fixing.
-- $1 customer_id, $2 billing_account_id, $3 from, $4 to, $5 provider (NULL = all), $6 projects text[] (empty = all),
-- $7 viewer filters jsonb (NULL = unrestricted), $8 'day' | 'month', $9 services text[] (empty = all),
-- $10 display currency
-- $11 cost basis: 'billed' (cost + credits) or 'amortised' (plus amortisation, migration 075)
WITH r AS (
  SELECT * FROM fx_day_rates($10, $2, $3, $4)
), cells AS (
  -- Display-currency rows grouped as they are; only the others meet the rates, found by two index ranges on
  -- (account, currency, day). Buckets are dates until the end (billing-service-cells.sql says why).
  SELECT CASE WHEN $8 = 'month' THEN date_trunc('month', d.usage_date)::date ELSE d.usage_date END AS bucket,
    d.project_id, max(d.project_name) AS project_name, d.service, d.currency,
    sum(basis_spend($11, d.cost, d.credits, d.amortisation)) AS original, NULL::numeric AS rate, NULL::date AS rate_date, NULL::text AS source
  FROM cost_daily d
  WHERE d.customer_id = $1 AND d.billing_account_id = $2 AND d.usage_date BETWEEN $3 AND $4 AND d.currency = $10
    AND ($5::text IS NULL OR d.provider = $5)
    AND (cardinality($6::text[]) = 0 OR d.project_id = ANY($6))
    AND (cardinality($9::text[]) = 0 OR d.service = ANY($9))
    AND ($7::jsonb IS NULL OR (d.usage_date, d.project_id) IN (SELECT usage_date, project_id FROM viewer_allowed_days($1, $2, $3, $4, $7)))
  GROUP BY 1, d.project_id, d.service, d.currency
  UNION ALL
  SELECT CASE WHEN $8 = 'month' THEN date_trunc('month', d.usage_date)::date ELSE d.usage_date END,
    d.project_id, max(d.project_name), d.service, d.currency,
    sum(basis_spend($11, d.cost, d.credits, d.amortisation)), r.rate, r.rate_date, r.source
  FROM cost_daily d
  LEFT JOIN r ON r.currency = d.currency AND r.day = d.usage_date
  WHERE d.customer_id = $1 AND d.billing_account_id = $2 AND d.usage_date BETWEEN $3 AND $4 AND (d.currency < $10 OR d.currency > $10)
    AND ($5::text IS NULL OR d.provider = $5)
    AND (cardinality($6::text[]) = 0 OR d.project_id = ANY($6))
    AND (cardinality($9::text[]) = 0 OR d.service = ANY($9))
    AND ($7::jsonb IS NULL OR (d.usage_date, d.project_id) IN (SELECT usage_date, project_id FROM viewer_allowed_days($1, $2, $3, $4, $7)))
  GROUP BY 1, d.project_id, d.service, d.currency, r.rate, r.rate_date, r.source
)
SELECT CASE WHEN $8 = 'month' THEN to_char(c.bucket, 'YYYY-MM') ELSE to_char(c.bucket, 'YYYY-MM-DD') END AS bucket,
  c.project_id, c.project_name, c.service, c.currency, c.original::text AS original,
  CASE WHEN c.currency = $10 THEN '1' ELSE c.rate::text END AS rate,
  to_char(c.rate_date, 'YYYY-MM-DD') AS rate_date, c.source,
  -- a sum times its one rate: exactly the sum of each day's amount times that rate
  CASE WHEN c.currency = $10 THEN c.original ELSE c.original * c.rate END::text AS spend
FROM cells c
ORDER BY c.bucket, c.project_id, c.service, c.currency, c.rate_date NULLS FIRST
