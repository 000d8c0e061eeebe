/**
 * Billing accounts whose AWS or Azure spend is read from the provider's export (billing_export_source), and the
 * delivery of each billing period loaded last (billing_export_delivery). Written by the admin setting (api) and the
 * export sync (workers); read by the nightly plan and the data freshness line.
 */
import type { Queryable } from './pool.ts';
import type { ExportSourceKind } from '../ports/billing-export-store.ts';

export interface ExportSourceRow {
  billing_account_id: string;
  customer_id: string;
  kind: ExportSourceKind;
  settings: Record<string, string>;
  secret_sealed: string | null;
  last_checked_at: string | null;
  last_error: string | null;
  last_delivery: string | null;
}

const COLUMNS = `billing_account_id, customer_id, kind, settings, secret_sealed,
  to_json(last_checked_at)#>>'{}' AS last_checked_at, last_error, last_delivery`;

/** Every configured source whose account its customer still lists, in a stable order. */
export async function listExportSources(db: Queryable): Promise<ExportSourceRow[]> {
  const { rows } = await db.query<ExportSourceRow>(
    `SELECT ${COLUMNS} FROM billing_export_source s
      WHERE EXISTS (SELECT 1 FROM customer c WHERE c.customer_id = s.customer_id AND s.billing_account_id = ANY (c.billing_account_ids))
      ORDER BY customer_id, billing_account_id`,
  );
  return rows;
}

export async function findExportSource(db: Queryable, billingAccountId: string): Promise<ExportSourceRow | null> {
  const { rows } = await db.query<ExportSourceRow>(`SELECT ${COLUMNS} FROM billing_export_source WHERE billing_account_id = $1`, [billingAccountId]);
  return rows[0] ?? null;
}

/** Sets an account's source; `secretSealed` undefined keeps the stored secret, null removes it. */
export async function saveExportSource(
  db: Queryable,
  s: { billingAccountId: string; customerId: string; kind: ExportSourceKind; settings: Record<string, string>; secretSealed?: string | null },
): Promise<void> {
  await db.query(
    `INSERT INTO billing_export_source (billing_account_id, customer_id, kind, settings, secret_sealed)
     VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (billing_account_id) DO UPDATE
       SET customer_id = EXCLUDED.customer_id, kind = EXCLUDED.kind, settings = EXCLUDED.settings, updated_at = now(),
           secret_sealed = CASE WHEN $6 THEN billing_export_source.secret_sealed ELSE EXCLUDED.secret_sealed END,
           last_error = NULL`,
    [s.billingAccountId, s.customerId, s.kind, JSON.stringify(s.settings), s.secretSealed ?? null, s.secretSealed === undefined],
  );
}

export async function deleteExportSource(db: Queryable, billingAccountId: string): Promise<boolean> {
  const { rowCount } = await db.query(`DELETE FROM billing_export_source WHERE billing_account_id = $1`, [billingAccountId]);
  return (rowCount ?? 0) > 0;
}

/** The delivery id loaded last for each period of the account. */
export async function loadedDeliveries(db: Queryable, billingAccountId: string): Promise<Map<string, string>> {
  const { rows } = await db.query<{ period: string; delivery_id: string }>(
    `SELECT period, delivery_id FROM billing_export_delivery WHERE billing_account_id = $1`,
    [billingAccountId],
  );
  return new Map(rows.map((r) => [r.period, r.delivery_id]));
}

export async function recordDelivery(
  db: Queryable,
  d: { billingAccountId: string; period: string; deliveryId: string; manifestKey: string; batchId: string | null },
): Promise<void> {
  await db.query(
    `INSERT INTO billing_export_delivery (billing_account_id, period, delivery_id, manifest_key, batch_id)
     VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (billing_account_id, period) DO UPDATE
       SET delivery_id = EXCLUDED.delivery_id, manifest_key = EXCLUDED.manifest_key, batch_id = EXCLUDED.batch_id, loaded_at = now()`,
    [d.billingAccountId, d.period, d.deliveryId, d.manifestKey, d.batchId],
  );
}

/** What the last sync of the account found: an error (null when it went through) and the delivery now loaded. */
export async function setExportStatus(db: Queryable, billingAccountId: string, status: { error: string | null; delivery?: string }): Promise<void> {
  await db.query(
    `UPDATE billing_export_source SET last_checked_at = now(), last_error = $2, last_delivery = COALESCE($3, last_delivery)
      WHERE billing_account_id = $1`,
    [billingAccountId, status.error, status.delivery ?? null],
  );
}
