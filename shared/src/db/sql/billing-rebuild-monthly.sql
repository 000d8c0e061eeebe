-- Rebuilds cost_monthly of one billing account for the months of the given days from cost_daily (which the caller
-- has just rebuilt for those days, in the same transaction).
-- $1 billing_account_id, $2 days (date[]); the caller has deleted those months' cost_monthly rows first.
WITH months AS (
  SELECT DISTINCT date_trunc('month', d)::date AS month FROM unnest($2::date[]) AS d
)
INSERT INTO cost_monthly (customer_id, billing_account_id, month, provider, provider_name, project_id, project_name,
  service, cost, credits, currency, amortisation)
SELECT d.customer_id, d.billing_account_id, date_trunc('month', d.usage_date)::date, d.provider, max(d.provider_name),
  d.project_id, max(d.project_name), d.service, sum(d.cost), sum(d.credits), d.currency, sum(d.amortisation)
FROM cost_daily d
WHERE d.billing_account_id = $1
  AND d.usage_date >= (SELECT min(month) FROM months)
  AND d.usage_date < (SELECT max(month) FROM months) + interval '1 month'
  AND date_trunc('month', d.usage_date)::date IN (SELECT month FROM months)
GROUP BY d.customer_id, d.billing_account_id, date_trunc('month', d.usage_date)::date, d.provider, d.project_id, d.service, d.currency
