-- The rows of billing-rollup-daily.sql by month, for callers without a viewer restriction (the restriction is per
-- day and project, which only the daily rollup can apply): the months :from … :last_month from cost_monthly (~30×
-- fewer rows than the daily rollup), bucket and `day` the month's first day. The last month up to its day :to comes from the
-- monthly rollup too when none of its days after :to has spend (a range ending yesterday: the month so far is the
-- whole month), decided in this statement's snapshot, else its days up to :to from the daily rollup.
WITH tail AS (
  -- whether the last month's monthly rows are its days up to :to: no later day of it has spend (any provider)
  SELECT NOT EXISTS (
    SELECT 1 FROM cost_daily x
    WHERE x.billing_account_id = :account AND x.usage_date > :to::date AND x.usage_date < :last_month::date + interval '1 month' AND x.customer_id = :customer
  ) AS whole
)
SELECT m.month AS bucket, m.month AS day, m.project_id, m.project_name, m.service, basis_spend(:basis, m.cost, m.credits, m.amortisation) AS spend
FROM cost_monthly m
WHERE m.customer_id = :customer AND m.billing_account_id = :account AND m.month BETWEEN :from AND :last_month AND m.currency = :currency
  AND (m.month < :last_month OR (SELECT whole FROM tail))
  AND (:provider::text IS NULL OR m.provider = :provider)
  AND (cardinality(:projects::text[]) = 0 OR m.project_id = ANY(:projects))
  AND (cardinality(:services::text[]) = 0 OR m.service = ANY(:services))
UNION ALL
SELECT :last_month::date, d.usage_date, d.project_id, d.project_name, d.service, basis_spend(:basis, d.cost, d.credits, d.amortisation)
FROM cost_daily d
WHERE NOT (SELECT whole FROM tail)
  AND d.customer_id = :customer AND d.billing_account_id = :account AND d.currency = :currency AND d.usage_date BETWEEN :last_month AND :to
  AND (:provider::text IS NULL OR d.provider = :provider)
  AND (cardinality(:projects::text[]) = 0 OR d.project_id = ANY(:projects))
  AND (cardinality(:services::text[]) = 0 OR d.service = ANY(:services))
