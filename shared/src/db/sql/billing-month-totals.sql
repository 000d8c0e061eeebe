-- Spend per calendar month over whole months, with the chart's filters: from the monthly rollup, or, for a viewer
-- (restriction per day and project), from the daily rollup.
-- $1 customer_id, $2 billing_account_id, $3 first month (yyyy-MM-01), $4 last month (yyyy-MM-01),
-- $5 provider (NULL = all), $6 projects text[] (empty = all), $7 viewer filters jsonb (NULL = unrestricted),
-- $8 services text[] (empty = all)
SELECT to_char(m.month, 'YYYY-MM') AS month, sum(m.cost + m.credits)::text AS spend
FROM cost_monthly m
WHERE $7::jsonb IS NULL
  AND m.customer_id = $1 AND m.billing_account_id = $2 AND m.month BETWEEN $3 AND $4
  AND ($5::text IS NULL OR m.provider = $5)
  AND (cardinality($6::text[]) = 0 OR m.project_id = ANY($6))
  AND (cardinality($8::text[]) = 0 OR m.service = ANY($8))
GROUP BY m.month
UNION ALL
SELECT to_char(date_trunc('month', d.usage_date), 'YYYY-MM'), sum(d.cost + d.credits)::text
FROM cost_daily d
WHERE $7::jsonb IS NOT NULL
  AND d.customer_id = $1 AND d.billing_account_id = $2
  AND d.usage_date >= $3::date AND d.usage_date < $4::date + interval '1 month'
  AND ($5::text IS NULL OR d.provider = $5)
  AND (cardinality($6::text[]) = 0 OR d.project_id = ANY($6))
  AND (cardinality($8::text[]) = 0 OR d.service = ANY($8))
  AND (d.usage_date, d.project_id) IN (
    SELECT usage_date, project_id FROM viewer_allowed_days($1, $2, $3, ($4::date + interval '1 month')::date - 1, $7))
GROUP BY date_trunc('month', d.usage_date)
