/** Paging shared by the inventory lists: the page size bounds and the search pattern. */

export interface Page<T> {
  total: number;
  items: T[];
}

/** Largest page a caller may ask for; the tables page far below it. */
export const MAX_PAGE = 1000;

export interface Paging {
  offset?: number;
  limit?: number;
  desc?: boolean;
}

/** A case-insensitive substring pattern for ILIKE, with the pattern characters escaped. */
export const likePattern = (s: string) => `%${s.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
export const clampLimit = (n: number | undefined) => Math.min(Math.max(Math.trunc(n ?? 100), 1), MAX_PAGE);
export const clampOffset = (n: number | undefined) => Math.max(Math.trunc(n ?? 0), 0);

/**
 * SQL for a timestamptz as JavaScript's toISOString writes it (UTC, milliseconds cut, not rounded, as a Date parsed
 * from the driver's text keeps them), for pages whose JSON is built in PostgreSQL.
 */
export const isoText = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
