-- Up Migration
-- Where a batch's lines lie, in place of two of cost_line's three indexes (ingest speed). The batch index and the
-- (account, invoice month) index were kept up by every loaded line, yet only a few statements read them: a file's
-- replacement of its billing periods, the reconciliation and its month picker, a correction file's duplicate check
-- and a file's totals. Those now find the days to search here and read the lines by the (account, day) index that
-- slice replacement needs anyway. Each batch writes one row per provider and invoice month ('' for lines without
-- one) with the first and last usage day of its lines, so the table stays as small as the batches are few. A later
-- batch that replaces some of those lines leaves the row as it was: a row bounds where a batch's lines can be, and
-- the readers check the lines themselves. Decisions: docs/decisions-billing.md, "Ingest speed".
CREATE TABLE cost_line_extent (
  source_batch bigint NOT NULL REFERENCES ingest_batch(id) ON DELETE CASCADE,
  customer_id text NOT NULL,
  billing_account_id text NOT NULL,
  provider text NOT NULL,
  invoice_month text NOT NULL,
  first_day date NOT NULL,
  last_day date NOT NULL CHECK (last_day >= first_day),
  PRIMARY KEY (source_batch, provider, invoice_month)
);
CREATE INDEX cost_line_extent_account_month_idx ON cost_line_extent (billing_account_id, invoice_month);

INSERT INTO cost_line_extent (source_batch, customer_id, billing_account_id, provider, invoice_month, first_day, last_day)
SELECT source_batch, min(customer_id), billing_account_id, provider, coalesce(invoice_month, ''), min(usage_date), max(usage_date)
  FROM cost_line
 GROUP BY source_batch, billing_account_id, provider, coalesce(invoice_month, '');

DROP INDEX cost_line_batch_idx;
DROP INDEX cost_line_account_invoice_month_idx;

-- Down Migration
CREATE INDEX cost_line_account_invoice_month_idx ON cost_line (billing_account_id, invoice_month);
CREATE INDEX cost_line_batch_idx ON cost_line (source_batch);
DROP TABLE cost_line_extent;
