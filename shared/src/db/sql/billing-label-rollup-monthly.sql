-- The rows of billing-label-rollup-daily.sql by month from cost_monthly_label, the last month as
-- billing-rollup-monthly.sql takes it (from the monthly rollup when whole, else its days up to :to); unrestricted
-- callers only.
WITH tail AS (
  SELECT NOT EXISTS (
    SELECT 1 FROM cost_daily x
    WHERE x.billing_account_id = :account AND x.usage_date > :to::date AND x.usage_date < :last_month::date + interval '1 month' AND x.customer_id = :customer
  ) AS whole
)
SELECT m.month AS bucket, m.project_id, m.label_value, basis_spend(:basis, m.cost, m.credits, m.amortisation) AS spend
FROM cost_monthly_label m
WHERE m.billing_account_id = :account AND m.label_kind = :label_kind AND m.label_key = :label_key AND m.month BETWEEN :from AND :last_month
  AND m.customer_id = :customer AND m.currency = :currency
  AND (m.month < :last_month OR (SELECT whole FROM tail))
  AND (:provider::text IS NULL OR m.provider = :provider)
  AND (cardinality(:projects::text[]) = 0 OR m.project_id = ANY(:projects))
UNION ALL
SELECT :last_month::date, l.project_id, l.label_value, basis_spend(:basis, l.cost, l.credits, l.amortisation)
FROM cost_daily_label l
WHERE NOT (SELECT whole FROM tail)
  AND l.customer_id = :customer AND l.billing_account_id = :account AND l.usage_date BETWEEN :last_month AND :to AND l.currency = :currency
  AND l.label_kind = :label_kind AND l.label_key = :label_key
  AND (:provider::text IS NULL OR l.provider = :provider)
  AND (cardinality(:projects::text[]) = 0 OR l.project_id = ANY(:projects))
