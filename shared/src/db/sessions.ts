import { randomUUID } from 'node:crypto';
import type { Queryable } from './pool.ts';

/**
 * Sign-in sessions: one row per sign-in, named by the `sid` of every access token refreshed from it.
 * The row is the truth; the api mirrors "ended" into Redis so the per-request check needs no database round trip
 * (api/src/plugins/app/sessions.ts).
 */
export interface SessionRow {
  id: string;
  user_id: string;
  created_at: Date;
  expires_at: Date;
  ended_at: Date | null;
}

/**
 * Why a session ended: the user's logout, the user's sign out everywhere, the user's password change (every other
 * session), or an admin (`admin:<email>`).
 */
export type EndedBy = 'logout' | 'everywhere' | 'password' | `admin:${string}`;

export async function createSession(db: Queryable, userId: string, maxHours: number): Promise<SessionRow> {
  const { rows } = await db.query<SessionRow>(
    `INSERT INTO session (id, user_id, expires_at) VALUES ($1, $2, now() + make_interval(hours => $3))
     RETURNING id, user_id, created_at, expires_at, ended_at`,
    [randomUUID(), userId, maxHours],
  );
  return rows[0]!;
}

/** The session if it is still open (not ended, not past its absolute lifetime) and belongs to this user; else null. */
export async function findOpenSession(db: Queryable, id: string, userId: string): Promise<SessionRow | null> {
  const { rows } = await db.query<SessionRow>(
    `SELECT id, user_id, created_at, expires_at, ended_at FROM session
      WHERE id = $1 AND user_id = $2 AND ended_at IS NULL AND expires_at > now()`,
    [id, userId],
  );
  return rows[0] ?? null;
}

/** Whether the session is ended or gone (the slow path, when Redis cannot answer). */
export async function isSessionEnded(db: Queryable, id: string): Promise<boolean> {
  const { rows } = await db.query<{ ended: boolean }>('SELECT ended_at IS NOT NULL OR expires_at <= now() AS ended FROM session WHERE id = $1', [id]);
  return rows[0]?.ended ?? true;
}

export interface EndedSession {
  id: string;
  expires_at: Date;
}

/** Ends one session of a user; returns it when it was open. */
export async function endSession(db: Queryable, id: string, userId: string, by: EndedBy): Promise<EndedSession[]> {
  const { rows } = await db.query<EndedSession>(
    `UPDATE session SET ended_at = now(), ended_by = $3
      WHERE id = $1 AND user_id = $2 AND ended_at IS NULL AND expires_at > now()
      RETURNING id, expires_at`,
    [id, userId, by],
  );
  return rows;
}

/** Ends every open session of a user (sign out everywhere, an admin's end); returns those it ended. */
export async function endUserSessions(db: Queryable, userId: string, by: EndedBy): Promise<EndedSession[]> {
  const { rows } = await db.query<EndedSession>(
    `UPDATE session SET ended_at = now(), ended_by = $2
      WHERE user_id = $1 AND ended_at IS NULL AND expires_at > now()
      RETURNING id, expires_at`,
    [userId, by],
  );
  return rows;
}

/** Ends every open session of a user but one (a password change keeps the session it was made in). */
export async function endOtherSessions(db: Queryable, userId: string, keepId: string, by: EndedBy): Promise<EndedSession[]> {
  const { rows } = await db.query<EndedSession>(
    `UPDATE session SET ended_at = now(), ended_by = $3
      WHERE user_id = $1 AND id <> $2 AND ended_at IS NULL AND expires_at > now()
      RETURNING id, expires_at`,
    [userId, keepId, by],
  );
  return rows;
}

/** How many sessions of the user are open (the admin screen says how many it ended). */
export async function countOpenSessions(db: Queryable, userId: string): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM session WHERE user_id = $1 AND ended_at IS NULL AND expires_at > now()',
    [userId],
  );
  return rows[0]?.n ?? 0;
}

/** Sessions past their lifetime for a day can never be used again: the maintenance queue deletes them. */
export async function purgeOldSessions(db: Queryable): Promise<number> {
  const { rowCount } = await db.query("DELETE FROM session WHERE expires_at < now() - interval '1 day'");
  return rowCount ?? 0;
}
