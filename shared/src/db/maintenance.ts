import type { Queryable } from './pool.ts';
import { purgeOldSessions } from './sessions.ts';

/** Deletes revocations of tokens that have expired anyway, and sessions past their lifetime; returns how many. */
export async function purgeExpiredRevocations(db: Queryable): Promise<number> {
  const { rowCount } = await db.query('DELETE FROM revoked_token WHERE expires_at < now()');
  return (rowCount ?? 0) + (await purgeOldSessions(db));
}
