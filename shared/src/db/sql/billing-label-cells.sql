-- Spend of one label key per (bucket, project, label value) over a range, plus each project's unlabelled rest
-- (label_value NULL) = its total in cost_daily minus its labelled spend. Project labels are per project and day,
-- so the rest is exact for them; for resource labels a line carries a key at most once, so it is exact too.
-- $1 customer_id, $2 billing_account_id, $3 from, $4 to, $5 provider (NULL = all), $6 projects text[] (empty = all),
-- $7 viewer filters jsonb [{label_key,label_value}] (NULL = unrestricted), $8 'day' | 'month',
-- $9 label_kind, $10 label_key, $11 display currency
-- Amounts are in the display currency, each rollup row converted at its usage day's rate (as the service cells);
-- rows of a currency without a rate within 7 days are left out of both the totals and the labelled spend.
WITH r AS (
  SELECT * FROM fx_day_rates($11, $2, $3, $4)
), tot AS (
  SELECT d.usage_date, d.project_id, max(d.project_name) AS project_name, sum((d.cost + d.credits) * coalesce(r.rate, 1)) AS s
  FROM cost_daily d
  LEFT JOIN r ON r.currency = d.currency AND r.day = d.usage_date
  WHERE d.customer_id = $1 AND d.billing_account_id = $2 AND d.usage_date BETWEEN $3 AND $4
    AND (d.currency = $11 OR r.rate IS NOT NULL)
    AND ($5::text IS NULL OR d.provider = $5)
    AND (cardinality($6::text[]) = 0 OR d.project_id = ANY($6))
    AND ($7::jsonb IS NULL OR (d.usage_date, d.project_id) IN (SELECT usage_date, project_id FROM viewer_allowed_days($1, $2, $3, $4, $7)))
  GROUP BY d.usage_date, d.project_id
), lab AS (
  SELECT l.usage_date, l.project_id, l.label_value, sum((l.cost + l.credits) * coalesce(r.rate, 1)) AS s
  FROM cost_daily_label l
  LEFT JOIN r ON r.currency = l.currency AND r.day = l.usage_date
  WHERE l.customer_id = $1 AND l.billing_account_id = $2 AND l.usage_date BETWEEN $3 AND $4
    AND (l.currency = $11 OR r.rate IS NOT NULL)
    AND l.label_kind = $9 AND l.label_key = $10
    AND ($5::text IS NULL OR l.provider = $5)
    AND (cardinality($6::text[]) = 0 OR l.project_id = ANY($6))
    AND ($7::jsonb IS NULL OR (l.usage_date, l.project_id) IN (SELECT usage_date, project_id FROM viewer_allowed_days($1, $2, $3, $4, $7)))
  GROUP BY l.usage_date, l.project_id, l.label_value
), lab_sum AS (
  SELECT usage_date, project_id, sum(s) AS s FROM lab GROUP BY usage_date, project_id
), cells AS (
  SELECT lab.usage_date, lab.project_id, lab.label_value, lab.s FROM lab
  UNION ALL
  SELECT tot.usage_date, tot.project_id, NULL, tot.s - coalesce(lab_sum.s, 0)
  FROM tot LEFT JOIN lab_sum USING (usage_date, project_id)
)
SELECT CASE WHEN $8 = 'month' THEN to_char(c.usage_date, 'YYYY-MM') ELSE to_char(c.usage_date, 'YYYY-MM-DD') END AS bucket,
  c.project_id, coalesce(max(n.project_name), c.project_id) AS project_name, c.label_value, sum(c.s)::text AS spend
FROM cells c
LEFT JOIN (SELECT DISTINCT ON (project_id) project_id, project_name FROM tot ORDER BY project_id, usage_date DESC) n USING (project_id)
GROUP BY 1, c.project_id, c.label_value
HAVING sum(c.s) <> 0 OR c.label_value IS NOT NULL
ORDER BY 1, c.project_id, c.label_value
