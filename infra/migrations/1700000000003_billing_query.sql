-- Up Migration
-- Monthly rollup of cost_daily for the dashboard's month bars and monthly discount rows: a 12-month chart of a big
-- account reads about 30× fewer rows than from the daily rollup. Rebuilt by the billing ingest, in the same
-- transaction, for the months of the days it replaced (from cost_daily, so it always agrees with it).

CREATE TABLE cost_monthly (
  customer_id text NOT NULL REFERENCES customer(customer_id) ON DELETE CASCADE,
  billing_account_id text NOT NULL,
  -- first day of the US/Pacific calendar month
  month date NOT NULL CHECK (extract(day FROM month) = 1),
  provider text NOT NULL,
  provider_name text NOT NULL,
  project_id text NOT NULL,
  project_name text NOT NULL,
  service text NOT NULL,
  cost numeric(24,12) NOT NULL,
  credits numeric(24,12) NOT NULL,
  currency text NOT NULL,
  PRIMARY KEY (billing_account_id, month, customer_id, provider, project_id, service, currency)
);

INSERT INTO cost_monthly (customer_id, billing_account_id, month, provider, provider_name, project_id, project_name,
  service, cost, credits, currency)
SELECT customer_id, billing_account_id, date_trunc('month', usage_date)::date, provider, max(provider_name), project_id,
  max(project_name), service, sum(cost), sum(credits), currency
FROM cost_daily
GROUP BY customer_id, billing_account_id, date_trunc('month', usage_date)::date, provider, project_id, service, currency;

-- Down Migration
DROP TABLE cost_monthly;
