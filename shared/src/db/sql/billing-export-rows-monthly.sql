-- The rows of billing-export-rows.sql by month, over the months $3..$4 up to the day $10 of the last one, for callers
-- without a viewer restriction (the restriction is per day and project, which only the daily rollup can apply). Rows
-- already in the display currency come from the monthly rollup (rate 1, no fixing: one row per month, project and
-- service, ~30× fewer rows to read than the daily ones); the last month's too when none of its days after $10 has
-- spend (a range ending yesterday: the month so far is the whole month), decided in this statement's snapshot, else
-- its days up to $10 from the daily rollup. Rows in another currency are read day by day from the daily rollup,
-- through its (account, currency, day) index, each with its day's rate, and grouped by the rate as the daily export
-- groups them.
-- $1 customer_id, $2 billing_account_id, $3 first month (yyyy-MM-01), $4 last month (yyyy-MM-01),
-- $5 provider (NULL = all), $6 projects text[] (empty = all), $7 services text[] (empty = all), $8 display currency
-- $9 cost basis: 'billed' (cost + credits) or 'amortised' (plus amortisation, migration 075), $10 last day (in $4's month)
WITH tail AS (
  -- whether the last month's monthly rows are its days up to $10: no later day of it has spend (any provider)
  SELECT NOT EXISTS (
    SELECT 1 FROM cost_daily x
    WHERE x.billing_account_id = $2 AND x.usage_date > $10::date AND x.usage_date < $4::date + interval '1 month' AND x.customer_id = $1
  ) AS whole
), display AS (
  SELECT m.month, m.project_id, m.project_name, m.service, m.currency, basis_spend($9, m.cost, m.credits, m.amortisation) AS spend
  FROM cost_monthly m
  WHERE m.customer_id = $1 AND m.billing_account_id = $2 AND m.month BETWEEN $3 AND $4 AND m.currency = $8
    AND (m.month < $4 OR (SELECT whole FROM tail))
    AND ($5::text IS NULL OR m.provider = $5)
    AND (cardinality($6::text[]) = 0 OR m.project_id = ANY($6))
    AND (cardinality($7::text[]) = 0 OR m.service = ANY($7))
  UNION ALL
  SELECT $4::date, d.project_id, d.project_name, d.service, d.currency, basis_spend($9, d.cost, d.credits, d.amortisation)
  FROM cost_daily d
  WHERE NOT (SELECT whole FROM tail)
    AND d.customer_id = $1 AND d.billing_account_id = $2 AND d.currency = $8 AND d.usage_date BETWEEN $4 AND $10
    AND ($5::text IS NULL OR d.provider = $5)
    AND (cardinality($6::text[]) = 0 OR d.project_id = ANY($6))
    AND (cardinality($7::text[]) = 0 OR d.service = ANY($7))
)
SELECT to_char(x.month, 'YYYY-MM') AS bucket, x.project_id, max(x.project_name) AS project_name, x.service, x.currency,
  sum(x.spend)::text AS original,
  '1' AS rate, NULL::text AS rate_date, NULL::text AS source,
  sum(x.spend)::text AS spend
FROM display x
GROUP BY x.month, x.project_id, x.service, x.currency
UNION ALL
SELECT to_char(date_trunc('month', d.usage_date), 'YYYY-MM'), d.project_id, max(d.project_name), d.service, d.currency,
  sum(basis_spend($9, d.cost, d.credits, d.amortisation))::text,
  r.rate::text, to_char(r.rate_date, 'YYYY-MM-DD'), r.source,
  sum(basis_spend($9, d.cost, d.credits, d.amortisation) * r.rate)::text
FROM cost_daily d
LEFT JOIN fx_day_rates($8, $2, $3::date, $10::date) r ON r.currency = d.currency AND r.day = d.usage_date
WHERE d.customer_id = $1 AND d.billing_account_id = $2 AND (d.currency < $8 OR d.currency > $8)
  AND d.usage_date BETWEEN $3 AND $10
  AND ($5::text IS NULL OR d.provider = $5)
  AND (cardinality($6::text[]) = 0 OR d.project_id = ANY($6))
  AND (cardinality($7::text[]) = 0 OR d.service = ANY($7))
GROUP BY date_trunc('month', d.usage_date), d.project_id, d.service, d.currency, r.rate, r.rate_date, r.source
ORDER BY 1, 2, 4, 5, 8 NULLS FIRST
