-- Spend of one label key per (bucket, project, label value) over a range, plus each project's unlabelled rest
-- (label_value NULL) = its total in cost_daily minus its labelled spend. Project labels are per project and day,
-- so the rest is exact for them; for resource labels a line carries a key at most once, so it is exact too.
-- $1 customer_id, $2 billing_account_id, $3 from, $4 to, $5 provider (NULL = all), $6 projects text[] (empty = all),
-- $7 viewer filters jsonb [{label_key,label_value}] (NULL = unrestricted), $8 'day' | 'month',
-- $9 label_kind, $10 label_key, $11 display currency
-- $12 cost basis: 'billed' (cost + credits) or 'amortised' (plus amortisation, migration 075)
-- Amounts are in the display currency, each rollup row converted at its usage day's rate (as the service cells);
-- rows of a currency without a rate within 7 days are left out of both the totals and the labelled spend.
WITH r AS (
  SELECT * FROM fx_day_rates($11, $2, $3, $4)
), tot AS (
  -- Grouped by the answer's bucket directly (a month, not each day): the rest below is a plain sum, so nothing needs
  -- the days, and a 12-month answer aggregates months (issue 19). The name is the project's latest day's.
  SELECT CASE WHEN $8 = 'month' THEN to_char(d.usage_date, 'YYYY-MM') ELSE to_char(d.usage_date, 'YYYY-MM-DD') END AS bucket, d.project_id,
    (array_agg(d.project_name ORDER BY d.usage_date DESC, d.project_name DESC))[1] AS project_name,
    sum(basis_spend($12, d.cost, d.credits, d.amortisation) * coalesce(r.rate, 1)) AS s
  FROM cost_daily d
  LEFT JOIN r ON r.currency = d.currency AND r.day = d.usage_date
  WHERE d.customer_id = $1 AND d.billing_account_id = $2 AND d.usage_date BETWEEN $3 AND $4
    AND (d.currency = $11 OR r.rate IS NOT NULL)
    AND ($5::text IS NULL OR d.provider = $5)
    AND (cardinality($6::text[]) = 0 OR d.project_id = ANY($6))
    AND ($7::jsonb IS NULL OR (d.usage_date, d.project_id) IN (SELECT usage_date, project_id FROM viewer_allowed_days($1, $2, $3, $4, $7)))
  GROUP BY 1, d.project_id
), lab AS (
  SELECT CASE WHEN $8 = 'month' THEN to_char(l.usage_date, 'YYYY-MM') ELSE to_char(l.usage_date, 'YYYY-MM-DD') END AS bucket, l.project_id, l.label_value,
    sum(basis_spend($12, l.cost, l.credits, l.amortisation) * coalesce(r.rate, 1)) AS s
  FROM cost_daily_label l
  LEFT JOIN r ON r.currency = l.currency AND r.day = l.usage_date
  WHERE l.customer_id = $1 AND l.billing_account_id = $2 AND l.usage_date BETWEEN $3 AND $4
    AND (l.currency = $11 OR r.rate IS NOT NULL)
    AND l.label_kind = $9 AND l.label_key = $10
    AND ($5::text IS NULL OR l.provider = $5)
    AND (cardinality($6::text[]) = 0 OR l.project_id = ANY($6))
    AND ($7::jsonb IS NULL OR (l.usage_date, l.project_id) IN (SELECT usage_date, project_id FROM viewer_allowed_days($1, $2, $3, $4, $7)))
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
)
SELECT c.bucket,
  c.project_id, coalesce(max(n.project_name), c.project_id) AS project_name, c.label_value, sum(c.s)::text AS spend
FROM cells c
LEFT JOIN (SELECT DISTINCT ON (project_id) project_id, project_name FROM tot ORDER BY project_id, bucket DESC) n USING (project_id)
GROUP BY c.bucket, c.project_id, c.label_value
HAVING sum(c.s) <> 0 OR c.label_value IS NOT NULL
ORDER BY c.bucket, c.project_id, c.label_value
