-- Spend per (bucket, project, service) over a range, in the display currency (the spend alone: the chart draws
-- nothing else, and every other sum cost the aggregate as much again): each rollup row converted at the rate
-- of its own usage day (fx_day_rates); rows of a currency without a rate within 7 days are left out here (the
-- answer shows them apart, billing-currency-parts.sql).
-- $1 customer_id, $2 billing_account_id, $3 from, $4 to, $5 provider (NULL = all), $6 projects text[] (empty = all),
-- $7 viewer filters jsonb (NULL = unrestricted), $8 'day' | 'month', $9 services text[] (empty = all),
-- $10 display currency
-- $11 cost basis: 'billed' (cost + credits) or 'amortised' (plus amortisation, migration 075)
-- $12 per project (false: summed per (bucket, service), project id and name ''), $13 the chart's Top N (0: all; see
-- cutoff), $14 the chart's name for no service; rows in no particular order
WITH r AS (
  SELECT * FROM fx_day_rates($10, $2, $3, $4)
), cells AS (
  -- Rows already in the display currency are taken as they are; only the others meet the rates, found by two index
  -- ranges on (account, currency, day) (as billing-label-cells.sql; a join of every row with the rates sorted them
  -- by currency text: issue 19).
  SELECT d.usage_date, d.project_id, d.project_name, d.service, basis_spend($11, d.cost, d.credits, d.amortisation) AS spend
  FROM cost_daily d
  WHERE d.customer_id = $1 AND d.billing_account_id = $2 AND d.usage_date BETWEEN $3 AND $4 AND d.currency = $10
    AND ($5::text IS NULL OR d.provider = $5)
    AND (cardinality($6::text[]) = 0 OR d.project_id = ANY($6))
    AND (cardinality($9::text[]) = 0 OR d.service = ANY($9))
    AND ($7::jsonb IS NULL OR (d.usage_date, d.project_id) IN (SELECT usage_date, project_id FROM viewer_allowed_days($1, $2, $3, $4, $7)))
  UNION ALL
  SELECT d.usage_date, d.project_id, d.project_name, d.service, basis_spend($11, d.cost, d.credits, d.amortisation) * r.rate
  FROM cost_daily d
  JOIN r ON r.currency = d.currency AND r.day = d.usage_date
  WHERE d.customer_id = $1 AND d.billing_account_id = $2 AND d.usage_date BETWEEN $3 AND $4 AND (d.currency < $10 OR d.currency > $10)
    AND r.rate IS NOT NULL
    AND EXISTS (SELECT 1 FROM r) -- a one-time check: no other currency, no scan
    AND ($5::text IS NULL OR d.provider = $5)
    AND (cardinality($6::text[]) = 0 OR d.project_id = ANY($6))
    AND (cardinality($9::text[]) = 0 OR d.service = ANY($9))
    AND ($7::jsonb IS NULL OR (d.usage_date, d.project_id) IN (SELECT usage_date, project_id FROM viewer_allowed_days($1, $2, $3, $4, $7)))
), buckets AS (
  -- grouped by a date, written as text only at the end (a text bucket made the grouping sort by collation)
  SELECT CASE WHEN $8 = 'month' THEN date_trunc('month', c.usage_date)::date ELSE c.usage_date END AS bucket,
    c.project_id, max(c.project_name) AS project_name, c.service, sum(c.spend) AS spend
  FROM cells c
  GROUP BY 1, c.project_id, c.service
), out AS (
  -- the chart's cells, per project or summed per service ($12), each with the key the chart draws it under
  SELECT b.bucket, b.project_id, b.project_name, b.service, b.spend, b.project_id || ' / ' || coalesce(nullif(b.service, ''), $14) AS key
  FROM buckets b
  WHERE $12
  UNION ALL
  SELECT b.bucket, '', '', b.service, sum(b.spend), coalesce(nullif(b.service, ''), $14)
  FROM buckets b
  WHERE NOT $12
  GROUP BY b.bucket, b.service
), totals AS (
  SELECT key, sum(spend) AS total FROM out GROUP BY key
), cutoff AS (
  -- Top N ($13; 0: all), as billing-service-cells-monthly.sql folds it: series below the N-th largest total are sent
  -- summed per bucket (folded)
  SELECT CASE WHEN $13 > 0 THEN (SELECT total FROM totals ORDER BY total DESC OFFSET greatest($13 - 1, 0) LIMIT 1) END AS total
), kept AS (
  SELECT o.bucket, o.project_id, o.project_name, o.service, o.spend, (SELECT total FROM cutoff) IS NULL OR t.total >= (SELECT total FROM cutoff) AS keep
  FROM out o
  JOIN totals t USING (key)
)
SELECT CASE WHEN $8 = 'month' THEN to_char(k.bucket, 'YYYY-MM') ELSE to_char(k.bucket, 'YYYY-MM-DD') END AS bucket,
  k.project_id, k.project_name, k.service, k.spend::text AS spend, false AS folded
FROM kept k
WHERE k.keep
UNION ALL
SELECT CASE WHEN $8 = 'month' THEN to_char(k.bucket, 'YYYY-MM') ELSE to_char(k.bucket, 'YYYY-MM-DD') END, '', '', '', sum(k.spend)::text, true
FROM kept k
WHERE NOT k.keep
GROUP BY k.bucket
