-- Up Migration
-- The maintenance job deletes screen crashes older than ERROR_LOG_RETENTION_DAYS (default 30): by date, so an index
-- keeps that delete from reading the whole table on each run.
CREATE INDEX error_log_date_idx ON error_log (date);

-- Down Migration
DROP INDEX error_log_date_idx;
