-- Up Migration
-- The provider and currency checks move from cost_line to the daily rollups (ingest speed). Every line's provider and
-- currency reach a daily rollup row in the same transaction (summed by the worker or rebuilt in SQL), so a bad value
-- still fails the whole ingest and nothing of it commits; the database checks about one row in sixty instead of every
-- line (2.5 s of PostgreSQL's time in a 5,000,000-line load). The worker checks both per row first (row-checks.ts), so
-- a bad value is reported with its line. Decisions: docs/decisions-billing.md, "Ingest speed".
ALTER TABLE cost_daily ADD CONSTRAINT cost_daily_provider_check CHECK (provider ~ '^[a-z0-9]+(-[a-z0-9]+)*$');
ALTER TABLE cost_daily ADD CONSTRAINT cost_daily_currency_check CHECK (currency ~ '^[A-Z]{3}$');
ALTER TABLE cost_daily_label ADD CONSTRAINT cost_daily_label_provider_check CHECK (provider ~ '^[a-z0-9]+(-[a-z0-9]+)*$');
ALTER TABLE cost_daily_label ADD CONSTRAINT cost_daily_label_currency_check CHECK (currency ~ '^[A-Z]{3}$');
ALTER TABLE cost_line DROP CONSTRAINT cost_line_provider_check;
ALTER TABLE cost_line DROP CONSTRAINT cost_line_currency_check;

-- Down Migration
ALTER TABLE cost_line ADD CONSTRAINT cost_line_currency_check CHECK (currency ~ '^[A-Z]{3}$');
ALTER TABLE cost_line ADD CONSTRAINT cost_line_provider_check CHECK (provider ~ '^[a-z0-9]+(-[a-z0-9]+)*$');
ALTER TABLE cost_daily_label DROP CONSTRAINT cost_daily_label_currency_check;
ALTER TABLE cost_daily_label DROP CONSTRAINT cost_daily_label_provider_check;
ALTER TABLE cost_daily DROP CONSTRAINT cost_daily_currency_check;
ALTER TABLE cost_daily DROP CONSTRAINT cost_daily_provider_check;
