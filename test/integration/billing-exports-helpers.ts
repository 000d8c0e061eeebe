/** FOCUS files and spend sums shared by the AWS and Azure export tests. */
import type { Pool } from '@cc/shared/db/pool.ts';

const HEADER = ['BilledCost', 'BillingCurrency', 'BillingPeriodStart', 'ChargeCategory', 'ChargePeriodStart', 'EffectiveCost', 'ProviderName', 'ServiceName', 'SubAccountId'];

/** A FOCUS 1.0 CSV of one billing period: one usage row per [day, BilledCost]. */
export function focusCsv(provider: string, period: string, rows: [string, string][]): string {
  const lines = rows.map(([day, cost]) => [cost, 'USD', `${period}-01T00:00:00Z`, 'Usage', `${day}T12:00:00Z`, cost, provider, 'Compute', 'sub-1'].join(','));
  return `${[HEADER.join(','), ...lines].join('\n')}\n`;
}

/** Spend of the account's lines and daily rollups of one provider in one calendar month. */
export async function spendOf(pool: Pool, account: string, provider: string, month: string): Promise<{ lines: string | null; daily: string | null }> {
  const q = async (table: string) =>
    (
      await pool.query<{ s: string | null }>(
        `SELECT sum(cost + credits)::numeric(30,12)::text AS s FROM ${table}
          WHERE billing_account_id = $1 AND provider = $2 AND to_char(usage_date, 'YYYY-MM') = $3`,
        [account, provider, month],
      )
    ).rows[0].s;
  return { lines: await q('cost_line'), daily: await q('cost_daily') };
}
