import type { Queryable } from './pool.ts';

export interface ErrorLogEntry {
  user_email: string;
  resource: string;
  type: string;
  data: unknown;
}

/** Stores one screen crash (spec 000 §7, §8). */
export async function insertErrorLog(db: Queryable, e: ErrorLogEntry): Promise<{ id: string; date: string }> {
  const { rows } = await db.query<{ id: string; date: Date }>(
    'INSERT INTO error_log (user_email, resource, type, data) VALUES ($1, $2, $3, $4) RETURNING id, date',
    [e.user_email, e.resource, e.type, JSON.stringify(e.data ?? {})],
  );
  return { id: rows[0].id, date: rows[0].date.toISOString() };
}
