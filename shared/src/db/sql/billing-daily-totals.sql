-- Spend per day over a range in the display currency, with the same filters and conversion as the chart cells.
-- :customer, :account, :from … :to, :provider (NULL = all), :projects text[] (empty = all), :viewer filters jsonb
-- (NULL = unrestricted), :services text[] (empty = all), :currency (display), :basis 'billed' (cost + credits) or
-- 'amortised' (plus amortisation, migration 075)
WITH r AS (
  SELECT * FROM fx_day_rates(:currency, :account, :from, :to)
), cells AS (
  -- display-currency rows as they are, the others at their day's rate (billing-service-cells.sql says why)
  SELECT d.usage_date, basis_spend(:basis, d.cost, d.credits, d.amortisation) AS spend
  FROM cost_daily d
  WHERE d.customer_id = :customer AND d.billing_account_id = :account AND d.usage_date BETWEEN :from AND :to AND d.currency = :currency
    AND (:provider::text IS NULL OR d.provider = :provider)
    AND (cardinality(:projects::text[]) = 0 OR d.project_id = ANY(:projects))
    AND (cardinality(:services::text[]) = 0 OR d.service = ANY(:services))
    AND (:viewer::jsonb IS NULL OR (d.usage_date, d.project_id) IN (SELECT usage_date, project_id FROM viewer_allowed_days(:customer, :account, :from, :to, :viewer)))
  UNION ALL
  SELECT d.usage_date, basis_spend(:basis, d.cost, d.credits, d.amortisation) * r.rate
  FROM cost_daily d
  JOIN r ON r.currency = d.currency AND r.day = d.usage_date
  WHERE d.customer_id = :customer AND d.billing_account_id = :account AND d.usage_date BETWEEN :from AND :to AND (d.currency < :currency OR d.currency > :currency)
    AND r.rate IS NOT NULL
    AND EXISTS (SELECT 1 FROM r) -- a one-time check: no other currency, no scan
    AND (:provider::text IS NULL OR d.provider = :provider)
    AND (cardinality(:projects::text[]) = 0 OR d.project_id = ANY(:projects))
    AND (cardinality(:services::text[]) = 0 OR d.service = ANY(:services))
    AND (:viewer::jsonb IS NULL OR (d.usage_date, d.project_id) IN (SELECT usage_date, project_id FROM viewer_allowed_days(:customer, :account, :from, :to, :viewer)))
)
SELECT to_char(c.usage_date, 'YYYY-MM-DD') AS day, sum(c.spend)::text AS spend
FROM cells c
GROUP BY c.usage_date
ORDER BY c.usage_date
