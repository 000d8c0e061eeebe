-- Spend per day over a range, with the same filters as the chart cells.
-- $1 customer_id, $2 billing_account_id, $3 from, $4 to, $5 provider (NULL = all), $6 projects text[] (empty = all),
-- $7 viewer filters jsonb (NULL = unrestricted), $8 services text[] (empty = all)
SELECT to_char(d.usage_date, 'YYYY-MM-DD') AS day, sum(d.cost + d.credits)::text AS spend
FROM cost_daily d
WHERE d.customer_id = $1 AND d.billing_account_id = $2 AND d.usage_date BETWEEN $3 AND $4
  AND ($5::text IS NULL OR d.provider = $5)
  AND (cardinality($6::text[]) = 0 OR d.project_id = ANY($6))
  AND (cardinality($8::text[]) = 0 OR d.service = ANY($8))
  AND ($7::jsonb IS NULL OR EXISTS (
    SELECT 1 FROM cost_daily_label v
    JOIN jsonb_to_recordset($7::jsonb) AS f(label_key text, label_value text)
      ON v.label_key = f.label_key AND v.label_value = f.label_value
    WHERE v.customer_id = d.customer_id AND v.billing_account_id = d.billing_account_id AND v.usage_date = d.usage_date
      AND v.label_kind = 'project' AND v.project_id = d.project_id))
GROUP BY d.usage_date
ORDER BY d.usage_date
