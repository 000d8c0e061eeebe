-- Up Migration
-- FOCUS files as providers publish them: what a file means is recorded per batch. An export of a billing
-- period replaces what earlier exports loaded for that period ('replace'); a correction file (every row ChargeClass
-- 'Correction') adds to it ('append'); the same correction file twice is recorded as a 'duplicate' of the batch
-- that loaded it and loads nothing. Decisions: docs/decisions-billing.md, "Files: exports, corrections, duplicates".

ALTER TABLE ingest_batch ADD COLUMN mode text NOT NULL DEFAULT 'replace' CHECK (mode IN ('replace', 'append'));
-- The billing periods (YYYYMM) a 'replace' file replaced; empty for windowed sources, which replace days.
ALTER TABLE ingest_batch ADD COLUMN billing_periods text[] NOT NULL DEFAULT '{}';
ALTER TABLE ingest_batch ADD COLUMN duplicate_of bigint REFERENCES ingest_batch(id) ON DELETE SET NULL;
ALTER TABLE ingest_batch DROP CONSTRAINT ingest_batch_status_check;
ALTER TABLE ingest_batch ADD CONSTRAINT ingest_batch_status_check
  CHECK (status IN ('running', 'succeeded', 'rejected', 'failed', 'duplicate'));
-- Finding an earlier load of the same file content on the account.
CREATE INDEX ingest_batch_account_hash_idx ON ingest_batch (billing_account_id, file_hash) WHERE file_hash IS NOT NULL;

-- FOCUS ResourceId: corrections move cost between resources of one SKU and day; without it the moved amounts are
-- indistinguishable. Not part of any rollup key.
ALTER TABLE cost_line ADD COLUMN resource_id text NOT NULL DEFAULT '';
-- A file replaces the account's lines of its billing periods.
CREATE INDEX cost_line_account_invoice_month_idx ON cost_line (billing_account_id, invoice_month);

-- Down Migration
DROP INDEX cost_line_account_invoice_month_idx;
ALTER TABLE cost_line DROP COLUMN resource_id;
DROP INDEX ingest_batch_account_hash_idx;
UPDATE ingest_batch SET status = 'failed' WHERE status = 'duplicate';
ALTER TABLE ingest_batch DROP CONSTRAINT ingest_batch_status_check;
ALTER TABLE ingest_batch ADD CONSTRAINT ingest_batch_status_check CHECK (status IN ('running', 'succeeded', 'rejected', 'failed'));
ALTER TABLE ingest_batch DROP COLUMN duplicate_of;
ALTER TABLE ingest_batch DROP COLUMN billing_periods;
ALTER TABLE ingest_batch DROP COLUMN mode;
