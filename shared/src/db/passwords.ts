import type { Queryable } from './pool.ts';

/** Stores a user's new password hash (the user's own change; the invitation link sets it in db/invitations.ts). */
export async function updatePasswordHash(db: Queryable, userId: string, passwordHash: string): Promise<boolean> {
  const { rowCount } = await db.query('UPDATE app_user SET password_hash = $2, updated_at = now() WHERE id = $1', [userId, passwordHash]);
  return (rowCount ?? 0) === 1;
}
