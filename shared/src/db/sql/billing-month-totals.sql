-- Spend per calendar month over whole months in the display currency, with the chart's filters: display-currency
-- rows from the monthly rollup, other currencies converted day by day from the daily rollup; for a viewer
-- (restriction per day and project) everything from the daily rollup.
-- :customer, :account, :from … :to (the first and last months' first days), :provider (NULL = all), :projects text[] (empty = all), :viewer filters jsonb
-- (NULL = unrestricted), :services text[] (empty = all), :currency (display), :basis 'billed' (cost + credits) or
-- 'amortised' (plus amortisation, migration 075)
WITH r AS (
  SELECT * FROM fx_day_rates(:currency, :account, :from::date, (:to::date + interval '1 month')::date - 1)
), cells AS (
  SELECT m.month, basis_spend(:basis, m.cost, m.credits, m.amortisation) AS spend
  FROM cost_monthly m
  WHERE :viewer::jsonb IS NULL AND m.currency = :currency
    AND m.customer_id = :customer AND m.billing_account_id = :account AND m.month BETWEEN :from AND :to
    AND (:provider::text IS NULL OR m.provider = :provider)
    AND (cardinality(:projects::text[]) = 0 OR m.project_id = ANY(:projects))
    AND (cardinality(:services::text[]) = 0 OR m.service = ANY(:services))
  UNION ALL
  SELECT date_trunc('month', d.usage_date)::date, basis_spend(:basis, d.cost, d.credits, d.amortisation) * coalesce(r.rate, 1)
  FROM cost_daily d
  LEFT JOIN r ON r.currency = d.currency AND r.day = d.usage_date
  -- other currencies as two index ranges on (account, currency, day): <> would read every row
  WHERE (:viewer::jsonb IS NOT NULL OR d.currency < :currency OR d.currency > :currency)
    AND (d.currency = :currency OR r.rate IS NOT NULL)
    AND d.customer_id = :customer AND d.billing_account_id = :account
    AND d.usage_date >= :from::date AND d.usage_date < :to::date + interval '1 month'
    AND (:provider::text IS NULL OR d.provider = :provider)
    AND (cardinality(:projects::text[]) = 0 OR d.project_id = ANY(:projects))
    AND (cardinality(:services::text[]) = 0 OR d.service = ANY(:services))
    AND (:viewer::jsonb IS NULL OR (d.usage_date, d.project_id) IN (
      SELECT usage_date, project_id FROM viewer_allowed_days(:customer, :account, :from, (:to::date + interval '1 month')::date - 1, :viewer)))
)
SELECT to_char(c.month, 'YYYY-MM') AS month, sum(c.spend)::text AS spend
FROM cells c
GROUP BY c.month
