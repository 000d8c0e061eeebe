-- Spend per calendar month over whole months in the display currency, with the chart's filters: display-currency
-- rows from the monthly rollup, other currencies converted day by day from the daily rollup; for a viewer
-- (restriction per day and project) everything from the daily rollup.
-- $1 customer_id, $2 billing_account_id, $3 first month (yyyy-MM-01), $4 last month (yyyy-MM-01),
-- $5 provider (NULL = all), $6 projects text[] (empty = all), $7 viewer filters jsonb (NULL = unrestricted),
-- $8 services text[] (empty = all), $9 display currency
-- $10 cost basis: 'billed' (cost + credits) or 'amortised' (plus amortisation, migration 075)
WITH r AS (
  SELECT * FROM fx_day_rates($9, $2, $3::date, ($4::date + interval '1 month')::date - 1)
), cells AS (
  SELECT m.month, basis_spend($10, m.cost, m.credits, m.amortisation) AS spend
  FROM cost_monthly m
  WHERE $7::jsonb IS NULL AND m.currency = $9
    AND m.customer_id = $1 AND m.billing_account_id = $2 AND m.month BETWEEN $3 AND $4
    AND ($5::text IS NULL OR m.provider = $5)
    AND (cardinality($6::text[]) = 0 OR m.project_id = ANY($6))
    AND (cardinality($8::text[]) = 0 OR m.service = ANY($8))
  UNION ALL
  SELECT date_trunc('month', d.usage_date)::date, basis_spend($10, d.cost, d.credits, d.amortisation) * coalesce(r.rate, 1)
  FROM cost_daily d
  LEFT JOIN r ON r.currency = d.currency AND r.day = d.usage_date
  -- other currencies as two index ranges on (account, currency, day): <> would read every row (issue 19)
  WHERE ($7::jsonb IS NOT NULL OR d.currency < $9 OR d.currency > $9)
    AND (d.currency = $9 OR r.rate IS NOT NULL)
    AND d.customer_id = $1 AND d.billing_account_id = $2
    AND d.usage_date >= $3::date AND d.usage_date < $4::date + interval '1 month'
    AND ($5::text IS NULL OR d.provider = $5)
    AND (cardinality($6::text[]) = 0 OR d.project_id = ANY($6))
    AND (cardinality($8::text[]) = 0 OR d.service = ANY($8))
    AND ($7::jsonb IS NULL OR (d.usage_date, d.project_id) IN (
      SELECT usage_date, project_id FROM viewer_allowed_days($1, $2, $3, ($4::date + interval '1 month')::date - 1, $7)))
)
SELECT to_char(c.month, 'YYYY-MM') AS month, sum(c.spend)::text AS spend
FROM cells c
GROUP BY c.month
