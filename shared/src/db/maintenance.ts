import type { Queryable } from './pool.ts';
import { purgeOldSessions } from './sessions.ts';
import { purgeOldErrorLogs } from './error-log.ts';

/** Deletes revocations of tokens that have expired anyway, and sessions past their lifetime; returns how many. */
export async function purgeExpiredRevocations(db: Queryable): Promise<number> {
  const { rowCount } = await db.query('DELETE FROM revoked_token WHERE expires_at < now()');
  return (rowCount ?? 0) + (await purgeOldSessions(db));
}

/** Deletes screen crashes past the retention (`retentionDays`); returns how many. */
export async function purgeExpiredErrorLogs(db: Queryable, retentionDays: number): Promise<number> {
  return purgeOldErrorLogs(db, retentionDays);
}
