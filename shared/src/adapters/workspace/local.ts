/**
 * The local Workspace tenant (WORKSPACE=local, the default): per domain, the subscriptions a small company would
 * hold, kept in PostgreSQL. Assigned seats are not stored but follow the calendar: from `base_used` on the tenant's
 * first day, two more users every three days, never more than the seats. So volume_available shrinks day by day,
 * thresholds are crossed, and an approved order gives room that is used up again. The same day gives the same answer.
 */
import { randomUUID } from 'node:crypto';
import type { Queryable } from '../../db/pool.ts';
import { ensureLocalTenant, localSubscriptions, setLocalSeats, type LocalSubscriptionRow } from '../../db/licenses/local-workspace.ts';
import { WorkspaceError, type Workspace, type WorkspaceSeats } from '../../ports/workspace.ts';
import { billingToday } from '../../time.ts';

/** What a new tenant starts with (SKU ids and names as the Reseller API lists them). */
const STARTER_SUBSCRIPTIONS = [
  { sku_id: '1010020028', sku_name: 'Google Workspace Business Standard', plan: 'ANNUAL_MONTHLY_PAY', seats: 50, base_used: 42 },
  { sku_id: '1010020027', sku_name: 'Google Workspace Business Starter', plan: 'FLEXIBLE', seats: 20, base_used: 12 },
] as const;

const DAY_MS = 86_400_000;

export function usedOn(row: Pick<LocalSubscriptionRow, 'seats' | 'base_used' | 'start_day'>, day: string): number {
  const days = Math.max(0, Math.round((Date.parse(`${day}T00:00:00Z`) - Date.parse(`${row.start_day}T00:00:00Z`)) / DAY_MS));
  return Math.min(row.seats, row.base_used + days - Math.floor(days / 3));
}

export function localWorkspace(db: Queryable, opts: { now?: () => number } = {}): Workspace {
  const today = () => billingToday(opts.now?.() ?? Date.now());
  const seatsOf = (row: LocalSubscriptionRow): WorkspaceSeats => ({
    sku_id: row.sku_id,
    sku_name: row.sku_name,
    plan: row.plan,
    total: row.seats,
    used: usedOn(row, today()),
  });

  async function tenant(domain: string): Promise<LocalSubscriptionRow[]> {
    if (!domain) throw new WorkspaceError('No Workspace domain: the customer has no domain_name', false);
    const start_day = today();
    await ensureLocalTenant(
      db,
      STARTER_SUBSCRIPTIONS.map((s) => ({ ...s, domain, start_day, subscription_id: randomUUID() })),
    );
    return localSubscriptions(db, domain);
  }

  return {
    name: 'local',
    async listSeats(domain) {
      return (await tenant(domain)).map(seatsOf);
    },
    async ensureSeats(domain, skuId, target) {
      const row = (await tenant(domain)).find((r) => r.sku_id === skuId);
      if (!row) throw new WorkspaceError(`Domain ${domain} has no subscription for SKU ${skuId}`, false);
      if (row.seats >= target) return seatsOf(row);
      const updated = await setLocalSeats(db, domain, skuId, target, randomUUID());
      return seatsOf(updated!);
    },
  };
}
