-- Rebuilds cost_monthly_label of one billing account for the months of the given days from cost_daily_label (which
-- the caller has just rebuilt for those days, in the same transaction), as billing-rebuild-monthly.sql does for
-- cost_monthly. $1 billing_account_id, $2 days (date[]); the caller has deleted those months' rows first.
WITH months AS (
  SELECT DISTINCT date_trunc('month', d)::date AS month FROM unnest($2::date[]) AS d
)
INSERT INTO cost_monthly_label (customer_id, billing_account_id, month, provider, label_kind, label_key, label_value,
  project_id, cost, credits, currency, amortisation)
SELECT l.customer_id, l.billing_account_id, date_trunc('month', l.usage_date)::date, l.provider, l.label_kind, l.label_key,
  l.label_value, l.project_id, sum(l.cost), sum(l.credits), l.currency, sum(l.amortisation)
FROM cost_daily_label l
WHERE l.billing_account_id = $1
  AND l.usage_date >= (SELECT min(month) FROM months)
  AND l.usage_date < (SELECT max(month) FROM months) + interval '1 month'
  AND date_trunc('month', l.usage_date)::date IN (SELECT month FROM months)
GROUP BY l.customer_id, l.billing_account_id, date_trunc('month', l.usage_date)::date, l.provider, l.label_kind, l.label_key,
  l.label_value, l.project_id, l.currency
