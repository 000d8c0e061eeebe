-- System Health figures per project (and currency) of one customer, over all of its billing accounts.
-- $1 customer_id, $2 today (US/Pacific date), $3 anomaly date (spec 000 §9: two days before today).
-- Spend is cost + credits. Yesterday's spend is compared with the mean daily spend of the 28 days before yesterday,
-- taken (as anomaly detection does) over the days since the project was first seen in those 28 days, days without a
-- rollup row counting 0. Month to date runs from the first of today's month to today, as the alert evaluation does.
-- Open anomalies: those of the anomaly date that pass the customer's current thresholds (what the Anomaly Detection
-- screen shows by default).
WITH acct AS (
  SELECT a.billing_account_id, c.minimum_anomaly_threshold, c.minimum_value_toggled_anomaly
    FROM customer c CROSS JOIN LATERAL unnest(c.billing_account_ids) AS a(billing_account_id)
   WHERE c.customer_id = $1
), bounds AS (
  SELECT $2::date - 1 AS yesterday, date_trunc('month', $2::date)::date AS month_start
), proj AS (
  SELECT d.project_id, d.currency, max(d.project_name) AS project_name,
         COALESCE(sum(d.cost + d.credits) FILTER (WHERE d.usage_date = b.yesterday), 0) AS yesterday_spend,
         min(d.usage_date) FILTER (WHERE d.usage_date BETWEEN b.yesterday - 28 AND b.yesterday - 1) AS first_seen,
         COALESCE(sum(d.cost + d.credits) FILTER (WHERE d.usage_date BETWEEN b.yesterday - 28 AND b.yesterday - 1), 0) AS hist_sum,
         COALESCE(sum(d.cost + d.credits) FILTER (WHERE d.usage_date >= b.month_start), 0) AS month_to_date
    FROM cost_daily d CROSS JOIN bounds b
   WHERE d.customer_id = $1 AND d.billing_account_id IN (SELECT billing_account_id FROM acct)
     AND d.usage_date BETWEEN least(b.month_start, b.yesterday - 28) AND $2::date
   GROUP BY d.project_id, d.currency
), anomalies AS (
  SELECT x.project_id, x.currency, count(*)::int AS n
    FROM anomaly x JOIN acct a ON a.billing_account_id = x.billing_account_id
   WHERE x.customer_id = $1 AND x.date = $3::date
     AND anomaly_exceeds(x.mean_cost, x.to_date_cost, x.project_mean_cost, x.project_to_date_cost,
                         a.minimum_anomaly_threshold, a.minimum_value_toggled_anomaly)
   GROUP BY x.project_id, x.currency
)
SELECT p.project_id, p.project_name, p.currency,
       round(p.yesterday_spend, 2)::text AS yesterday_spend,
       round(CASE WHEN p.first_seen IS NULL THEN 0 ELSE p.hist_sum / (b.yesterday - p.first_seen) END, 2)::text AS mean_28d,
       CASE WHEN p.first_seen IS NULL THEN 0 ELSE b.yesterday - p.first_seen END AS mean_days,
       round(p.month_to_date, 2)::text AS month_to_date,
       COALESCE(x.n, 0) AS open_anomalies
  FROM proj p CROSS JOIN bounds b
  LEFT JOIN anomalies x ON x.project_id = p.project_id AND x.currency = p.currency
 ORDER BY p.project_id, p.currency
