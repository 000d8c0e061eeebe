-- Up Migration
-- When the ticket sync last sent an issue create whose outcome it could not learn (a lost answer, a crash before the
-- key was recorded). Until Jira's search has surely caught up, the sync does not create again: a search that does
-- not show the issue yet proves nothing (docs/decisions-tickets.md, "Creating an issue once").
ALTER TABLE ticket ADD COLUMN jira_create_sent_at timestamptz;

-- Down Migration
ALTER TABLE ticket DROP COLUMN jira_create_sent_at;
