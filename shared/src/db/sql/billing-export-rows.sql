-- The Project-with-Service export's rows: per (bucket, project, service, original currency, rate) the original
-- spend, the rate with its fixing date and source, and the spend in the display currency (NULL: no rate within
-- 7 days, shown but never added). Display-currency rows have rate 1 and no fixing.
-- /*ROLLUP*/: the display-currency rows, daily or monthly (billing-service-cells.sql says how); rows in another
-- currency are read day by day from the daily rollup, each with its day's rate, and grouped by the rate.
-- Parameters as billing-service-cells.sql (no :per_project, :top, :none).
WITH r AS (
  SELECT * FROM fx_day_rates(:currency, :account, :from::date, :to::date)
), display AS (
  /*ROLLUP*/
), cells AS (
  -- Display-currency rows grouped as they are; only the others meet the rates, found by two index ranges on
  -- (account, currency, day). Buckets are dates until the end (billing-service-cells.sql says why).
  SELECT x.bucket, x.project_id, max(x.project_name) AS project_name, x.service, :currency::text AS currency,
    sum(x.spend) AS original, NULL::numeric AS rate, NULL::date AS rate_date, NULL::text AS source
  FROM display x
  GROUP BY x.bucket, x.project_id, x.service
  UNION ALL
  SELECT CASE WHEN :granularity = 'month' THEN date_trunc('month', d.usage_date::timestamp)::date ELSE d.usage_date END,
    d.project_id, max(d.project_name), d.service, d.currency,
    sum(basis_spend(:basis, d.cost, d.credits, d.amortisation)), r.rate, r.rate_date, r.source
  FROM cost_daily d
  LEFT JOIN r ON r.currency = d.currency AND r.day = d.usage_date
  WHERE d.customer_id = :customer AND d.billing_account_id = :account AND d.usage_date BETWEEN :from AND :to AND (d.currency < :currency OR d.currency > :currency)
    AND (:provider::text IS NULL OR d.provider = :provider)
    AND (cardinality(:projects::text[]) = 0 OR d.project_id = ANY(:projects))
    AND (cardinality(:services::text[]) = 0 OR d.service = ANY(:services))
    AND (:viewer::jsonb IS NULL OR (d.usage_date, d.project_id) IN (SELECT usage_date, project_id FROM viewer_allowed_days(:customer, :account, :from, :to, :viewer)))
  GROUP BY 1, d.project_id, d.service, d.currency, r.rate, r.rate_date, r.source
)
SELECT CASE WHEN :granularity = 'month' THEN to_char(c.bucket, 'YYYY-MM') ELSE to_char(c.bucket, 'YYYY-MM-DD') END AS bucket,
  c.project_id, c.project_name, c.service, c.currency, c.original::text AS original,
  CASE WHEN c.currency = :currency THEN '1' ELSE c.rate::text END AS rate,
  to_char(c.rate_date, 'YYYY-MM-DD') AS rate_date, c.source,
  -- a sum times its one rate: exactly the sum of each day's amount times that rate
  CASE WHEN c.currency = :currency THEN c.original ELSE c.original * c.rate END::text AS spend
FROM cells c
ORDER BY c.bucket, c.project_id, c.service, c.currency, c.rate_date NULLS FIRST
