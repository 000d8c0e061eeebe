/**
 * Discounts of the billing dashboard (spec 000 §3: billing_dashboard_type Standard, Set Discount, Tier Discount).
 * - Standard: no discount.
 * - Set Discount: billing_dashboard_set_discount percent off the month's spend.
 * - Tier Discount: rows of (threshold_spend, percentage). A month reaches a tier when its spend is at least the
 *   tier's threshold; the highest tier reached applies its percentage to the WHOLE month (all-units, like a volume
 *   rebate), not only to the spend above the threshold. No tier reached → 0 %.
 * The forecasted columns apply the same rule to the forecasted month.
 */
import { percentOf, toUnits, type Units } from './money.ts';

export type DashboardType = 'Standard' | 'Set Discount' | 'Tier Discount';

export interface Tier {
  threshold_spend: string;
  percentage: string;
}

export interface DiscountSettings {
  type: DashboardType | string;
  set_discount: string | null;
  tiers: Tier[];
}

export interface Applied {
  /** Percentage applied, as a decimal string ("0" when none). */
  discount: string;
  /** threshold_spend of the tier reached (Tier Discount only). */
  reached_tier: string | null;
  discounted: Units;
}

/** Tiers by ascending threshold (exact comparison), as the tier table lists them. */
export function sortedTiers(tiers: readonly Tier[]): Tier[] {
  return [...tiers].sort((a, b) => {
    const [x, y] = [toUnits(a.threshold_spend), toUnits(b.threshold_spend)];
    return x < y ? -1 : x > y ? 1 : 0;
  });
}

export function applyDiscount(settings: DiscountSettings, spend: Units): Applied {
  if (settings.type === 'Set Discount' && settings.set_discount !== null) {
    return { discount: settings.set_discount, reached_tier: null, discounted: spend - percentOf(spend, settings.set_discount) };
  }
  if (settings.type === 'Tier Discount') {
    const reached = sortedTiers(settings.tiers)
      .filter((t) => spend >= toUnits(t.threshold_spend))
      .at(-1);
    if (reached) return { discount: reached.percentage, reached_tier: reached.threshold_spend, discounted: spend - percentOf(spend, reached.percentage) };
  }
  return { discount: '0', reached_tier: null, discounted: spend };
}
