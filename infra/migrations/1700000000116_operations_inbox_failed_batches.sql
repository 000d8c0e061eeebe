-- Up Migration
-- The operations inbox finds failed ingest batches from the failures themselves (few) rather than by reading the
-- latest batch of every source of every account (three index probes per account, most of the inbox's time with
-- 500 customers).
CREATE INDEX ingest_batch_failed_idx ON ingest_batch (billing_account_id) WHERE status IN ('failed', 'rejected');

-- Down Migration
DROP INDEX ingest_batch_failed_idx;
