-- One pass over the cost_daily rollups for every project x service series of every account in anomaly_accounts.
-- Fills the temp table anomaly_series (created by the repository).
-- $1 judged day (date), $2 window days (int), $3 minimum days of history (int).
-- A series' history is its spend (on the customer's billing_cost_basis: billed cost + credits, or amortised, migration
-- 075; in the customer's billing currency) on the window's days before $1; days without a rollup row spent 0.
-- Its mean is taken over the days since it was first seen in the window, so a series younger than the window is not
-- diluted; a series seen for fewer than $3 days before $1 (or only on $1) is cold: stored as not judged.
INSERT INTO anomaly_series (customer_id, billing_account_id, project_id, service, currency, judged, mean_cost, to_date_cost,
                            project_mean_cost, project_to_date_cost, candidate, first_seen)
WITH accounts AS (
  SELECT a.customer_id, a.billing_account_id, c.billing_currency AS display, c.billing_cost_basis AS basis
    FROM anomaly_accounts a JOIN customer c ON c.customer_id = a.customer_id
), rates AS (
  -- every (account, foreign currency, day) of the window with its rate into the customer's display currency
  SELECT a.billing_account_id, r.currency, r.day, r.rate
    FROM accounts a CROSS JOIN LATERAL fx_day_rates(a.display, a.billing_account_id, $1::date - $2::int, $1::date) r
   WHERE r.rate IS NOT NULL
), series AS (
  -- Series are judged in the display currency: each day's spend converted at that day's rate (a day without a rate
  -- within 7 days is left out, as on the dashboard), so a series in USD and one in EUR are one series in EUR.
  SELECT d.customer_id, d.billing_account_id, d.project_id COLLATE "C" AS project_id, d.service COLLATE "C" AS service, a.display AS currency,
         min(d.usage_date) FILTER (WHERE d.usage_date < $1::date) AS first_seen,
         COALESCE(sum(basis_spend(a.basis, d.cost, d.credits, d.amortisation) * coalesce(r.rate, 1)) FILTER (WHERE d.usage_date < $1::date), 0) AS hist_sum,
         COALESCE(sum(basis_spend(a.basis, d.cost, d.credits, d.amortisation) * coalesce(r.rate, 1)) FILTER (WHERE d.usage_date = $1::date), 0) AS latest
    FROM cost_daily d
    JOIN accounts a ON a.customer_id = d.customer_id AND a.billing_account_id = d.billing_account_id
    LEFT JOIN rates r ON r.billing_account_id = d.billing_account_id AND r.currency = d.currency AND r.day = d.usage_date
   WHERE d.usage_date >= $1::date - $2::int AND d.usage_date <= $1::date
     AND (d.currency = a.display OR r.rate IS NOT NULL)
   -- byte order ("C") groups several times faster than the database's linguistic collation; the order is never shown
   GROUP BY d.customer_id, d.billing_account_id, d.project_id COLLATE "C", d.service COLLATE "C", a.display
), with_project AS (
  SELECT s.*,
         min(s.first_seen) OVER p AS project_first_seen,
         sum(s.hist_sum) OVER p AS project_hist_sum,
         sum(s.latest) OVER p AS project_latest
    FROM series s
  WINDOW p AS (PARTITION BY s.customer_id, s.billing_account_id, s.project_id, s.currency)
), figures AS (
  SELECT w.customer_id, w.billing_account_id, w.project_id, w.service, w.currency, w.first_seen,
       w.first_seen IS NOT NULL AND w.first_seen <= $1::date - $3::int AS judged,
       CASE WHEN w.first_seen IS NULL THEN 0 ELSE (w.hist_sum / ($1::date - w.first_seen))::numeric(24,12) END AS mean_cost,
       w.latest::numeric(24,12) AS to_date_cost,
       CASE WHEN w.project_first_seen IS NULL THEN 0
            ELSE (w.project_hist_sum / ($1::date - w.project_first_seen))::numeric(24,12) END AS project_mean_cost,
       w.project_latest::numeric(24,12) AS project_to_date_cost
  FROM with_project w
), judged AS (
  SELECT s.*, anomaly_exceeds(s.mean_cost, s.to_date_cost, s.project_mean_cost, s.project_to_date_cost, 0, 0) AS rose FROM figures s
)
-- candidate: judged and rose with its project; any thresholds asked later are at least 0, so nothing else can qualify
SELECT customer_id, billing_account_id, project_id, service, currency, judged, mean_cost, to_date_cost, project_mean_cost,
       project_to_date_cost, judged AND rose, first_seen
  FROM judged
