-- Spend of one label key per (bucket, project, label value) over a range, plus each project's unlabelled rest
-- (label_value NULL) = its total in the cost rollup minus its labelled spend. Project labels are per project and day,
-- so the rest is exact for them; for resource labels a line carries a key at most once, so it is exact too.
-- /*ROLLUP*/ and /*LABEL_ROLLUP*/ are where the display-currency rows come from: the daily rollups
-- (billing-rollup-daily.sql, billing-label-rollup-daily.sql) or the monthly ones (…-monthly.sql: whole months,
-- unrestricted callers); rows in another currency are converted day by day from the daily rollups either way.
-- Parameters as billing-service-cells.sql (:services is empty here: the label views filter on no service), and
-- :label_kind, :label_key, :per_project (false: the cells summed per (bucket, label value), project id and name ''),
-- :top the chart's Top N (0: all; see cutoff), :none the chart's name for no label value.
-- Amounts are in the display currency, each rollup row converted at its usage day's rate (as the service cells);
-- rows of a currency without a rate within 7 days are left out of both the totals and the labelled spend.
WITH r AS (
  SELECT * FROM fx_day_rates(:currency, :account, :from::date, :to::date)
), display AS (
  /*ROLLUP*/
), display_labels AS (
  /*LABEL_ROLLUP*/
), tot_days AS (
  -- Rows already in the display currency are taken as they are; only the others meet the rates (a join of every row
  -- with the rates was sorted by currency text, on disk). Rows without a rate within 7 days are in neither part.
  SELECT x.bucket, x.day, x.project_id, x.project_name, x.spend AS s FROM display x
  UNION ALL
  SELECT CASE WHEN :granularity = 'month' THEN date_trunc('month', d.usage_date::timestamp)::date ELSE d.usage_date END, d.usage_date, d.project_id, d.project_name, basis_spend(:basis, d.cost, d.credits, d.amortisation) * r.rate
  FROM cost_daily d
  JOIN r ON r.currency = d.currency AND r.day = d.usage_date
  WHERE d.customer_id = :customer AND d.billing_account_id = :account AND d.usage_date BETWEEN :from AND :to
    AND (d.currency < :currency OR d.currency > :currency) AND r.rate IS NOT NULL
    AND EXISTS (SELECT 1 FROM r) -- a one-time check: no other currency, no scan
    AND (:provider::text IS NULL OR d.provider = :provider)
    AND (cardinality(:projects::text[]) = 0 OR d.project_id = ANY(:projects))
    AND (:viewer::jsonb IS NULL OR (d.usage_date, d.project_id) IN (SELECT usage_date, project_id FROM viewer_allowed_days(:customer, :account, :from, :to, :viewer)))
), tot AS (
  -- Grouped by the answer's bucket directly (a month, not each day): the rest below is a plain sum, so nothing needs
  -- the days, and a 12-month answer aggregates months. Buckets are dates until the answer is written: a text bucket
  -- (to_char) made the grouping sort by collation, on disk. The project's name is its latest day's (a monthly row's
  -- day is its month's first): the largest "day + name" (C collation: a byte comparison), cut back in `names`.
  SELECT t.bucket, t.project_id,
    max((t.day::text || t.project_name) COLLATE "C") AS dated_name, sum(t.s) AS s
  FROM tot_days t
  GROUP BY t.bucket, t.project_id
), lab AS (
  SELECT l.bucket, l.project_id, l.label_value, sum(l.s) AS s
  FROM (
    SELECT x.bucket, x.project_id, x.label_value, x.spend AS s FROM display_labels x
    UNION ALL
    SELECT CASE WHEN :granularity = 'month' THEN date_trunc('month', l.usage_date::timestamp)::date ELSE l.usage_date END, l.project_id, l.label_value, basis_spend(:basis, l.cost, l.credits, l.amortisation) * r.rate
    FROM cost_daily_label l
    JOIN r ON r.currency = l.currency AND r.day = l.usage_date
    WHERE l.customer_id = :customer AND l.billing_account_id = :account AND l.usage_date BETWEEN :from AND :to AND l.currency <> :currency AND r.rate IS NOT NULL
      AND EXISTS (SELECT 1 FROM r) -- a one-time check: no other currency, no scan
      AND l.label_kind = :label_kind AND l.label_key = :label_key
      AND (:provider::text IS NULL OR l.provider = :provider)
      AND (cardinality(:projects::text[]) = 0 OR l.project_id = ANY(:projects))
      AND (:viewer::jsonb IS NULL OR (l.usage_date, l.project_id) IN (SELECT usage_date, project_id FROM viewer_allowed_days(:customer, :account, :from, :to, :viewer)))
  ) l
  GROUP BY l.bucket, l.project_id, l.label_value
), rest AS (
  -- Each project's unlabelled rest: its total in the cost rollup minus its labelled spend, summed per (bucket,
  -- project) rather than joined per day and project (sums are linear, so the result is the same, and no join of two
  -- large aggregates can be planned as a nested loop: it was, right after an ingest, before the rollups had
  -- statistics: 60 s). `lab` is not grouped again: it already holds one row per (bucket, project, label value)
  -- (label_value is NOT NULL in both label rollups), and regrouping it with the rest cost a 30-day answer about a
  -- third of its time.
  SELECT x.bucket, x.project_id, sum(x.s) AS s
  FROM (
    SELECT tot.bucket, tot.project_id, tot.s FROM tot
    UNION ALL
    SELECT lab.bucket, lab.project_id, -lab.s FROM lab
  ) x
  GROUP BY x.bucket, x.project_id
), names AS (
  SELECT project_id, substr(max(dated_name COLLATE "C"), 11) AS project_name FROM tot GROUP BY project_id
), answer AS (
  SELECT lab.bucket, lab.project_id, lab.label_value, lab.s AS spend FROM lab
  UNION ALL
  SELECT rest.bucket, rest.project_id, NULL, rest.s FROM rest WHERE rest.s <> 0
), out AS (
  -- the chart's cells, per project or summed per label value (:per_project), each with the key the chart draws it under
  SELECT a.bucket, a.project_id, a.label_value, a.spend, coalesce(a.label_value, :none) || ' / ' || a.project_id AS key
  FROM answer a
  WHERE :per_project
  UNION ALL
  SELECT a.bucket, '', a.label_value, sum(a.spend), coalesce(a.label_value, :none)
  FROM answer a
  WHERE NOT :per_project
  GROUP BY a.bucket, a.label_value
), totals AS (
  SELECT key, sum(spend) AS total FROM out GROUP BY key
), cutoff AS (
  -- Top N (:top; 0: all): the N-th largest series total. A series below it cannot be one of the chart's N, so its
  -- cells are sent summed per bucket (folded) rather than one by one; the chart ranks the rest (ties included) itself.
  SELECT CASE WHEN :top > 0 THEN (SELECT total FROM totals ORDER BY total DESC OFFSET greatest(:top - 1, 0) LIMIT 1) END AS total
), kept AS (
  SELECT o.bucket, o.project_id, o.label_value, o.spend, (SELECT total FROM cutoff) IS NULL OR t.total >= (SELECT total FROM cutoff) AS keep
  FROM out o
  JOIN totals t USING (key)
)
SELECT CASE WHEN :granularity = 'month' THEN to_char(k.bucket, 'YYYY-MM') ELSE to_char(k.bucket, 'YYYY-MM-DD') END AS bucket,
  k.project_id, CASE WHEN :per_project THEN coalesce(n.project_name, k.project_id) ELSE '' END AS project_name, k.label_value,
  k.spend::text AS spend, false AS folded
FROM kept k
LEFT JOIN names n ON :per_project AND n.project_id = k.project_id
WHERE k.keep
UNION ALL
SELECT CASE WHEN :granularity = 'month' THEN to_char(k.bucket, 'YYYY-MM') ELSE to_char(k.bucket, 'YYYY-MM-DD') END, '', '', NULL, sum(k.spend)::text, true
FROM kept k
WHERE NOT k.keep
GROUP BY k.bucket
