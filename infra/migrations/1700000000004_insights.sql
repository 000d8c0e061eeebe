-- Up Migration
-- Insights: detected spend anomalies (with one run record per account and day), billing alerts on month-to-date spend,
-- and the notices e-mailed when an alert's quota is first exceeded in a billing month. Viewer filters reuse
-- viewer_filter (foundation). Decisions: docs/decisions-insights.md.

-- One detection run per (account, judged day): the screen tells "not computed" apart from "nothing found".
CREATE TABLE anomaly_run (
  customer_id text NOT NULL REFERENCES customer(customer_id) ON DELETE CASCADE,
  billing_account_id text NOT NULL,
  date date NOT NULL,
  computed_at timestamptz NOT NULL DEFAULT now(),
  window_days integer NOT NULL,
  min_history_days integer NOT NULL,
  judged_series integer NOT NULL,
  cold_start_series integer NOT NULL,
  PRIMARY KEY (customer_id, billing_account_id, date)
);

-- Candidate rows of a run: judged project x service series whose spend rose above the trailing mean. The api filters
-- them by the thresholds of the request; `flagged` says they met the customer's own thresholds when detected (those
-- are e-mailed). A re-run of the same day upserts on the natural key, so ids and notified_at survive.
CREATE TABLE anomaly (
  id bigserial PRIMARY KEY,
  customer_id text NOT NULL,
  billing_account_id text NOT NULL,
  date date NOT NULL,
  project_id text NOT NULL,
  service text NOT NULL,
  currency text NOT NULL,
  mean_cost numeric(24,12) NOT NULL,
  to_date_cost numeric(24,12) NOT NULL,
  -- the whole project's figures, so spend moving between services (no project increase) is not reported
  project_mean_cost numeric(24,12) NOT NULL,
  project_to_date_cost numeric(24,12) NOT NULL,
  flagged boolean NOT NULL DEFAULT false,
  notified_at timestamptz,
  UNIQUE (customer_id, billing_account_id, date, project_id, service, currency),
  FOREIGN KEY (customer_id, billing_account_id, date) REFERENCES anomaly_run(customer_id, billing_account_id, date) ON DELETE CASCADE
);

-- The anomaly rule, in one place for the detection job (customer thresholds) and the api (thresholds of the request):
-- the series rose by at least min_value money and min_perc percent of its mean (a mean of 0 or below has no percentage:
-- money alone decides), and its whole project rose by at least min_value too, so spend that only moved between services
-- of a project is not an anomaly.
CREATE FUNCTION anomaly_exceeds(mean numeric, latest numeric, project_mean numeric, project_latest numeric, min_perc numeric, min_value numeric)
RETURNS boolean LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT latest > mean
     AND latest - mean >= min_value
     AND (mean <= 0 OR (latest - mean) * 100 >= min_perc * mean)
     AND project_latest > project_mean
     AND project_latest - project_mean >= min_value
$$;

-- group_by 'service' is the spec's Total: no label. Alerts apply to the customer's first billing account.
CREATE TABLE alert (
  id bigserial PRIMARY KEY,
  customer_id text NOT NULL REFERENCES customer(customer_id) ON DELETE CASCADE,
  group_by text NOT NULL CHECK (group_by IN ('service', 'project_label', 'resource_label')),
  label_key text NOT NULL DEFAULT '',
  label_value text NOT NULL DEFAULT '',
  quota numeric(24,12) NOT NULL CHECK (quota >= 0),
  created_by text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL DEFAULT now(),
  CHECK ((group_by = 'service') = (label_key = '' AND label_value = ''))
);
CREATE INDEX alert_customer_idx ON alert (customer_id, id);

-- First crossing of a quota per alert and billing month (US/Pacific): the unique key makes it once, whatever retries.
CREATE TABLE alert_notice (
  id bigserial PRIMARY KEY,
  alert_id bigint NOT NULL REFERENCES alert(id) ON DELETE CASCADE,
  customer_id text NOT NULL REFERENCES customer(customer_id) ON DELETE CASCADE,
  month text NOT NULL CHECK (month ~ '^\d{4}-\d{2}$'),
  billing_account_id text NOT NULL,
  spend numeric(24,12) NOT NULL,
  quota numeric(24,12) NOT NULL,
  currency text NOT NULL,
  evaluated_day date NOT NULL,
  recipients text[] NOT NULL DEFAULT '{}',
  notified_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (alert_id, month)
);
CREATE INDEX alert_notice_customer_idx ON alert_notice (customer_id, created_at DESC);

-- Down Migration
DROP TABLE alert_notice;
DROP TABLE alert;
DROP FUNCTION anomaly_exceeds(numeric, numeric, numeric, numeric, numeric, numeric);
DROP TABLE anomaly;
DROP TABLE anomaly_run;
