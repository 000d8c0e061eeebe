-- Spend per (bucket, project, service) over a range, in the display currency (the spend alone: the chart draws
-- nothing else, and every other sum cost the aggregate as much again): each rollup row converted at the rate
-- of its own usage day (fx_day_rates); rows of a currency without a rate within 7 days are left out here (the
-- answer shows them apart, billing-currency-parts.sql).
-- /*ROLLUP*/ is where the display-currency rows come from: billing-rollup-daily.sql, or billing-rollup-monthly.sql
-- (whole months from the monthly rollup, :from a month's first day, unrestricted callers). Rows in another currency
-- are read day by day from the daily rollup either way (a month's rate changes every business day).
-- :customer, :account, :from … :to (days), :last_month (:to's month, the monthly rows), :provider (NULL = all),
-- :projects text[] (empty = all), :services text[] (empty = all), :viewer filters jsonb (NULL = unrestricted),
-- :granularity 'day' | 'month', :currency (display), :basis 'billed' (cost + credits) or 'amortised' (plus
-- amortisation, migration 075), :per_project (false: summed per (bucket, service), project id and name ''), :top the
-- chart's Top N (0: all; see cutoff), :none the chart's name for no service; rows in no particular order
WITH r AS (
  SELECT * FROM fx_day_rates(:currency, :account, :from::date, :to::date)
), display AS (
  /*ROLLUP*/
), cells AS NOT MATERIALIZED (
  -- Rows already in the display currency are taken as they are; only the others meet the rates, found by two index
  -- ranges on (account, currency, day) (a join of every row with the rates sorted them by currency text).
  SELECT x.bucket, x.project_id, x.project_name, x.service, x.spend FROM display x
  UNION ALL
  SELECT CASE WHEN :granularity = 'month' THEN date_trunc('month', d.usage_date::timestamp)::date ELSE d.usage_date END, d.project_id, d.project_name, d.service, basis_spend(:basis, d.cost, d.credits, d.amortisation) * r.rate
  FROM cost_daily d
  JOIN r ON r.currency = d.currency AND r.day = d.usage_date
  WHERE d.customer_id = :customer AND d.billing_account_id = :account AND d.usage_date BETWEEN :from AND :to AND (d.currency < :currency OR d.currency > :currency)
    AND r.rate IS NOT NULL
    AND EXISTS (SELECT 1 FROM r) -- a one-time check: no other currency, no scan
    AND (:provider::text IS NULL OR d.provider = :provider)
    AND (cardinality(:projects::text[]) = 0 OR d.project_id = ANY(:projects))
    AND (cardinality(:services::text[]) = 0 OR d.service = ANY(:services))
    AND (:viewer::jsonb IS NULL OR (d.usage_date, d.project_id) IN (SELECT usage_date, project_id FROM viewer_allowed_days(:customer, :account, :from, :to, :viewer)))
), out AS (
  -- the chart's cells, per project or summed per service (:per_project), each with the key the chart draws it under;
  -- buckets are dates until the end (a text bucket made the grouping sort by collation). One branch is planned away,
  -- so `cells` is read once, inline (NOT MATERIALIZED), and grouped once.
  SELECT c.bucket, c.project_id, max(c.project_name) AS project_name, c.service, sum(c.spend) AS spend,
    c.project_id || ' / ' || coalesce(nullif(c.service, ''), :none) AS key
  FROM cells c
  WHERE :per_project
  GROUP BY c.bucket, c.project_id, c.service
  UNION ALL
  SELECT c.bucket, '', '', c.service, sum(c.spend), coalesce(nullif(c.service, ''), :none)
  FROM cells c
  WHERE NOT :per_project
  GROUP BY c.bucket, c.service
), totals AS (
  SELECT key, sum(spend) AS total FROM out GROUP BY key
), cutoff AS (
  -- Top N (:top; 0: all): the N-th largest series total. A series below it cannot be one of the chart's N, so its
  -- cells are sent summed per bucket (folded) rather than one by one; the chart ranks the rest (ties included) itself.
  SELECT CASE WHEN :top > 0 THEN (SELECT total FROM totals ORDER BY total DESC OFFSET greatest(:top - 1, 0) LIMIT 1) END AS total
), kept AS (
  SELECT o.bucket, o.project_id, o.project_name, o.service, o.spend, (SELECT total FROM cutoff) IS NULL OR t.total >= (SELECT total FROM cutoff) AS keep
  FROM out o
  JOIN totals t USING (key)
)
SELECT CASE WHEN :granularity = 'month' THEN to_char(k.bucket, 'YYYY-MM') ELSE to_char(k.bucket, 'YYYY-MM-DD') END AS bucket,
  k.project_id, k.project_name, k.service, k.spend::text AS spend, false AS folded
FROM kept k
WHERE k.keep
UNION ALL
SELECT CASE WHEN :granularity = 'month' THEN to_char(k.bucket, 'YYYY-MM') ELSE to_char(k.bucket, 'YYYY-MM-DD') END, '', '', '', sum(k.spend)::text, true
FROM kept k
WHERE NOT k.keep
GROUP BY k.bucket
