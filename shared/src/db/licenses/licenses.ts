/**
 * Licenses: the Workspace SKUs a customer watches, with the seat figures of the last sync and the auto-order
 * settings. Every change is written to license_history by the table's trigger, with the actor set by `asActor`.
 */
import type { Queryable } from '../pool.ts';

export interface LicenseRow {
  customer_id: string;
  sku_id: string;
  sku_name: string;
  volume_total: number;
  volume_available: number;
  threshold: number;
  new_order: number;
  auto_order: boolean;
  synced_at: string | null;
}

export const LICENSE_COLUMNS = `customer_id, sku_id, sku_name, volume_total, volume_available, threshold, new_order, auto_order,
  to_char(synced_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS synced_at`;

/** Names who makes the transaction's changes in the history (the trigger reads cc.actor). Needs a transaction. */
export async function asActor(tx: Queryable, actor: string): Promise<void> {
  await tx.query(`SELECT set_config('cc.actor', $1, true)`, [actor]);
}

export async function listLicenses(db: Queryable, customerId: string): Promise<LicenseRow[]> {
  const { rows } = await db.query<LicenseRow>(`SELECT ${LICENSE_COLUMNS} FROM license WHERE customer_id = $1 ORDER BY sku_name, sku_id`, [customerId]);
  return rows;
}

export async function findLicense(db: Queryable, customerId: string, skuId: string, opts: { lock?: boolean } = {}): Promise<LicenseRow | null> {
  const { rows } = await db.query<LicenseRow>(
    `SELECT ${LICENSE_COLUMNS} FROM license WHERE customer_id = $1 AND sku_id = $2${opts.lock ? ' FOR UPDATE' : ''}`,
    [customerId, skuId],
  );
  return rows[0] ?? null;
}

export interface NewLicense {
  customer_id: string;
  sku_id: string;
  sku_name: string;
  volume_total: number;
  volume_available: number;
  threshold: number;
  new_order: number;
  auto_order: boolean;
}

/** Inserts the license; null when the customer already watches that SKU. */
export async function insertLicense(db: Queryable, l: NewLicense): Promise<LicenseRow | null> {
  const { rows } = await db.query<LicenseRow>(
    `INSERT INTO license (customer_id, sku_id, sku_name, volume_total, volume_available, threshold, new_order, auto_order, synced_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, now())
     ON CONFLICT (customer_id, sku_id) DO NOTHING RETURNING ${LICENSE_COLUMNS}`,
    [l.customer_id, l.sku_id, l.sku_name, l.volume_total, l.volume_available, l.threshold, l.new_order, l.auto_order],
  );
  return rows[0] ?? null;
}

export async function updateLicenseSettings(
  db: Queryable,
  customerId: string,
  skuId: string,
  s: { threshold: number; auto_order: boolean; new_order: number },
): Promise<LicenseRow | null> {
  const { rows } = await db.query<LicenseRow>(
    `UPDATE license SET threshold = $3, auto_order = $4, new_order = $5 WHERE customer_id = $1 AND sku_id = $2 RETURNING ${LICENSE_COLUMNS}`,
    [customerId, skuId, s.threshold, s.auto_order, s.new_order],
  );
  return rows[0] ?? null;
}

/** Writes the provider's seat figures of one SKU (a sync); the history gets a row only when a figure moved. */
export async function applySeats(db: Queryable, customerId: string, seats: { sku_id: string; sku_name: string; total: number; used: number }): Promise<boolean> {
  const { rowCount } = await db.query(
    `UPDATE license SET sku_name = $3, volume_total = $4::int, volume_available = $4::int - $5::int, synced_at = now()
      WHERE customer_id = $1 AND sku_id = $2`,
    [customerId, seats.sku_id, seats.sku_name, seats.total, seats.used],
  );
  return (rowCount ?? 0) > 0;
}

/** Customers whose licenses the sync looks at: workspace_license on, a domain, at least one license. */
export async function licenseCustomers(db: Queryable, customerId: string | null): Promise<{ customer_id: string; domain_name: string }[]> {
  const { rows } = await db.query<{ customer_id: string; domain_name: string }>(
    `SELECT c.customer_id, c.domain_name FROM customer c
      WHERE c.workspace_license AND c.domain_name <> '' AND ($1::text IS NULL OR c.customer_id = $1)
        AND EXISTS (SELECT 1 FROM license l WHERE l.customer_id = c.customer_id)
      ORDER BY c.customer_id`,
    [customerId],
  );
  return rows;
}
