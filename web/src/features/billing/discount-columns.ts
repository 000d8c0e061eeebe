/** The columns of the discount summary tables per dashboard type (pure, unit-tested). */
import { formatMoney, formatPercent } from './format.ts';
import type { BillingMonth } from '@cc/shared/schemas/billing.ts';

const tier = (v: string | null) => (v == null ? '–' : formatMoney(v));

export interface DiscountColumn {
  header: string;
  cell: (m: BillingMonth) => string;
}

/**
 * The columns of the discount tables for a dashboard type (spec 000 §3 'Billing chart month'). The tier
 * columns mean something only for Tier Discount; Set Discount shows its percentage and the discounted spend.
 * `forecast`: the current month's table, which also shows the forecasted figures.
 */
export function discountColumns(dashboardType: string | undefined, forecast: boolean): DiscountColumn[] {
  const tiered = dashboardType === 'Tier Discount';
  const cols: (DiscountColumn | false)[] = [
    { header: 'Monthly Spend', cell: (m) => formatMoney(m.monthly_spend) },
    forecast && { header: 'Forecasted Monthly Spend', cell: (m) => formatMoney(m.forecasted_monthly_spend) },
    { header: 'Discount', cell: (m) => formatPercent(m.discount) },
    tiered && { header: 'Reached Tier', cell: (m) => tier(m.reached_tier) },
    tiered && forecast && { header: 'Forecasted Reached Tier', cell: (m) => tier(m.forecasted_reached_tier) },
    { header: 'Discounted Spend', cell: (m) => formatMoney(m.discounted_spend) },
    forecast && { header: 'Forecasted Discounted Spend', cell: (m) => formatMoney(m.forecasted_discounted_spend) },
  ];
  return cols.filter((c): c is DiscountColumn => c !== false);
}
