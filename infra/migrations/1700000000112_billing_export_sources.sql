-- Up Migration
-- Where a billing account's AWS or Azure spend is delivered (an AWS Data Export in S3, an Azure Cost Management
-- FOCUS export in Blob Storage), set by an admin; the nightly job reads it. The secret (AWS access key pair or an
-- Azure connection string / SAS) is sealed like the monitoring password (shared/src/secret-box.ts, associated data
-- the billing account id) and never shown back. last_* is what the data freshness line shows.
CREATE TABLE billing_export_source (
  billing_account_id text PRIMARY KEY,
  customer_id text NOT NULL REFERENCES customer(customer_id) ON DELETE CASCADE,
  kind text NOT NULL CHECK (kind IN ('aws-data-exports', 'azure-cost-exports')),
  settings jsonb NOT NULL,
  secret_sealed text,
  updated_at timestamptz NOT NULL DEFAULT now(),
  last_checked_at timestamptz,
  last_error text,
  last_delivery text
);
CREATE INDEX billing_export_source_customer ON billing_export_source (customer_id);

-- One row per billing period of an account: the delivery loaded last (its id is a hash of the manifest's and the
-- files' ETags), so an unchanged delivery is skipped and a revised one is loaded again.
CREATE TABLE billing_export_delivery (
  billing_account_id text NOT NULL REFERENCES billing_export_source(billing_account_id) ON DELETE CASCADE,
  period text NOT NULL CHECK (period ~ '^\d{4}-\d{2}$'),
  delivery_id text NOT NULL,
  manifest_key text NOT NULL,
  batch_id bigint,
  loaded_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (billing_account_id, period)
);

-- Down Migration
DROP TABLE billing_export_delivery;
DROP TABLE billing_export_source;
