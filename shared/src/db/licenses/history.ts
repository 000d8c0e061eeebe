/** The history of licenses and their orders (rows written by the triggers of license and license_order). */
import type { Queryable } from '../pool.ts';
import type { DayRange, ListPage } from './orders.ts';

export interface HistoryUpdate {
  field: string;
  from: unknown;
  to: unknown;
  order_id?: string;
  order_amount?: number;
}

export interface HistoryRow {
  id: string;
  sku_id: string;
  sku_name: string;
  kind: 'license' | 'order';
  changed_by: string;
  date: string;
  updates: HistoryUpdate[];
}

/** Newest first; `withOrders` false leaves out the order records. */
export async function listHistory(db: Queryable, customerId: string, range: DayRange, withOrders: boolean): Promise<HistoryRow[]> {
  const { rows } = await db.query<HistoryRow>(
    `SELECT id::text AS id, sku_id, sku_name, kind, changed_by,
            to_char(date AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS date, updates
       FROM license_history
      WHERE customer_id = $1 AND ($4 OR kind = 'license')
        AND ($2::date IS NULL OR date >= ($2::date)::timestamp AT TIME ZONE 'US/Pacific')
        AND ($3::date IS NULL OR date < ($3::date + 1)::timestamp AT TIME ZONE 'US/Pacific')
      -- the table's columns, not the output's text of them: id '9' sorted after '26' as text
      ORDER BY license_history.date DESC, license_history.id DESC`,
    [customerId, range.start_date ?? null, range.end_date ?? null, withOrders],
  );
  return rows;
}

const HISTORY_RANGE = `($2::date IS NULL OR date >= ($2::date)::timestamp AT TIME ZONE 'US/Pacific')
  AND ($3::date IS NULL OR date < ($3::date + 1)::timestamp AT TIME ZONE 'US/Pacific')`;

/**
 * One page of the list listHistory answers (same rows, same order) as the JSON text of the route's answer, built in
 * PostgreSQL. `total` counts the whole list: without a date range the counts kept by migration 126's triggers (the
 * license rows, plus the order rows when `withOrders`); a range counts its rows.
 */
export async function historyPageJson(
  db: Queryable,
  customerId: string,
  range: DayRange,
  withOrders: boolean,
  page: ListPage,
): Promise<{ total: number; items: string }> {
  const { rows } = await db.query<{ total: number; items: string }>(
    `SELECT CASE WHEN $2::date IS NULL AND $3::date IS NULL
                 THEN coalesce((SELECT license_changes + CASE WHEN $4 THEN order_changes ELSE 0 END FROM license_list_count WHERE customer_id = $1), 0)
                 ELSE (SELECT count(*)::int FROM license_history WHERE customer_id = $1 AND ($4 OR kind = 'license') AND ${HISTORY_RANGE}) END AS total,
            '[' || coalesce(string_agg(row_to_json(j)::text, ',' ORDER BY h.date DESC, h.id DESC), '') || ']' AS items
       FROM (SELECT * FROM license_history WHERE customer_id = $1 AND ($4 OR kind = 'license') AND ${HISTORY_RANGE}
              ORDER BY date DESC, id DESC OFFSET $5 LIMIT $6) h,
            LATERAL (SELECT h.id::text AS id, h.sku_id, h.sku_name, h.kind, h.changed_by,
                            to_char(h.date AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS date, h.updates) j`,
    [customerId, range.start_date ?? null, range.end_date ?? null, withOrders, page.offset, page.limit],
  );
  // no row on the page: the aggregate still answers one row
  return rows[0]!;
}
