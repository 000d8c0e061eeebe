/** The history of licenses and their orders (rows written by the triggers of license and license_order). */
import type { Queryable } from '../pool.ts';
import type { DayRange } from './orders.ts';

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
      ORDER BY date DESC, id DESC`,
    [customerId, range.start_date ?? null, range.end_date ?? null, withOrders],
  );
  return rows;
}
