-- The rows of billing-label-export-rows.sql by month, over the months $3..$4 up to the day $11 of the last one, for
-- callers without a viewer restriction (the restriction is per day and project, which only the daily rollups can
-- apply), as billing-label-cells-monthly.sql reads the label chart: rows already in the display currency come from the
-- monthly rollups (rate 1, no fixing), the last month's too when none of its days after $11 has spend, else its days up
-- to $11 from the daily rollups; rows in another currency from the daily ones, each day with its rate, grouped by the
-- rate as the daily export groups them (a NULL rate: none within 7 days, shown, never added). A project's name is the
-- one of its latest month.
-- $1 customer_id, $2 billing_account_id, $3 first month (yyyy-MM-01), $4 last month (yyyy-MM-01),
-- $5 provider (NULL = all), $6 projects text[] (empty = all), $7 display currency, $8 cost basis,
-- $9 label_kind, $10 label_key, $11 last day (in $4's month)
WITH tail AS (
  -- whether the last month's monthly rows are its days up to $11: no later day of it has spend (any provider)
  SELECT NOT EXISTS (
    SELECT 1 FROM cost_daily x
    WHERE x.billing_account_id = $2 AND x.usage_date > $11::date AND x.usage_date < $4::date + interval '1 month' AND x.customer_id = $1
  ) AS whole
), r AS (
  SELECT * FROM fx_day_rates($7, $2, $3::date, $11::date)
), tot AS (
  SELECT m.month, m.project_id, m.currency, NULL::numeric AS rate, NULL::date AS rate_date, NULL::text AS source,
    max((m.month::text || m.project_name) COLLATE "C") AS dated_name, sum(basis_spend($8, m.cost, m.credits, m.amortisation)) AS s
  FROM cost_monthly m
  WHERE m.customer_id = $1 AND m.billing_account_id = $2 AND m.month BETWEEN $3 AND $4 AND m.currency = $7
    AND (m.month < $4 OR (SELECT whole FROM tail))
    AND ($5::text IS NULL OR m.provider = $5)
    AND (cardinality($6::text[]) = 0 OR m.project_id = ANY($6))
  GROUP BY m.month, m.project_id, m.currency
  UNION ALL
  SELECT $4::date, d.project_id, d.currency, NULL::numeric, NULL::date, NULL::text,
    max((d.usage_date::text || d.project_name) COLLATE "C"), sum(basis_spend($8, d.cost, d.credits, d.amortisation))
  FROM cost_daily d
  WHERE NOT (SELECT whole FROM tail)
    AND d.customer_id = $1 AND d.billing_account_id = $2 AND d.currency = $7 AND d.usage_date BETWEEN $4 AND $11
    AND ($5::text IS NULL OR d.provider = $5)
    AND (cardinality($6::text[]) = 0 OR d.project_id = ANY($6))
  GROUP BY d.project_id, d.currency
  UNION ALL
  SELECT date_trunc('month', d.usage_date)::date, d.project_id, d.currency, r.rate, r.rate_date, r.source,
    max((date_trunc('month', d.usage_date)::date::text || d.project_name) COLLATE "C"), sum(basis_spend($8, d.cost, d.credits, d.amortisation))
  FROM cost_daily d
  LEFT JOIN r ON r.currency = d.currency AND r.day = d.usage_date
  WHERE d.customer_id = $1 AND d.billing_account_id = $2 AND (d.currency < $7 OR d.currency > $7)
    AND d.usage_date BETWEEN $3 AND $11
    AND ($5::text IS NULL OR d.provider = $5)
    AND (cardinality($6::text[]) = 0 OR d.project_id = ANY($6))
  GROUP BY 1, d.project_id, d.currency, r.rate, r.rate_date, r.source
), lab AS (
  SELECT m.month, m.project_id, m.currency, NULL::numeric AS rate, NULL::date AS rate_date, NULL::text AS source, m.label_value,
    sum(basis_spend($8, m.cost, m.credits, m.amortisation)) AS s
  FROM cost_monthly_label m
  WHERE m.billing_account_id = $2 AND m.label_kind = $9 AND m.label_key = $10 AND m.month BETWEEN $3 AND $4
    AND m.customer_id = $1 AND m.currency = $7
    AND (m.month < $4 OR (SELECT whole FROM tail))
    AND ($5::text IS NULL OR m.provider = $5)
    AND (cardinality($6::text[]) = 0 OR m.project_id = ANY($6))
  GROUP BY m.month, m.project_id, m.currency, m.label_value
  UNION ALL
  SELECT $4::date, l.project_id, l.currency, NULL::numeric, NULL::date, NULL::text, l.label_value,
    sum(basis_spend($8, l.cost, l.credits, l.amortisation))
  FROM cost_daily_label l
  WHERE NOT (SELECT whole FROM tail)
    AND l.customer_id = $1 AND l.billing_account_id = $2 AND l.currency = $7 AND l.usage_date BETWEEN $4 AND $11
    AND l.label_kind = $9 AND l.label_key = $10
    AND ($5::text IS NULL OR l.provider = $5)
    AND (cardinality($6::text[]) = 0 OR l.project_id = ANY($6))
  GROUP BY l.project_id, l.currency, l.label_value
  UNION ALL
  SELECT date_trunc('month', l.usage_date)::date, l.project_id, l.currency, r.rate, r.rate_date, r.source, l.label_value,
    sum(basis_spend($8, l.cost, l.credits, l.amortisation))
  FROM cost_daily_label l
  LEFT JOIN r ON r.currency = l.currency AND r.day = l.usage_date
  WHERE l.customer_id = $1 AND l.billing_account_id = $2 AND l.currency <> $7
    AND EXISTS (SELECT 1 FROM r) -- a one-time check: no other currency, no scan
    AND l.label_kind = $9 AND l.label_key = $10
    AND l.usage_date BETWEEN $3 AND $11
    AND ($5::text IS NULL OR l.provider = $5)
    AND (cardinality($6::text[]) = 0 OR l.project_id = ANY($6))
  GROUP BY 1, l.project_id, l.currency, r.rate, r.rate_date, r.source, l.label_value
), cells AS (
  -- the unlabelled rest as tot minus lab, summed in the grouping below (billing-label-cells.sql says why)
  SELECT lab.month, lab.project_id, lab.currency, lab.rate, lab.rate_date, lab.source, lab.label_value, lab.s FROM lab
  UNION ALL
  SELECT tot.month, tot.project_id, tot.currency, tot.rate, tot.rate_date, tot.source, NULL, tot.s FROM tot
  UNION ALL
  SELECT lab.month, lab.project_id, lab.currency, lab.rate, lab.rate_date, lab.source, NULL, -lab.s FROM lab
), names AS (
  SELECT project_id, substr(max(dated_name COLLATE "C"), 11) AS project_name FROM tot GROUP BY project_id
)
SELECT to_char(c.month, 'YYYY-MM') AS bucket, c.project_id, coalesce(max(n.project_name), c.project_id) AS project_name,
  c.label_value, c.currency, sum(c.s)::text AS original,
  CASE WHEN c.currency = $7 THEN '1' ELSE c.rate::text END AS rate,
  to_char(c.rate_date, 'YYYY-MM-DD') AS rate_date, c.source,
  CASE WHEN c.currency = $7 THEN sum(c.s) ELSE sum(c.s) * c.rate END::text AS spend
FROM cells c
LEFT JOIN names n USING (project_id)
GROUP BY c.month, c.project_id, c.label_value, c.currency, c.rate, c.rate_date, c.source
HAVING sum(c.s) <> 0 OR c.label_value IS NOT NULL
ORDER BY c.month, c.project_id, c.label_value, c.currency, c.rate_date NULLS FIRST
