-- The rows of billing-export-rows.sql by month, for whole months only and callers without a viewer restriction (the
-- restriction is per day and project, which only the daily rollup can apply). Rows already in the display currency
-- come from the monthly rollup (rate 1, no fixing: one row per month, project and service, ~30× fewer rows to read
-- than the daily ones); rows in another currency are read day by day from the daily rollup, through its (account,
-- currency, day) index, each with its day's rate, and grouped by the rate as the daily export groups them.
-- $1 customer_id, $2 billing_account_id, $3 first month (yyyy-MM-01), $4 last month (yyyy-MM-01),
-- $5 provider (NULL = all), $6 projects text[] (empty = all), $7 services text[] (empty = all), $8 display currency
-- $9 cost basis: 'billed' (cost + credits) or 'amortised' (plus amortisation, migration 075)
SELECT to_char(m.month, 'YYYY-MM') AS bucket, m.project_id, max(m.project_name) AS project_name, m.service, m.currency,
  sum(basis_spend($9, m.cost, m.credits, m.amortisation))::text AS original,
  '1' AS rate, NULL::text AS rate_date, NULL::text AS source,
  sum(basis_spend($9, m.cost, m.credits, m.amortisation))::text AS spend
FROM cost_monthly m
WHERE m.customer_id = $1 AND m.billing_account_id = $2 AND m.month BETWEEN $3 AND $4 AND m.currency = $8
  AND ($5::text IS NULL OR m.provider = $5)
  AND (cardinality($6::text[]) = 0 OR m.project_id = ANY($6))
  AND (cardinality($7::text[]) = 0 OR m.service = ANY($7))
GROUP BY m.month, m.project_id, m.service, m.currency
UNION ALL
SELECT to_char(date_trunc('month', d.usage_date), 'YYYY-MM'), d.project_id, max(d.project_name), d.service, d.currency,
  sum(basis_spend($9, d.cost, d.credits, d.amortisation))::text,
  r.rate::text, to_char(r.rate_date, 'YYYY-MM-DD'), r.source,
  sum(basis_spend($9, d.cost, d.credits, d.amortisation) * r.rate)::text
FROM cost_daily d
LEFT JOIN fx_day_rates($8, $2, $3::date, ($4::date + interval '1 month')::date - 1) r ON r.currency = d.currency AND r.day = d.usage_date
WHERE d.customer_id = $1 AND d.billing_account_id = $2 AND (d.currency < $8 OR d.currency > $8)
  AND d.usage_date >= $3::date AND d.usage_date < $4::date + interval '1 month'
  AND ($5::text IS NULL OR d.provider = $5)
  AND (cardinality($6::text[]) = 0 OR d.project_id = ANY($6))
  AND (cardinality($7::text[]) = 0 OR d.service = ANY($7))
GROUP BY date_trunc('month', d.usage_date), d.project_id, d.service, d.currency, r.rate, r.rate_date, r.source
ORDER BY 1, 2, 4, 5, 8 NULLS FIRST
