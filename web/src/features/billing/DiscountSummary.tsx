import { discountColumns, type DiscountColumn } from './discount-columns.ts';
import { formatMoney, formatPercent } from './format.ts';
import type { BillingMonth, ChartPayload } from '@cc/shared/schemas/billing.ts';
import styles from './BillingDashboard.module.css';

/** A tier of the Tier Discount table, as the chart answer carries it (exact decimal text). */
type DiscountTier = ChartPayload['tiers'][number];

/** True when the answer carries discounts worth a summary (a discount dashboard type, or any discount). */
export function carriesDiscounts(months: readonly BillingMonth[] | undefined, dashboardType: string | undefined): boolean {
  if (!months || months.length === 0) return false;
  return (dashboardType !== undefined && dashboardType !== 'Standard') || months.some((m) => Number(m.discount) !== 0);
}

/**
 * A month table. In a narrow content area (phone, 800 px window with the side menu) each month turns into a card,
 * one line per column with its header beside the value, instead of running off the side: `stack` says at
 * which width (BillingDashboard.module.css, container queries on `.discounts`). The explicit roles keep the table's
 * meaning for assistive technology when CSS lays the rows out as blocks.
 */
function MonthTable({ label, caption, months, columns, stack }: { label: string; caption: string; months: readonly BillingMonth[]; columns: DiscountColumn[]; stack: 'wide' | 'narrow' }) {
  return (
    <table className={`${styles.table} ${stack === 'wide' ? styles.stackWide : styles.stackNarrow}`} aria-label={label} role="table">
      <caption>{caption}</caption>
      <thead role="rowgroup">
        <tr role="row">
          <th scope="col" role="columnheader">
            Month
          </th>
          {columns.map((c) => (
            <th key={c.header} scope="col" role="columnheader">
              {c.header}
            </th>
          ))}
        </tr>
      </thead>
      <tbody role="rowgroup">
        {months.map((m) => (
          <tr key={m.month} role="row">
            <th scope="row" role="rowheader" data-label="Month">
              {m.month}
            </th>
            {columns.map((c) => (
              <td key={c.header} role="cell" data-label={c.header}>
                {c.cell(m)}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** Tier Discount: the thresholds and their percentages, the tier the current month reached marked. */
function TierTable({ tiers, reached, currency }: { tiers: readonly DiscountTier[]; reached: string | null; currency: string }) {
  return (
    <table className={`${styles.table} ${styles.tierTable}`} aria-label="Discount tiers">
      <caption>Discount tiers ({currency})</caption>
      <thead>
        <tr>
          <th scope="col">Threshold Spend</th>
          <th scope="col">Percentage</th>
        </tr>
      </thead>
      <tbody>
        {tiers.map((t) => {
          const isReached = reached !== null && t.threshold_spend === reached;
          return (
            <tr key={t.threshold_spend} aria-current={isReached ? 'true' : undefined} className={isReached ? styles.reached : undefined}>
              <td>{formatMoney(t.threshold_spend)}</td>
              <td>
                {formatPercent(t.percentage)}
                {isReached ? ' (reached)' : ''}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

export interface DiscountSummaryProps {
  months: readonly BillingMonth[];
  currency: string;
  historical: boolean;
  dashboardType: string | undefined;
  tiers: readonly DiscountTier[];
}

/**
 * The discount summary tables above the chart (spec 000 §2, §3 'Billing chart month'), per dashboard type:
 * the current month with its forecast, with Historical data on the earlier months of the period, and for
 * Tier Discount the tier table.
 */
export function DiscountSummary({ months, currency, historical, dashboardType, tiers }: DiscountSummaryProps) {
  const sorted = [...months].sort((a, b) => a.month.localeCompare(b.month));
  const current = sorted[sorted.length - 1];
  const earlier = sorted.slice(0, -1).reverse();
  return (
    <div className={styles.discounts}>
      <div className={styles.discountRow}>
        <MonthTable label="Current month discount" caption={`Current month (${currency})`} months={[current]} columns={discountColumns(dashboardType, true)} stack="wide" />
        {dashboardType === 'Tier Discount' && tiers.length > 0 ? <TierTable tiers={tiers} reached={current.reached_tier} currency={currency} /> : null}
      </div>
      {historical && earlier.length > 0 ? (
        <MonthTable label="Previous months discount" caption={`Previous months (${currency})`} months={earlier} columns={discountColumns(dashboardType, false)} stack="narrow" />
      ) : null}
    </div>
  );
}
