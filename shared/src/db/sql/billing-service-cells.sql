-- Spend per (bucket, project, service) over a range.
-- $1 customer_id, $2 billing_account_id, $3 from, $4 to, $5 provider (NULL = all), $6 projects text[] (empty = all),
-- $7 viewer filters jsonb (NULL = unrestricted), $8 'day' | 'month', $9 services text[] (empty = all)
SELECT CASE WHEN $8 = 'month' THEN to_char(d.usage_date, 'YYYY-MM') ELSE to_char(d.usage_date, 'YYYY-MM-DD') END AS bucket,
  d.project_id, max(d.project_name) AS project_name, d.service,
  sum(d.cost)::text AS cost, sum(d.credits)::text AS credits, sum(d.cost + d.credits)::text AS spend
FROM cost_daily d
WHERE d.customer_id = $1 AND d.billing_account_id = $2 AND d.usage_date BETWEEN $3 AND $4
  AND ($5::text IS NULL OR d.provider = $5)
  AND (cardinality($6::text[]) = 0 OR d.project_id = ANY($6))
  AND (cardinality($9::text[]) = 0 OR d.service = ANY($9))
  AND ($7::jsonb IS NULL OR EXISTS (
    SELECT 1 FROM cost_daily_label v
    JOIN jsonb_to_recordset($7::jsonb) AS f(label_key text, label_value text)
      ON v.label_key = f.label_key AND v.label_value = f.label_value
    WHERE v.customer_id = d.customer_id AND v.billing_account_id = d.billing_account_id AND v.usage_date = d.usage_date
      AND v.label_kind = 'project' AND v.project_id = d.project_id))
GROUP BY 1, d.project_id, d.service
ORDER BY 1, d.project_id, d.service
