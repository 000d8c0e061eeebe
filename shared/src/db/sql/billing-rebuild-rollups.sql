-- Fills cost_daily and cost_daily_label from a set of cost lines (the caller has deleted the rollup rows those lines
-- make up, in the same transaction). The lines placeholder is spliced in by billing-ingest/rollups.ts (`ROLLUP_LINES`):
-- the account's cost lines of the given days (and providers). The slices of a file that keep lines of earlier batches
-- take this path; the others, and a windowed source's, are summed in the worker while the rows load
-- (workers/src/billing-ingest/rollup-sums.ts, the same grouping).
-- One statement fills both rollups from a single read of the lines; the GROUP BY keys are the rollups' primary keys.
-- Label rows are first summed per distinct label set (lines of a project share its project labels, and resource
-- label sets repeat across SKUs), so the costly expansion into key/value pairs runs on far fewer rows. Sums of sums
-- of numeric are exact.
WITH lines AS (
  /*LINES*/
), daily AS (
  INSERT INTO cost_daily (customer_id, billing_account_id, usage_date, provider, provider_name, project_id, project_name,
    service, cost, credits, currency, amortisation)
  -- a project renamed within a day keeps one row, with the latest-sorting name
  SELECT customer_id, billing_account_id, usage_date, provider, max(provider_name), project_id, max(project_name),
    service, sum(cost), sum(credits), currency, sum(amortisation)
  FROM lines
  GROUP BY customer_id, billing_account_id, usage_date, provider, project_id, service, currency
), label_sets AS (
  SELECT customer_id, billing_account_id, usage_date, provider, project_id, currency,
    'project' AS kind, project_labels AS labels, sum(cost) AS cost, sum(credits) AS credits, sum(amortisation) AS amortisation
  FROM lines WHERE project_labels <> '{}'
  GROUP BY customer_id, billing_account_id, usage_date, provider, project_id, currency, project_labels
  UNION ALL
  SELECT customer_id, billing_account_id, usage_date, provider, project_id, currency,
    'resource', resource_labels, sum(cost), sum(credits), sum(amortisation)
  FROM lines WHERE resource_labels <> '{}'
  GROUP BY customer_id, billing_account_id, usage_date, provider, project_id, currency, resource_labels
)
INSERT INTO cost_daily_label (customer_id, billing_account_id, usage_date, provider, label_kind, label_key, label_value,
  project_id, cost, credits, currency, amortisation)
SELECT s.customer_id, s.billing_account_id, s.usage_date, s.provider, s.kind, kv.key, kv.value,
  s.project_id, sum(s.cost), sum(s.credits), s.currency, sum(s.amortisation)
FROM label_sets s
CROSS JOIN LATERAL jsonb_each_text(s.labels) kv
GROUP BY s.customer_id, s.billing_account_id, s.usage_date, s.provider, s.kind, kv.key, kv.value, s.project_id, s.currency
