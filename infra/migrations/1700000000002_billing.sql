-- Up Migration
-- Billing: cost lines from every source (GCP export, FOCUS files), their ingest batches, and the daily rollups the
-- dashboard reads. Money is numeric(24,12): FOCUS files carry 11 decimals (the fixture has values whose 11th decimal
-- is not 0), so numeric(24,10) would round them and per-provider totals would no longer be exact. 12 integer digits
-- are left, far above any single line or daily rollup.

CREATE TABLE ingest_batch (
  id bigserial PRIMARY KEY,
  customer_id text NOT NULL REFERENCES customer(customer_id) ON DELETE CASCADE,
  billing_account_id text NOT NULL,
  source text NOT NULL CHECK (source IN ('focus-file', 'gcp-generated', 'bigquery')),
  file_name text,
  file_hash text,
  -- running until it ends; a process killed mid-run leaves 'running' behind, and its retry is a new batch
  status text NOT NULL DEFAULT 'running' CHECK (status IN ('running', 'succeeded', 'rejected', 'failed')),
  row_count bigint NOT NULL DEFAULT 0,
  days_replaced integer NOT NULL DEFAULT 0,
  started_at timestamptz NOT NULL DEFAULT now(),
  finished_at timestamptz,
  -- rejected: {"errors":[{"line":n,"reason":"…"}], "error_count": n}; failed: {"message":"…"}
  error jsonb
);
CREATE INDEX ingest_batch_account_idx ON ingest_batch (billing_account_id, started_at DESC);
CREATE INDEX ingest_batch_customer_idx ON ingest_batch (customer_id);

CREATE TABLE cost_line (
  id bigserial PRIMARY KEY,
  customer_id text NOT NULL REFERENCES customer(customer_id) ON DELETE CASCADE,
  -- gcp, aws, azure, or the FOCUS ProviderName lower-cased with non-alphanumerics as '-' (e.g. oracle)
  provider text NOT NULL CHECK (provider ~ '^[a-z0-9]+(-[a-z0-9]+)*$'),
  provider_name text NOT NULL,
  billing_account_id text NOT NULL,
  -- the US/Pacific day of the usage (spec: billing days are US/Pacific)
  usage_date date NOT NULL,
  project_id text NOT NULL DEFAULT '',
  project_name text NOT NULL DEFAULT '',
  service text NOT NULL DEFAULT '',
  sku text NOT NULL DEFAULT '',
  -- gross cost; credits are negative; spend = cost + credits
  cost numeric(24,12) NOT NULL,
  credits numeric(24,12) NOT NULL DEFAULT 0,
  currency text NOT NULL CHECK (currency ~ '^[A-Z]{3}$'),
  invoice_month text,
  cost_type text,
  project_labels jsonb NOT NULL DEFAULT '{}',
  resource_labels jsonb NOT NULL DEFAULT '{}',
  source_batch bigint NOT NULL REFERENCES ingest_batch(id)
);
-- Slice replacement deletes by (account, day); the dashboard reads ranges of days per account.
CREATE INDEX cost_line_account_day_idx ON cost_line (billing_account_id, usage_date);
CREATE INDEX cost_line_batch_idx ON cost_line (source_batch);

CREATE TABLE cost_daily (
  customer_id text NOT NULL REFERENCES customer(customer_id) ON DELETE CASCADE,
  billing_account_id text NOT NULL,
  usage_date date NOT NULL,
  provider text NOT NULL,
  provider_name text NOT NULL,
  project_id text NOT NULL,
  project_name text NOT NULL,
  service text NOT NULL,
  cost numeric(24,12) NOT NULL,
  credits numeric(24,12) NOT NULL,
  currency text NOT NULL,
  PRIMARY KEY (billing_account_id, usage_date, customer_id, provider, project_id, service, currency)
);

CREATE TABLE cost_daily_label (
  customer_id text NOT NULL REFERENCES customer(customer_id) ON DELETE CASCADE,
  billing_account_id text NOT NULL,
  usage_date date NOT NULL,
  provider text NOT NULL,
  label_kind text NOT NULL CHECK (label_kind IN ('project', 'resource')),
  label_key text NOT NULL,
  label_value text NOT NULL,
  project_id text NOT NULL,
  cost numeric(24,12) NOT NULL,
  credits numeric(24,12) NOT NULL,
  currency text NOT NULL,
  PRIMARY KEY (billing_account_id, usage_date, customer_id, provider, label_kind, label_key, label_value, project_id, currency)
);
CREATE INDEX cost_daily_label_key_idx ON cost_daily_label (billing_account_id, label_kind, label_key, usage_date);

-- Down Migration
DROP TABLE cost_daily_label;
DROP TABLE cost_daily;
DROP TABLE cost_line;
DROP TABLE ingest_batch;
