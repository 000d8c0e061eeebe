-- Spend per (month, project, service) from the monthly rollup, for whole months only (callers without a viewer
-- restriction; the restriction is per day and project, which only the daily rollup can apply).
-- $1 customer_id, $2 billing_account_id, $3 first month (yyyy-MM-01), $4 last month (yyyy-MM-01),
-- $5 provider (NULL = all), $6 projects text[] (empty = all), $7 services text[] (empty = all)
SELECT to_char(m.month, 'YYYY-MM') AS bucket, m.project_id, max(m.project_name) AS project_name, m.service,
  sum(m.cost)::text AS cost, sum(m.credits)::text AS credits, sum(m.cost + m.credits)::text AS spend
FROM cost_monthly m
WHERE m.customer_id = $1 AND m.billing_account_id = $2 AND m.month BETWEEN $3 AND $4
  AND ($5::text IS NULL OR m.provider = $5)
  AND (cardinality($6::text[]) = 0 OR m.project_id = ANY($6))
  AND (cardinality($7::text[]) = 0 OR m.service = ANY($7))
GROUP BY m.month, m.project_id, m.service
ORDER BY m.month, m.project_id, m.service
