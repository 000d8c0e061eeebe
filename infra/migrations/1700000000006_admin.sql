-- Up Migration
-- Administration: invitation links (set a password, which also verifies the e-mail) and e-mail changes that follow
-- the user everywhere.

-- Only a SHA-256 of the link's token is stored: a leaked table does not hand out passwords to set.
CREATE TABLE invitation (
  token_hash text PRIMARY KEY,
  user_id text NOT NULL REFERENCES app_user(id) ON UPDATE CASCADE ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  used_at timestamptz
);
CREATE INDEX invitation_user_idx ON invitation (user_id);

-- A user's e-mail is their id; changing it renames the row, and their viewer filters follow.
ALTER TABLE viewer_filter DROP CONSTRAINT viewer_filter_user_id_fkey;
ALTER TABLE viewer_filter ADD CONSTRAINT viewer_filter_user_id_fkey
  FOREIGN KEY (user_id) REFERENCES app_user(id) ON UPDATE CASCADE ON DELETE CASCADE;

CREATE INDEX entity_admin_user_idx ON entity_admin (user_id);

-- Down Migration
DROP INDEX entity_admin_user_idx;
ALTER TABLE viewer_filter DROP CONSTRAINT viewer_filter_user_id_fkey;
ALTER TABLE viewer_filter ADD CONSTRAINT viewer_filter_user_id_fkey
  FOREIGN KEY (user_id) REFERENCES app_user(id) ON DELETE CASCADE;
DROP TABLE invitation;
