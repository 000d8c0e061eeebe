-- The Project-with-Service export's rows: per (bucket, project, service, original currency, rate) the original
-- spend, the rate with its fixing date and source, and the spend in the display currency (NULL: no rate within
-- 7 days, shown but never added). Display-currency rows have rate 1 and no fixing.
-- $1 customer_id, $2 billing_account_id, $3 from, $4 to, $5 provider (NULL = all), $6 projects text[] (empty = all),
-- $7 viewer filters jsonb (NULL = unrestricted), $8 'day' | 'month', $9 services text[] (empty = all),
-- $10 display currency
-- $11 cost basis: 'billed' (cost + credits) or 'amortised' (plus amortisation, migration 075)
SELECT CASE WHEN $8 = 'month' THEN to_char(d.usage_date, 'YYYY-MM') ELSE to_char(d.usage_date, 'YYYY-MM-DD') END AS bucket,
  d.project_id, max(d.project_name) AS project_name, d.service, d.currency,
  sum(basis_spend($11, d.cost, d.credits, d.amortisation))::text AS original,
  CASE WHEN d.currency = $10 THEN '1' ELSE r.rate::text END AS rate,
  to_char(r.rate_date, 'YYYY-MM-DD') AS rate_date, r.source,
  CASE WHEN d.currency = $10 THEN sum(basis_spend($11, d.cost, d.credits, d.amortisation)) ELSE sum(basis_spend($11, d.cost, d.credits, d.amortisation) * r.rate) END::text AS spend
FROM cost_daily d
LEFT JOIN fx_day_rates($10, $2, $3, $4) r ON r.currency = d.currency AND r.day = d.usage_date
WHERE d.customer_id = $1 AND d.billing_account_id = $2 AND d.usage_date BETWEEN $3 AND $4
  AND ($5::text IS NULL OR d.provider = $5)
  AND (cardinality($6::text[]) = 0 OR d.project_id = ANY($6))
  AND (cardinality($9::text[]) = 0 OR d.service = ANY($9))
  AND ($7::jsonb IS NULL OR (d.usage_date, d.project_id) IN (SELECT usage_date, project_id FROM viewer_allowed_days($1, $2, $3, $4, $7)))
GROUP BY 1, d.project_id, d.service, d.currency, r.rate, r.rate_date, r.source
ORDER BY 1, d.project_id, d.service, d.currency, r.rate_date NULLS FIRST
