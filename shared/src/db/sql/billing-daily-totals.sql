-- Spend per day over a range in the display currency, with the same filters and conversion as the chart cells.
-- $1 customer_id, $2 billing_account_id, $3 from, $4 to, $5 provider (NULL = all), $6 projects text[] (empty = all),
-- $7 viewer filters jsonb (NULL = unrestricted), $8 services text[] (empty = all), $9 display currency
-- $10 cost basis: 'billed' (cost + credits) or 'amortised' (plus amortisation, migration 075)
WITH r AS (
  SELECT * FROM fx_day_rates($9, $2, $3, $4)
), cells AS (
  -- display-currency rows as they are, the others at their day's rate (billing-service-cells.sql says why)
  SELECT d.usage_date, basis_spend($10, d.cost, d.credits, d.amortisation) AS spend
  FROM cost_daily d
  WHERE d.customer_id = $1 AND d.billing_account_id = $2 AND d.usage_date BETWEEN $3 AND $4 AND d.currency = $9
    AND ($5::text IS NULL OR d.provider = $5)
    AND (cardinality($6::text[]) = 0 OR d.project_id = ANY($6))
    AND (cardinality($8::text[]) = 0 OR d.service = ANY($8))
    AND ($7::jsonb IS NULL OR (d.usage_date, d.project_id) IN (SELECT usage_date, project_id FROM viewer_allowed_days($1, $2, $3, $4, $7)))
  UNION ALL
  SELECT d.usage_date, basis_spend($10, d.cost, d.credits, d.amortisation) * r.rate
  FROM cost_daily d
  JOIN r ON r.currency = d.currency AND r.day = d.usage_date
  WHERE d.customer_id = $1 AND d.billing_account_id = $2 AND d.usage_date BETWEEN $3 AND $4 AND (d.currency < $9 OR d.currency > $9)
    AND r.rate IS NOT NULL
    AND EXISTS (SELECT 1 FROM r) -- a one-time check: no other currency, no scan
    AND ($5::text IS NULL OR d.provider = $5)
    AND (cardinality($6::text[]) = 0 OR d.project_id = ANY($6))
    AND (cardinality($8::text[]) = 0 OR d.service = ANY($8))
    AND ($7::jsonb IS NULL OR (d.usage_date, d.project_id) IN (SELECT usage_date, project_id FROM viewer_allowed_days($1, $2, $3, $4, $7)))
)
SELECT to_char(c.usage_date, 'YYYY-MM-DD') AS day, sum(c.spend)::text AS spend
FROM cells c
GROUP BY c.usage_date
ORDER BY c.usage_date
