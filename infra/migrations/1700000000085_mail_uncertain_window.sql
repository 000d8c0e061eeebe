-- Up Migration
-- E-mail effectively once: the uncertain window of an SMTP send is narrowed to its end. data_at is
-- written after the whole message went to the server and before its end-of-data mark: an attempt without it
-- cannot have left a copy at the server (sent again safely); one with it and no sent_at is uncertain (the server
-- may have answered 250 just before the sender died). uncertain_at: a retry met such an attempt and, the relay
-- being unable to say, counted it as sent instead of sending a second copy (MAIL_RESEND_UNCERTAIN=false).
ALTER TABLE mail_intent ADD COLUMN data_at timestamptz, ADD COLUMN uncertain_at timestamptz;

-- A Jira create whose answer was lost is found without the search index, which lags: written with
-- jira_create_sent_at, the highest issue number the portal had recorded then. Jira numbers a project's issues in
-- creation order, so the lost issue is above it and is read by key (GET /issue/{key}, not indexed search).
ALTER TABLE ticket ADD COLUMN jira_create_after_number bigint;

-- Down Migration
ALTER TABLE ticket DROP COLUMN jira_create_after_number;
ALTER TABLE mail_intent DROP COLUMN data_at, DROP COLUMN uncertain_at;
