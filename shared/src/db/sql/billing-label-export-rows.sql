-- The Project-Labels-with-Project export's rows, with their conversion (as billing-export-rows.sql does for the
-- service export): per (bucket, project, label value, original currency, rate) the original spend, the rate with its
-- fixing date and source, and the spend in the display currency (NULL: no rate within 7 days, shown, never added).
-- Display-currency rows have rate 1 and no fixing. label_value NULL is the project's spend without the key: its
-- total minus its labelled spend (exact, as in billing-label-cells.sql).
-- /*ROLLUP*/ and /*LABEL_ROLLUP*/: the display-currency rows, daily or monthly (billing-label-cells.sql says how);
-- rows in another currency are read day by day from the daily rollups, each with its day's rate, grouped by the rate.
-- Parameters as billing-label-cells.sql (no :per_project, :top, :none).
WITH r AS (
  SELECT * FROM fx_day_rates(:currency, :account, :from::date, :to::date)
), display AS (
  /*ROLLUP*/
), display_labels AS (
  /*LABEL_ROLLUP*/
), tot AS (
  -- a project's name is its latest day's (a monthly row's day is its month's first), as in billing-label-cells.sql
  SELECT x.bucket, x.project_id, :currency::text AS currency, NULL::numeric AS rate, NULL::date AS rate_date, NULL::text AS source,
    max((x.day::text || x.project_name) COLLATE "C") AS dated_name, sum(x.spend) AS s
  FROM display x
  GROUP BY x.bucket, x.project_id
  UNION ALL
  SELECT CASE WHEN :granularity = 'month' THEN date_trunc('month', d.usage_date::timestamp)::date ELSE d.usage_date END, d.project_id,
    d.currency, r.rate, r.rate_date, r.source,
    max((d.usage_date::text || d.project_name) COLLATE "C"), sum(basis_spend(:basis, d.cost, d.credits, d.amortisation))
  FROM cost_daily d
  LEFT JOIN r ON r.currency = d.currency AND r.day = d.usage_date
  WHERE d.customer_id = :customer AND d.billing_account_id = :account AND d.usage_date BETWEEN :from AND :to AND (d.currency < :currency OR d.currency > :currency)
    AND (:provider::text IS NULL OR d.provider = :provider)
    AND (cardinality(:projects::text[]) = 0 OR d.project_id = ANY(:projects))
    AND (:viewer::jsonb IS NULL OR (d.usage_date, d.project_id) IN (SELECT usage_date, project_id FROM viewer_allowed_days(:customer, :account, :from, :to, :viewer)))
  GROUP BY 1, d.project_id, d.currency, r.rate, r.rate_date, r.source
), lab AS (
  SELECT x.bucket, x.project_id, :currency::text AS currency, NULL::numeric AS rate, NULL::date AS rate_date, NULL::text AS source,
    x.label_value, sum(x.spend) AS s
  FROM display_labels x
  GROUP BY x.bucket, x.project_id, x.label_value
  UNION ALL
  SELECT CASE WHEN :granularity = 'month' THEN date_trunc('month', l.usage_date::timestamp)::date ELSE l.usage_date END, l.project_id,
    l.currency, r.rate, r.rate_date, r.source, l.label_value, sum(basis_spend(:basis, l.cost, l.credits, l.amortisation))
  FROM cost_daily_label l
  LEFT JOIN r ON r.currency = l.currency AND r.day = l.usage_date
  WHERE l.customer_id = :customer AND l.billing_account_id = :account AND l.usage_date BETWEEN :from AND :to AND l.currency <> :currency
    AND EXISTS (SELECT 1 FROM r) -- a one-time check: no other currency, no scan
    AND l.label_kind = :label_kind AND l.label_key = :label_key
    AND (:provider::text IS NULL OR l.provider = :provider)
    AND (cardinality(:projects::text[]) = 0 OR l.project_id = ANY(:projects))
    AND (:viewer::jsonb IS NULL OR (l.usage_date, l.project_id) IN (SELECT usage_date, project_id FROM viewer_allowed_days(:customer, :account, :from, :to, :viewer)))
  GROUP BY 1, l.project_id, l.currency, r.rate, r.rate_date, r.source, l.label_value
), cells AS (
  -- The unlabelled rest as tot minus lab, summed in the final grouping rather than joined per day and project (as
  -- billing-label-cells.sql does): sums are linear, so the result is the same, and no join of two large aggregates
  -- can be planned as a nested loop (this export took over 60 s on 5M lines right after an ingest).
  SELECT lab.bucket, lab.project_id, lab.currency, lab.rate, lab.rate_date, lab.source, lab.label_value, lab.s FROM lab
  UNION ALL
  SELECT tot.bucket, tot.project_id, tot.currency, tot.rate, tot.rate_date, tot.source, NULL, tot.s FROM tot
  UNION ALL
  SELECT lab.bucket, lab.project_id, lab.currency, lab.rate, lab.rate_date, lab.source, NULL, -lab.s FROM lab
), names AS (
  SELECT project_id, substr(max(dated_name COLLATE "C"), 11) AS project_name FROM tot GROUP BY project_id
)
SELECT CASE WHEN :granularity = 'month' THEN to_char(c.bucket, 'YYYY-MM') ELSE to_char(c.bucket, 'YYYY-MM-DD') END AS bucket,
  c.project_id, coalesce(max(n.project_name), c.project_id) AS project_name, c.label_value, c.currency, sum(c.s)::text AS original,
  CASE WHEN c.currency = :currency THEN '1' ELSE c.rate::text END AS rate,
  to_char(c.rate_date, 'YYYY-MM-DD') AS rate_date, c.source,
  -- a sum times its one rate: exactly the sum of each day's amount times that rate
  CASE WHEN c.currency = :currency THEN sum(c.s) ELSE sum(c.s) * c.rate END::text AS spend
FROM cells c
LEFT JOIN names n USING (project_id)
GROUP BY c.bucket, c.project_id, c.label_value, c.currency, c.rate, c.rate_date, c.source
HAVING sum(c.s) <> 0 OR c.label_value IS NOT NULL
ORDER BY c.bucket, c.project_id, c.label_value, c.currency, c.rate_date NULLS FIRST
