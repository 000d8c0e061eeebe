-- Spend of one label key per (bucket, project, label value) over a range, plus each project's unlabelled rest
-- (label_value NULL) = its total in cost_daily minus its labelled spend. Project labels are per project and day,
-- so the rest is exact for them; for resource labels a line carries a key at most once, so it is exact too.
-- $1 customer_id, $2 billing_account_id, $3 from, $4 to, $5 provider (NULL = all), $6 projects text[] (empty = all),
-- $7 viewer filters jsonb [{label_key,label_value}] (NULL = unrestricted), $8 'day' | 'month',
-- $9 label_kind, $10 label_key, $11 display currency
-- $12 cost basis: 'billed' (cost + credits) or 'amortised' (plus amortisation, migration 075)
-- $13 per project (false: the cells summed per (bucket, label value), project id and name ''), $14 the chart's Top N
-- (0: all; see cutoff), $15 the chart's name for no label value
-- Amounts are in the display currency, each rollup row converted at its usage day's rate (as the service cells);
-- rows of a currency without a rate within 7 days are left out of both the totals and the labelled spend.
WITH r AS (
  SELECT * FROM fx_day_rates($11, $2, $3, $4)
), tot_days AS (
  -- Rows already in the display currency are taken as they are; only the others meet the rates (a join of every row
  -- with the rates was sorted by currency text, on disk). Rows without a rate within 7 days are in neither part.
  SELECT d.usage_date, d.project_id, d.project_name, basis_spend($12, d.cost, d.credits, d.amortisation) AS s
  FROM cost_daily d
  WHERE d.customer_id = $1 AND d.billing_account_id = $2 AND d.usage_date BETWEEN $3 AND $4 AND d.currency = $11
    AND ($5::text IS NULL OR d.provider = $5)
    AND (cardinality($6::text[]) = 0 OR d.project_id = ANY($6))
    AND ($7::jsonb IS NULL OR (d.usage_date, d.project_id) IN (SELECT usage_date, project_id FROM viewer_allowed_days($1, $2, $3, $4, $7)))
  UNION ALL
  SELECT d.usage_date, d.project_id, d.project_name, basis_spend($12, d.cost, d.credits, d.amortisation) * r.rate
  FROM cost_daily d
  JOIN r ON r.currency = d.currency AND r.day = d.usage_date
  WHERE d.customer_id = $1 AND d.billing_account_id = $2 AND d.usage_date BETWEEN $3 AND $4 AND (d.currency < $11 OR d.currency > $11) AND r.rate IS NOT NULL
    AND EXISTS (SELECT 1 FROM r) -- a one-time check: no other currency, no scan
    AND ($5::text IS NULL OR d.provider = $5)
    AND (cardinality($6::text[]) = 0 OR d.project_id = ANY($6))
    AND ($7::jsonb IS NULL OR (d.usage_date, d.project_id) IN (SELECT usage_date, project_id FROM viewer_allowed_days($1, $2, $3, $4, $7)))
), tot AS (
  -- Grouped by the answer's bucket directly (a month, not each day): the rest below is a plain sum, so nothing needs
  -- the days, and a 12-month answer aggregates months (issue 19). Buckets are dates until the answer is written: a
  -- text bucket (to_char) made the grouping sort by collation, on disk. The project's name is its latest day's: the
  -- largest "day + name" (C collation: a byte comparison), cut back to the name in `names`.
  SELECT CASE WHEN $8 = 'month' THEN date_trunc('month', t.usage_date)::date ELSE t.usage_date END AS bucket, t.project_id,
    max((t.usage_date::text || t.project_name) COLLATE "C") AS dated_name, sum(t.s) AS s
  FROM tot_days t
  GROUP BY 1, t.project_id
), lab AS (
  SELECT CASE WHEN $8 = 'month' THEN date_trunc('month', l.usage_date)::date ELSE l.usage_date END AS bucket, l.project_id, l.label_value, sum(l.s) AS s
  FROM (
    SELECT l.usage_date, l.project_id, l.label_value, basis_spend($12, l.cost, l.credits, l.amortisation) AS s
    FROM cost_daily_label l
    WHERE l.customer_id = $1 AND l.billing_account_id = $2 AND l.usage_date BETWEEN $3 AND $4 AND l.currency = $11
      AND l.label_kind = $9 AND l.label_key = $10
      AND ($5::text IS NULL OR l.provider = $5)
      AND (cardinality($6::text[]) = 0 OR l.project_id = ANY($6))
      AND ($7::jsonb IS NULL OR (l.usage_date, l.project_id) IN (SELECT usage_date, project_id FROM viewer_allowed_days($1, $2, $3, $4, $7)))
    UNION ALL
    SELECT l.usage_date, l.project_id, l.label_value, basis_spend($12, l.cost, l.credits, l.amortisation) * r.rate
    FROM cost_daily_label l
    JOIN r ON r.currency = l.currency AND r.day = l.usage_date
    WHERE l.customer_id = $1 AND l.billing_account_id = $2 AND l.usage_date BETWEEN $3 AND $4 AND l.currency <> $11 AND r.rate IS NOT NULL
    AND EXISTS (SELECT 1 FROM r) -- a one-time check: no other currency, no scan
      AND l.label_kind = $9 AND l.label_key = $10
      AND ($5::text IS NULL OR l.provider = $5)
      AND (cardinality($6::text[]) = 0 OR l.project_id = ANY($6))
      AND ($7::jsonb IS NULL OR (l.usage_date, l.project_id) IN (SELECT usage_date, project_id FROM viewer_allowed_days($1, $2, $3, $4, $7)))
  ) l
  GROUP BY 1, l.project_id, l.label_value
), cells AS (
  -- The unlabelled rest as tot minus lab, summed in the final grouping rather than joined per day and project: sums
  -- are linear, so the result is the same, and no join of two large aggregates can be planned as a nested loop
  -- (it was, right after an ingest, before the rollups had statistics: 60 s; issue 19).
  SELECT lab.bucket, lab.project_id, lab.label_value, lab.s FROM lab
  UNION ALL
  SELECT tot.bucket, tot.project_id, NULL, tot.s FROM tot
  UNION ALL
  SELECT lab.bucket, lab.project_id, NULL, -lab.s FROM lab
), names AS (
  SELECT project_id, substr(max(dated_name COLLATE "C"), 11) AS project_name FROM tot GROUP BY project_id
), answer AS (
  SELECT c.bucket, c.project_id, c.label_value, sum(c.s) AS spend
  FROM cells c
  GROUP BY c.bucket, c.project_id, c.label_value
  HAVING sum(c.s) <> 0 OR c.label_value IS NOT NULL
), out AS (
  -- the chart's cells, per project or summed per label value ($13), each with the key the chart draws it under
  SELECT a.bucket, a.project_id, a.label_value, a.spend, coalesce(a.label_value, $15) || ' / ' || a.project_id AS key
  FROM answer a
  WHERE $13
  UNION ALL
  SELECT a.bucket, '', a.label_value, sum(a.spend), coalesce(a.label_value, $15)
  FROM answer a
  WHERE NOT $13
  GROUP BY a.bucket, a.label_value
), totals AS (
  SELECT key, sum(spend) AS total FROM out GROUP BY key
), cutoff AS (
  -- Top N ($14; 0: all), as billing-label-cells-monthly.sql folds it: series below the N-th largest total are sent
  -- summed per bucket (folded)
  SELECT CASE WHEN $14 > 0 THEN (SELECT total FROM totals ORDER BY total DESC OFFSET greatest($14 - 1, 0) LIMIT 1) END AS total
), kept AS (
  SELECT o.bucket, o.project_id, o.label_value, o.spend, (SELECT total FROM cutoff) IS NULL OR t.total >= (SELECT total FROM cutoff) AS keep
  FROM out o
  JOIN totals t USING (key)
)
SELECT CASE WHEN $8 = 'month' THEN to_char(k.bucket, 'YYYY-MM') ELSE to_char(k.bucket, 'YYYY-MM-DD') END AS bucket,
  k.project_id, CASE WHEN $13 THEN coalesce(n.project_name, k.project_id) ELSE '' END AS project_name, k.label_value,
  k.spend::text AS spend, false AS folded
FROM kept k
LEFT JOIN names n ON $13 AND n.project_id = k.project_id
WHERE k.keep
UNION ALL
SELECT CASE WHEN $8 = 'month' THEN to_char(k.bucket, 'YYYY-MM') ELSE to_char(k.bucket, 'YYYY-MM-DD') END, '', '', NULL, sum(k.spend)::text, true
FROM kept k
WHERE NOT k.keep
GROUP BY k.bucket
