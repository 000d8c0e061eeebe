-- System Health figures per project of one customer, over all of its billing accounts, in the customer's display
-- currency (billing_currency): every rollup row converted at its usage day's rate, as the dashboard does; a row of a
-- currency without a rate within 7 days is in no figure (monitoring-figures.ts reports it apart, per currency).
-- $1 customer_id, $2 today (US/Pacific date), $3 anomaly date (spec 000 §9: two days before today), $4 a
-- customerViewer's filters jsonb [{label_key, label_value}] (NULL = unrestricted).
-- A viewer's rows are those of the first billing account (his only one: spec 001 §9, the picker is hidden for him)
-- and of the (day, project) pairs his filters admit there (viewer_allowed_days, as every billing read applies it);
-- his open anomalies those the Anomaly Detection screen shows him: of projects that carried one of his labels
-- during the run's window.
-- Spend is cost + credits. Yesterday's spend is compared with the mean daily spend of the 28 days before yesterday,
-- taken (as anomaly detection does) over the days since the project was first seen in those 28 days, days without a
-- rollup row counting 0. Month to date runs from the first of today's month to yesterday, as the billing dashboard's
-- (the day under way is not in it), so both screens show one figure; the alerts' own runs to today (alerts.ts).
-- Open anomalies: those of the anomaly date that pass the customer's current thresholds (what the Anomaly Detection
-- screen shows by default), judged on their figures converted into the display currency (anomaly-display.ts).
WITH acct AS (
  SELECT a.billing_account_id, c.minimum_anomaly_threshold, c.minimum_value_toggled_anomaly, c.billing_currency AS display
    FROM customer c CROSS JOIN LATERAL unnest(c.billing_account_ids) WITH ORDINALITY AS a(billing_account_id, n)
   WHERE c.customer_id = $1 AND ($4::jsonb IS NULL OR a.n = 1)
), bounds AS (
  SELECT $2::date - 1 AS yesterday, date_trunc('month', $2::date)::date AS month_start,
         least(date_trunc('month', $2::date)::date, $2::date - 29) AS first_day
), rates AS (
  SELECT a.billing_account_id, r.currency, r.day, r.rate
    FROM acct a CROSS JOIN bounds b CROSS JOIN LATERAL fx_day_rates(a.display, a.billing_account_id, b.first_day, $2::date) r
   WHERE r.rate IS NOT NULL
), allowed AS (
  SELECT a.billing_account_id, v.usage_date, v.project_id
    FROM acct a CROSS JOIN bounds b CROSS JOIN LATERAL viewer_allowed_days($1, a.billing_account_id, b.first_day, $2::date, $4::jsonb) v
   WHERE $4::jsonb IS NOT NULL
), converted AS (
  SELECT d.project_id, d.project_name, d.usage_date, (d.cost + d.credits) * coalesce(r.rate, 1) AS spend, a.display
    FROM cost_daily d CROSS JOIN bounds b
    JOIN acct a ON a.billing_account_id = d.billing_account_id
    LEFT JOIN rates r ON r.billing_account_id = d.billing_account_id AND r.currency = d.currency AND r.day = d.usage_date
   WHERE d.customer_id = $1 AND d.usage_date BETWEEN b.first_day AND $2::date
     AND (d.currency = a.display OR r.rate IS NOT NULL)
     AND ($4::jsonb IS NULL OR EXISTS (SELECT 1 FROM allowed v WHERE v.billing_account_id = d.billing_account_id
                                          AND v.usage_date = d.usage_date AND v.project_id = d.project_id))
), proj AS (
  SELECT d.project_id, max(d.display) AS currency, max(d.project_name) AS project_name,
         COALESCE(sum(d.spend) FILTER (WHERE d.usage_date = b.yesterday), 0) AS yesterday_spend,
         min(d.usage_date) FILTER (WHERE d.usage_date BETWEEN b.yesterday - 28 AND b.yesterday - 1) AS first_seen,
         COALESCE(sum(d.spend) FILTER (WHERE d.usage_date BETWEEN b.yesterday - 28 AND b.yesterday - 1), 0) AS hist_sum,
         COALESCE(sum(d.spend) FILTER (WHERE d.usage_date >= b.month_start AND d.usage_date < $2::date), 0) AS month_to_date
    FROM converted d CROSS JOIN bounds b
   GROUP BY d.project_id
), anomalies AS (
  SELECT x.project_id, count(*)::int AS n
    FROM anomaly x JOIN acct a ON a.billing_account_id = x.billing_account_id
    LEFT JOIN LATERAL fx_rate_on(x.currency, a.display, x.date) r ON x.currency <> a.display
    CROSS JOIN LATERAL (SELECT CASE WHEN x.currency = a.display THEN 1 ELSE r.rate END AS rate) k
   WHERE x.customer_id = $1 AND x.date = $3::date AND k.rate IS NOT NULL
     AND ($4::jsonb IS NULL OR x.project_id IN (
           SELECT v.project_id FROM anomaly_run w
            CROSS JOIN LATERAL viewer_allowed_days($1, x.billing_account_id, $3::date - w.window_days, $3::date, $4::jsonb) v
            WHERE w.customer_id = $1 AND w.billing_account_id = x.billing_account_id AND w.date = $3::date))
     AND anomaly_exceeds(x.mean_cost * k.rate, x.to_date_cost * k.rate, x.project_mean_cost * k.rate, x.project_to_date_cost * k.rate,
                         a.minimum_anomaly_threshold, a.minimum_value_toggled_anomaly)
   GROUP BY x.project_id
)
SELECT p.project_id, p.project_name, p.currency,
       round(p.yesterday_spend, 2)::text AS yesterday_spend,
       round(CASE WHEN p.first_seen IS NULL THEN 0 ELSE p.hist_sum / (b.yesterday - p.first_seen) END, 2)::text AS mean_28d,
       CASE WHEN p.first_seen IS NULL THEN 0 ELSE b.yesterday - p.first_seen END AS mean_days,
       round(p.month_to_date, 2)::text AS month_to_date,
       COALESCE(x.n, 0) AS open_anomalies
  FROM proj p CROSS JOIN bounds b
  LEFT JOIN anomalies x ON x.project_id = p.project_id
 ORDER BY p.project_id
