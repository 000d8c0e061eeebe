/**
 * The local Workspace tenant's store (WORKSPACE=local): the subscriptions Google would hold per domain. Only
 * shared/src/adapters/workspace/local.ts reads and writes here.
 */
import type { Queryable } from '../pool.ts';
import type { WorkspacePlan } from '../../ports/workspace.ts';

export interface LocalSubscriptionRow {
  domain: string;
  sku_id: string;
  sku_name: string;
  plan: WorkspacePlan;
  seats: number;
  base_used: number;
  /** YYYY-MM-DD */
  start_day: string;
  subscription_id: string;
}

const COLUMNS = 'domain, sku_id, sku_name, plan, seats, base_used, start_day, subscription_id';

/** Creates the domain's subscriptions unless it has some (a second caller racing the first finds them). */
export async function ensureLocalTenant(db: Queryable, rows: LocalSubscriptionRow[]): Promise<void> {
  for (const r of rows) {
    await db.query(
      `INSERT INTO local_workspace_subscription (${COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
       ON CONFLICT (domain, sku_id) DO NOTHING`,
      [r.domain, r.sku_id, r.sku_name, r.plan, r.seats, r.base_used, r.start_day, r.subscription_id],
    );
  }
}

export async function localSubscriptions(db: Queryable, domain: string): Promise<LocalSubscriptionRow[]> {
  const { rows } = await db.query<LocalSubscriptionRow>(`SELECT ${COLUMNS} FROM local_workspace_subscription WHERE domain = $1 ORDER BY sku_id`, [domain]);
  return rows;
}

/** Sets the seats of one subscription (a new subscription id, as Google issues); null when there is none. */
export async function setLocalSeats(db: Queryable, domain: string, skuId: string, seats: number, subscriptionId: string): Promise<LocalSubscriptionRow | null> {
  const { rows } = await db.query<LocalSubscriptionRow>(
    `UPDATE local_workspace_subscription SET seats = $3, subscription_id = $4 WHERE domain = $1 AND sku_id = $2 RETURNING ${COLUMNS}`,
    [domain, skuId, seats, subscriptionId],
  );
  return rows[0] ?? null;
}
