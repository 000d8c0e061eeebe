import type { Queryable } from './pool.ts';

/**
 * Invitation links (set a password, which also verifies the e-mail). Only the SHA-256 of a token is
 * stored; issuing a new link for a user retires their unused ones.
 */
export async function replaceInvitation(db: Queryable, userId: string, tokenHash: string, expiresAt: Date): Promise<void> {
  await db.query('DELETE FROM invitation WHERE user_id = $1 AND used_at IS NULL', [userId]);
  await db.query('INSERT INTO invitation (token_hash, user_id, expires_at) VALUES ($1, $2, $3)', [tokenHash, userId, expiresAt]);
}

/** The user an unused, unexpired invitation is for, or null. */
export async function findOpenInvitation(db: Queryable, tokenHash: string): Promise<string | null> {
  const { rows } = await db.query<{ user_id: string }>(
    'SELECT user_id FROM invitation WHERE token_hash = $1 AND used_at IS NULL AND expires_at > now()',
    [tokenHash],
  );
  return rows[0]?.user_id ?? null;
}

/**
 * Uses the invitation once: sets the password and verifies the e-mail. Returns the user, or null when
 * the link is unknown, used or expired (a second click after success included).
 */
export async function acceptInvitation(db: Queryable, tokenHash: string, passwordHash: string): Promise<string | null> {
  const { rows } = await db.query<{ user_id: string }>(
    `UPDATE invitation SET used_at = now()
      WHERE token_hash = $1 AND used_at IS NULL AND expires_at > now()
      RETURNING user_id`,
    [tokenHash],
  );
  const userId = rows[0]?.user_id;
  if (!userId) return null;
  await db.query('UPDATE app_user SET password_hash = $2, email_verified = true, updated_at = now() WHERE id = $1', [userId, passwordHash]);
  return userId;
}
