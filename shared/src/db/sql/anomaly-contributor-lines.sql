-- The cost lines of the flagged anomalies' series over the window, summed per side of the baseline and SKU x resource x
-- label set (the baseline's days fold into one row each): what anomaly-contributors.sql expands into its dimensions.
-- Reading the account's lines of the window is most of the contributors' time, so this is a plain SELECT that
-- PostgreSQL can read with parallel workers (storeContributors runs it as CREATE TEMP TABLE anomaly_lines AS): an
-- INSERT … SELECT never gets a parallel plan, and workers cannot read temp tables, so the targets (anomaly_targets) come
-- as arrays, joined where the lines are read; the rates (anomaly_rates, a temp table) are joined above, on the few lines
-- kept.
-- $1 judged day (date), $2 window days (int), $3…$10 the targets' columns, one array element per flagged anomaly;
-- $11 and $12 their distinct billing accounts and projects.
SELECT t.anomaly_id, l.usage_date = $1::date AS on_day, l.sku, l.resource_id, l.resource_labels,
       sum(basis_spend(t.basis, l.cost, l.credits, l.amortisation) * coalesce(r.rate, 1)) AS spend,
       sum(l.cost * coalesce(r.rate, 1)) AS cost, sum(l.credits * coalesce(r.rate, 1)) AS credits, sum(l.amortisation * coalesce(r.rate, 1)) AS amortisation,
       -- a quantity only where every line that costs something carries one (a credit line has none): a partial sum
       -- would read as a usage change
       sum(l.usage_quantity) AS quantity, bool_and(l.usage_quantity IS NOT NULL OR l.cost = 0) AS quantified
  FROM cost_line l
  JOIN unnest($3::bigint[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::date[], $10::text[])
       AS t(anomaly_id, customer_id, billing_account_id, project_id, service, display, first_seen, basis)
    ON t.billing_account_id = l.billing_account_id AND t.customer_id = l.customer_id
   AND t.project_id = l.project_id AND t.service = l.service
  LEFT JOIN anomaly_rates r ON r.billing_account_id = l.billing_account_id AND r.display = t.display AND r.currency = l.currency AND r.day = l.usage_date
 WHERE l.usage_date >= $1::date - $2::int AND l.usage_date <= $1::date
   -- checked on each line as it is read, before the join: most lines are not a flagged series' (and the columns
   -- after project_id are not read for them)
   AND l.billing_account_id = ANY($11::text[]) AND l.project_id = ANY($12::text[])
   AND l.usage_date >= t.first_seen
   AND (l.currency = t.display OR r.rate IS NOT NULL)
 GROUP BY t.anomaly_id, l.usage_date = $1::date, l.sku, l.resource_id, l.resource_labels
