-- Up Migration
-- Sign-in sessions: one row per sign-in. Every access token names its session (`sid`); refreshing keeps
-- the sid and never goes past expires_at (SESSION_MAX_HOURS). Ending a session (logout, sign out everywhere, an
-- admin's end) sets ended_at here and a marker in Redis that the per-request check reads. Decisions: docs/decisions.md.

CREATE TABLE session (
  id uuid PRIMARY KEY,
  user_id text NOT NULL REFERENCES app_user(id) ON UPDATE CASCADE ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  ended_at timestamptz,
  -- logout, everywhere (the user's own sign out everywhere) or admin:<who>
  ended_by text,
  CHECK (expires_at > created_at)
);
CREATE INDEX session_user_open_idx ON session (user_id) WHERE ended_at IS NULL;
CREATE INDEX session_expires_idx ON session (expires_at);

-- Down Migration
DROP TABLE session;
