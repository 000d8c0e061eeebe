-- The cells of billing-label-cells.sql by month, for callers without a viewer restriction (the restriction is per day
-- and project, which only the daily rollups can apply): one label key's spend per (month, project, label value) plus
-- each project's unlabelled rest (label_value NULL), in the display currency, over the months $3..$4 up to the day
-- $11 of the last one. Rows already in the display currency come from the monthly rollups (cost_monthly,
-- cost_monthly_label: ~30× fewer rows than the daily ones); the last month's too when none of its days after $11 has
-- spend (a range ending yesterday: the month so far is the whole month), decided in this statement's snapshot, else
-- its days up to $11 from the daily rollups. Rows in another currency are converted day by day from the daily rollups
-- (a month's rate changes every business day), as billing-service-cells-monthly.sql does. A project's name is the
-- one of its latest month (the monthly rollup keeps the largest name of a month).
-- $1 customer_id, $2 billing_account_id, $3 first month (yyyy-MM-01), $4 last month (yyyy-MM-01),
-- $5 provider (NULL = all), $6 projects text[] (empty = all), $7 display currency, $8 cost basis,
-- $9 label_kind, $10 label_key, $11 last day (in $4's month), $12 per project (false: summed per label value, project
-- id and name ''), $13 the chart's Top N (0: all; see cutoff), $14 the chart's name for no label value
WITH tail AS (
  -- whether the last month's monthly rows are its days up to $11: no later day of it has spend (any provider)
  SELECT NOT EXISTS (
    SELECT 1 FROM cost_daily x
    WHERE x.billing_account_id = $2 AND x.usage_date > $11::date AND x.usage_date < $4::date + interval '1 month' AND x.customer_id = $1
  ) AS whole
), r AS (
  SELECT * FROM fx_day_rates($7, $2, $3::date, $11::date)
), tot AS (
  SELECT t.month, t.project_id, max((t.day::text || t.project_name) COLLATE "C") AS dated_name, sum(t.s) AS s
  FROM (
    SELECT m.month, m.month AS day, m.project_id, m.project_name, basis_spend($8, m.cost, m.credits, m.amortisation) AS s
    FROM cost_monthly m
    WHERE m.customer_id = $1 AND m.billing_account_id = $2 AND m.month BETWEEN $3 AND $4 AND m.currency = $7
      AND (m.month < $4 OR (SELECT whole FROM tail))
      AND ($5::text IS NULL OR m.provider = $5)
      AND (cardinality($6::text[]) = 0 OR m.project_id = ANY($6))
    UNION ALL
    SELECT $4::date, d.usage_date, d.project_id, d.project_name, basis_spend($8, d.cost, d.credits, d.amortisation)
    FROM cost_daily d
    WHERE NOT (SELECT whole FROM tail)
      AND d.customer_id = $1 AND d.billing_account_id = $2 AND d.usage_date BETWEEN $4 AND $11 AND d.currency = $7
      AND ($5::text IS NULL OR d.provider = $5)
      AND (cardinality($6::text[]) = 0 OR d.project_id = ANY($6))
    UNION ALL
    SELECT date_trunc('month', d.usage_date)::date, date_trunc('month', d.usage_date)::date, d.project_id, d.project_name, basis_spend($8, d.cost, d.credits, d.amortisation) * r.rate
    FROM cost_daily d
    JOIN r ON r.currency = d.currency AND r.day = d.usage_date
    WHERE d.customer_id = $1 AND d.billing_account_id = $2 AND (d.currency < $7 OR d.currency > $7) AND r.rate IS NOT NULL
    AND EXISTS (SELECT 1 FROM r) -- a one-time check: no other currency, no scan
      AND d.usage_date BETWEEN $3 AND $11
      AND ($5::text IS NULL OR d.provider = $5)
      AND (cardinality($6::text[]) = 0 OR d.project_id = ANY($6))
  ) t
  GROUP BY t.month, t.project_id
), lab AS (
  SELECT l.month, l.project_id, l.label_value, sum(l.s) AS s
  FROM (
    SELECT m.month, m.project_id, m.label_value, basis_spend($8, m.cost, m.credits, m.amortisation) AS s
    FROM cost_monthly_label m
    WHERE m.billing_account_id = $2 AND m.label_kind = $9 AND m.label_key = $10 AND m.month BETWEEN $3 AND $4
      AND m.customer_id = $1 AND m.currency = $7
      AND (m.month < $4 OR (SELECT whole FROM tail))
      AND ($5::text IS NULL OR m.provider = $5)
      AND (cardinality($6::text[]) = 0 OR m.project_id = ANY($6))
    UNION ALL
    SELECT $4::date, l.project_id, l.label_value, basis_spend($8, l.cost, l.credits, l.amortisation)
    FROM cost_daily_label l
    WHERE NOT (SELECT whole FROM tail)
      AND l.customer_id = $1 AND l.billing_account_id = $2 AND l.usage_date BETWEEN $4 AND $11 AND l.currency = $7
      AND l.label_kind = $9 AND l.label_key = $10
      AND ($5::text IS NULL OR l.provider = $5)
      AND (cardinality($6::text[]) = 0 OR l.project_id = ANY($6))
    UNION ALL
    SELECT date_trunc('month', l.usage_date)::date, l.project_id, l.label_value, basis_spend($8, l.cost, l.credits, l.amortisation) * r.rate
    FROM cost_daily_label l
    JOIN r ON r.currency = l.currency AND r.day = l.usage_date
    WHERE l.customer_id = $1 AND l.billing_account_id = $2 AND l.currency <> $7 AND r.rate IS NOT NULL
    AND EXISTS (SELECT 1 FROM r) -- a one-time check: no other currency, no scan
      AND l.label_kind = $9 AND l.label_key = $10
      AND l.usage_date BETWEEN $3 AND $11
      AND ($5::text IS NULL OR l.provider = $5)
      AND (cardinality($6::text[]) = 0 OR l.project_id = ANY($6))
  ) l
  GROUP BY l.month, l.project_id, l.label_value
), cells AS (
  -- the unlabelled rest as tot minus lab, summed in the grouping below (billing-label-cells.sql says why)
  SELECT lab.month, lab.project_id, lab.label_value, lab.s FROM lab
  UNION ALL
  SELECT tot.month, tot.project_id, NULL, tot.s FROM tot
  UNION ALL
  SELECT lab.month, lab.project_id, NULL, -lab.s FROM lab
), names AS (
  SELECT project_id, substr(max(dated_name COLLATE "C"), 11) AS project_name FROM tot GROUP BY project_id
), answer AS (
  SELECT c.month, c.project_id, c.label_value, sum(c.s) AS spend
  FROM cells c
  GROUP BY c.month, c.project_id, c.label_value
  HAVING sum(c.s) <> 0 OR c.label_value IS NOT NULL
), out AS (
  -- the chart's cells, per project or summed per label value ($12), each with the key the chart draws it under
  SELECT a.month, a.project_id, a.label_value, a.spend, coalesce(a.label_value, $14) || ' / ' || a.project_id AS key
  FROM answer a
  WHERE $12
  UNION ALL
  SELECT a.month, '', a.label_value, sum(a.spend), coalesce(a.label_value, $14)
  FROM answer a
  WHERE NOT $12
  GROUP BY a.month, a.label_value
), totals AS (
  SELECT key, sum(spend) AS total FROM out GROUP BY key
), cutoff AS (
  -- Top N ($13; 0: all): the N-th largest series total. A series below it cannot be one of the chart's N, so its
  -- cells are sent summed per month (folded) rather than one by one; the chart ranks the rest (ties included) itself.
  SELECT CASE WHEN $13 > 0 THEN (SELECT total FROM totals ORDER BY total DESC OFFSET greatest($13 - 1, 0) LIMIT 1) END AS total
), kept AS (
  SELECT o.month, o.project_id, o.label_value, o.spend, (SELECT total FROM cutoff) IS NULL OR t.total >= (SELECT total FROM cutoff) AS keep
  FROM out o
  JOIN totals t USING (key)
)
SELECT to_char(k.month, 'YYYY-MM') AS bucket, k.project_id, CASE WHEN $12 THEN coalesce(n.project_name, k.project_id) ELSE '' END AS project_name,
  k.label_value, k.spend::text AS spend, false AS folded
FROM kept k
LEFT JOIN names n ON $12 AND n.project_id = k.project_id
WHERE k.keep
UNION ALL
SELECT to_char(k.month, 'YYYY-MM'), '', '', NULL, sum(k.spend)::text, true
FROM kept k
WHERE NOT k.keep
GROUP BY k.month
