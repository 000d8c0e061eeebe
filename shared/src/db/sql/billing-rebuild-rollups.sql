-- Rebuilds cost_daily and cost_daily_label of one billing account for the given days from cost_line
-- (the caller has deleted those days' rollup rows first, in the same transaction).
-- $1 billing_account_id, $2 days (date[])
-- One statement fills both rollups from a single read of the lines; the GROUP BY keys are the rollups' primary keys.
WITH lines AS (
  SELECT * FROM cost_line WHERE billing_account_id = $1 AND usage_date = ANY($2::date[])
), daily AS (
  INSERT INTO cost_daily (customer_id, billing_account_id, usage_date, provider, provider_name, project_id, project_name,
    service, cost, credits, currency)
  -- a project renamed within a day keeps one row, with the latest-sorting name
  SELECT customer_id, billing_account_id, usage_date, provider, max(provider_name), project_id, max(project_name),
    service, sum(cost), sum(credits), currency
  FROM lines
  GROUP BY customer_id, billing_account_id, usage_date, provider, project_id, service, currency
)
INSERT INTO cost_daily_label (customer_id, billing_account_id, usage_date, provider, label_kind, label_key, label_value,
  project_id, cost, credits, currency)
SELECT l.customer_id, l.billing_account_id, l.usage_date, l.provider, kv.kind, kv.key, kv.value,
  l.project_id, sum(l.cost), sum(l.credits), l.currency
FROM lines l
CROSS JOIN LATERAL (
  SELECT 'project' AS kind, key, value FROM jsonb_each_text(l.project_labels)
  UNION ALL
  SELECT 'resource', key, value FROM jsonb_each_text(l.resource_labels)
) kv
GROUP BY l.customer_id, l.billing_account_id, l.usage_date, l.provider, kv.kind, kv.key, kv.value, l.project_id, l.currency
