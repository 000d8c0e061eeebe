import type { Queryable } from './pool.ts';

export interface ErrorLogEntry {
  user_email: string;
  resource: string;
  type: string;
  data: unknown;
}

/**
 * The most a stored crash's `data` keeps, in characters of its JSON: a message and a component stack fit many times
 * over. A larger one is kept truncated rather than refused: the crash is still worth knowing about.
 */
export const MAX_ERROR_DATA_CHARS = 16 * 1024;

/** The data as stored: as sent when small enough, else `{truncated, chars, excerpt}` with the JSON text's beginning. */
export function cappedErrorData(data: unknown): unknown {
  const json = JSON.stringify(data ?? {});
  if (json.length <= MAX_ERROR_DATA_CHARS) return data ?? {};
  return { truncated: true, chars: json.length, excerpt: json.slice(0, MAX_ERROR_DATA_CHARS) };
}

/** Stores one screen crash (spec 000 §7, §8), its data capped at MAX_ERROR_DATA_CHARS. */
export async function insertErrorLog(db: Queryable, e: ErrorLogEntry): Promise<{ id: string; date: string }> {
  const { rows } = await db.query<{ id: string; date: Date }>(
    'INSERT INTO error_log (user_email, resource, type, data) VALUES ($1, $2, $3, $4) RETURNING id, date',
    [e.user_email, e.resource, e.type, JSON.stringify(cappedErrorData(e.data))],
  );
  return { id: rows[0].id, date: rows[0].date.toISOString() };
}

/** Deletes screen crashes older than `days` days (the retention, ERROR_LOG_RETENTION_DAYS); returns how many. */
export async function purgeOldErrorLogs(db: Queryable, days: number): Promise<number> {
  const { rowCount } = await db.query('DELETE FROM error_log WHERE date < now() - make_interval(days => $1)', [days]);
  return rowCount ?? 0;
}
