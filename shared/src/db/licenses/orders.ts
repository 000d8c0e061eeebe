/**
 * License orders: placed by a customer's user or by the auto-order worker, decided by a provider admin. Statuses
 * and why: docs/decisions-licenses.md. Status changes land in license_history through the table's trigger.
 */
import type { Queryable } from '../pool.ts';

export type OrderStatus = 'Pending' | 'Approved' | 'Fulfilled' | 'Rejected' | 'Failed';

export interface OrderRow {
  order_id: string;
  customer_id: string;
  sku_id: string;
  sku_name: string;
  order_amount: number;
  order_by: string;
  comment: string;
  status: OrderStatus;
  order_time: string;
  auto: boolean;
  seats_target: number | null;
  decided_by: string | null;
  decided_at: string | null;
  error: string | null;
}

const iso = (col: string) => `to_char(${col} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
const ORDER_COLUMNS = `order_id::text AS order_id, customer_id, sku_id, sku_name, order_amount, order_by, comment, status,
  ${iso('order_time')} AS order_time, auto_episode IS NOT NULL AS auto, seats_target, decided_by, ${iso('decided_at')} AS decided_at, error`;

export async function insertOrder(
  db: Queryable,
  o: { customer_id: string; sku_id: string; sku_name: string; order_amount: number; order_by: string; comment: string },
): Promise<OrderRow> {
  const { rows } = await db.query<OrderRow>(
    `INSERT INTO license_order (customer_id, sku_id, sku_name, order_amount, order_by, comment) VALUES ($1, $2, $3, $4, $5, $6)
     RETURNING ${ORDER_COLUMNS}`,
    [o.customer_id, o.sku_id, o.sku_name, o.order_amount, o.order_by, o.comment],
  );
  return rows[0];
}

/** US/Pacific days, both ends included; either may be absent. */
export interface DayRange {
  start_date?: string;
  end_date?: string;
}

const RANGE = (col: string, from: number) =>
  `($${from}::date IS NULL OR ${col} >= ($${from}::date)::timestamp AT TIME ZONE 'US/Pacific')
   AND ($${from + 1}::date IS NULL OR ${col} < ($${from + 1}::date + 1)::timestamp AT TIME ZONE 'US/Pacific')`;

export async function listOrders(db: Queryable, customerId: string, range: DayRange = {}): Promise<OrderRow[]> {
  const { rows } = await db.query<OrderRow>(
    `SELECT ${ORDER_COLUMNS} FROM license_order WHERE customer_id = $1 AND ${RANGE('order_time', 2)} ORDER BY order_time DESC, order_id`,
    [customerId, range.start_date ?? null, range.end_date ?? null],
  );
  return rows;
}

/** A page of a list: rows skipped, rows answered. */
export interface ListPage {
  offset: number;
  limit: number;
}

/**
 * One page of the list listOrders answers (same order, same range), as the JSON text of the route's answer
 * (LicenseOrder: seats_target stays out), built in PostgreSQL and sent as it is: the api no longer parses every
 * order into an object and serialises it again. `total` counts the whole list: without a date range the count kept by
 * migration 126's triggers, read in the page's own snapshot; a range counts its rows (docs/decisions-licenses.md).
 */
export async function orderPageJson(db: Queryable, customerId: string, range: DayRange, page: ListPage): Promise<{ total: number; items: string }> {
  const { rows } = await db.query<{ total: number; items: string }>(
    `SELECT CASE WHEN $2::date IS NULL AND $3::date IS NULL
                 THEN coalesce((SELECT orders FROM license_list_count WHERE customer_id = $1), 0)
                 ELSE (SELECT count(*)::int FROM license_order WHERE customer_id = $1 AND ${RANGE('order_time', 2)}) END AS total,
            '[' || coalesce(string_agg(row_to_json(j)::text, ',' ORDER BY o.order_time DESC, o.order_id), '') || ']' AS items
       FROM (SELECT * FROM license_order WHERE customer_id = $1 AND ${RANGE('order_time', 2)}
              ORDER BY order_time DESC, order_id OFFSET $4 LIMIT $5) o,
            LATERAL (SELECT o.order_id::text AS order_id, o.customer_id, o.sku_id, o.sku_name, o.order_amount, o.order_by, o.comment, o.status,
                            ${iso('o.order_time')} AS order_time, o.auto_episode IS NOT NULL AS auto, o.decided_by,
                            ${iso('o.decided_at')} AS decided_at, o.error) j`,
    [customerId, range.start_date ?? null, range.end_date ?? null, page.offset, page.limit],
  );
  // no row on the page: the aggregate still answers one row
  return rows[0]!;
}

export async function findOrder(db: Queryable, customerId: string, orderId: string, opts: { lock?: boolean } = {}): Promise<OrderRow | null> {
  const { rows } = await db.query<OrderRow>(
    `SELECT ${ORDER_COLUMNS} FROM license_order WHERE customer_id = $1 AND order_id = $2${opts.lock ? ' FOR UPDATE' : ''}`,
    [customerId, orderId],
  );
  return rows[0] ?? null;
}

export async function setOrderStatus(
  db: Queryable,
  orderId: string,
  s: { status: OrderStatus; decided_by?: string; seats_target?: number; error?: string | null },
): Promise<OrderRow> {
  const { rows } = await db.query<OrderRow>(
    `UPDATE license_order
        SET status = $2, error = $3,
            decided_by = COALESCE($4, decided_by), decided_at = CASE WHEN $4::text IS NULL THEN decided_at ELSE now() END,
            seats_target = COALESCE(seats_target, $5)
      WHERE order_id = $1 RETURNING ${ORDER_COLUMNS}`,
    [orderId, s.status, s.error ?? null, s.decided_by ?? null, s.seats_target ?? null],
  );
  return rows[0];
}

/**
 * Places the automatic orders due: every license (of one customer, or all) with auto order on and
 * volume_available <= threshold gets one order of new_order seats for its current episode. The unique indexes
 * make it one per crossing however many workers run this at once (the loser's row is dropped by ON CONFLICT), and
 * none while an order of that SKU waits for a decision. Returns the orders placed by this call.
 */
export async function placeDueAutoOrders(db: Queryable, customerId: string | null, actor: string): Promise<OrderRow[]> {
  const { rows } = await db.query<OrderRow>(
    `INSERT INTO license_order (customer_id, sku_id, sku_name, order_amount, order_by, comment, auto_episode)
     SELECT l.customer_id, l.sku_id, l.sku_name, l.new_order, $2,
            format('Automatic order: %s of %s seats available, at or below the threshold of %s', l.volume_available, l.volume_total, l.threshold),
            l.auto_episode
       FROM license l JOIN customer c ON c.customer_id = l.customer_id AND c.workspace_license
      WHERE l.auto_order AND l.volume_available <= l.threshold AND ($1::text IS NULL OR l.customer_id = $1)
        AND NOT EXISTS (SELECT 1 FROM license_order o WHERE o.customer_id = l.customer_id AND o.sku_id = l.sku_id AND o.status = 'Pending')
     ORDER BY l.customer_id, l.sku_id
     ON CONFLICT DO NOTHING
     RETURNING ${ORDER_COLUMNS}`,
    [customerId, actor],
  );
  return rows;
}

/** Who hears of a new order: the customer's alert list and every provider admin (verified or not: they are staff). */
export async function orderRecipients(db: Queryable, customerId: string): Promise<{ customer_name: string; recipients: string[] }> {
  const { rows } = await db.query<{ customer_name: string; recipients: string[] }>(
    `SELECT c.customer_name,
            ARRAY(SELECT DISTINCT r FROM (
              SELECT m.user_id AS r FROM customer_member m WHERE m.customer_id = c.customer_id AND m.list = 'alert'
              UNION SELECT u.id FROM app_user u WHERE u.role = 'admin') x ORDER BY r) AS recipients
       FROM customer c WHERE c.customer_id = $1`,
    [customerId],
  );
  return rows[0] ?? { customer_name: customerId, recipients: [] };
}

/** Automatic orders still waiting for a decision (their notice is enqueued again on every run; notify sends a key once). */
export async function listPendingAutoOrders(db: Queryable, customerId: string | null): Promise<OrderRow[]> {
  const { rows } = await db.query<OrderRow>(
    `SELECT ${ORDER_COLUMNS} FROM license_order
      WHERE auto_episode IS NOT NULL AND status = 'Pending' AND ($1::text IS NULL OR customer_id = $1)
      ORDER BY order_time, order_id`,
    [customerId],
  );
  return rows;
}
