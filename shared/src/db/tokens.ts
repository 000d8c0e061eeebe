import type { Queryable } from './pool.ts';

export async function revokeToken(db: Queryable, jti: string, expiresAt: Date): Promise<void> {
  await db.query('INSERT INTO revoked_token (jti, expires_at) VALUES ($1, $2) ON CONFLICT DO NOTHING', [jti, expiresAt]);
  // Expired entries can never match a valid token again; trimming here keeps the table small without a job.
  await db.query('DELETE FROM revoked_token WHERE expires_at < now()');
}

export async function isTokenRevoked(db: Queryable, jti: string): Promise<boolean> {
  const { rowCount } = await db.query('SELECT 1 FROM revoked_token WHERE jti = $1', [jti]);
  return (rowCount ?? 0) > 0;
}
