-- The Project-Labels-with-Project export's rows, with their conversion (as billing-export-rows.sql does for the
-- service export): per (bucket, project, label value, original currency, rate) the original spend, the rate with its
-- fixing date and source, and the spend in the display currency (NULL: no rate within 7 days, shown, never added).
-- Display-currency rows have rate 1 and no fixing. label_value NULL is the project's spend without the key: its
-- total minus its labelled spend, per usage day and currency (exact, as in billing-label-cells.sql).
-- $1 customer_id, $2 billing_account_id, $3 from, $4 to, $5 provider (NULL = all), $6 projects text[] (empty = all),
-- $7 viewer filters jsonb (NULL = unrestricted), $8 'day' | 'month', $9 label_kind, $10 label_key, $11 display currency,
-- $12 cost basis ('billed' | 'amortised', basis_spend)
WITH tot AS (
  SELECT d.usage_date, d.project_id, d.currency, max(d.project_name) AS project_name, sum(basis_spend($12, d.cost, d.credits, d.amortisation)) AS s
  FROM cost_daily d
  WHERE d.customer_id = $1 AND d.billing_account_id = $2 AND d.usage_date BETWEEN $3 AND $4
    AND ($5::text IS NULL OR d.provider = $5)
    AND (cardinality($6::text[]) = 0 OR d.project_id = ANY($6))
    AND ($7::jsonb IS NULL OR (d.usage_date, d.project_id) IN (SELECT usage_date, project_id FROM viewer_allowed_days($1, $2, $3, $4, $7)))
  GROUP BY d.usage_date, d.project_id, d.currency
), lab AS (
  SELECT l.usage_date, l.project_id, l.currency, l.label_value, sum(basis_spend($12, l.cost, l.credits, l.amortisation)) AS s
  FROM cost_daily_label l
  WHERE l.customer_id = $1 AND l.billing_account_id = $2 AND l.usage_date BETWEEN $3 AND $4
    AND l.label_kind = $9 AND l.label_key = $10
    AND ($5::text IS NULL OR l.provider = $5)
    AND (cardinality($6::text[]) = 0 OR l.project_id = ANY($6))
    AND ($7::jsonb IS NULL OR (l.usage_date, l.project_id) IN (SELECT usage_date, project_id FROM viewer_allowed_days($1, $2, $3, $4, $7)))
  GROUP BY l.usage_date, l.project_id, l.currency, l.label_value
), cells AS (
  -- The unlabelled rest as tot minus lab, summed in the final grouping rather than joined per day and project (as
  -- billing-label-cells.sql does): sums are linear, so the result is the same, and no join of two large aggregates
  -- can be planned as a nested loop (this export took over 60 s on 5M lines right after an ingest; issue 19).
  SELECT lab.usage_date, lab.project_id, lab.currency, lab.label_value, lab.s FROM lab
  UNION ALL
  SELECT tot.usage_date, tot.project_id, tot.currency, NULL, tot.s FROM tot
  UNION ALL
  SELECT lab.usage_date, lab.project_id, lab.currency, NULL, -lab.s FROM lab
), names AS (
  SELECT DISTINCT ON (project_id) project_id, project_name FROM tot ORDER BY project_id, usage_date DESC
)
SELECT CASE WHEN $8 = 'month' THEN to_char(c.usage_date, 'YYYY-MM') ELSE to_char(c.usage_date, 'YYYY-MM-DD') END AS bucket,
  c.project_id, coalesce(max(n.project_name), c.project_id) AS project_name, c.label_value, c.currency,
  sum(c.s)::text AS original,
  CASE WHEN c.currency = $11 THEN '1' ELSE r.rate::text END AS rate,
  to_char(r.rate_date, 'YYYY-MM-DD') AS rate_date, r.source,
  CASE WHEN c.currency = $11 THEN sum(c.s) ELSE sum(c.s * r.rate) END::text AS spend
FROM cells c
LEFT JOIN fx_day_rates($11, $2, $3, $4) r ON r.currency = c.currency AND r.day = c.usage_date
LEFT JOIN names n USING (project_id)
GROUP BY 1, c.project_id, c.label_value, c.currency, r.rate, r.rate_date, r.source
HAVING sum(c.s) <> 0 OR c.label_value IS NOT NULL
ORDER BY 1, c.project_id, c.label_value, c.currency, r.rate_date NULLS FIRST
