import { formatMoney, formatPercent } from './format.ts';
import type { BillingMonth } from './types.ts';
import styles from './BillingDashboard.module.css';

/** True when the answer carries discounts worth a summary (a discount dashboard type, or any discount). */
export function carriesDiscounts(months: readonly BillingMonth[] | undefined, dashboardType: string | undefined): boolean {
  if (!months || months.length === 0) return false;
  return (dashboardType !== undefined && dashboardType !== 'Standard') || months.some((m) => Number(m.discount) !== 0);
}

const tier = (v: string | null) => (v == null ? '–' : formatMoney(v));

/**
 * The discount summary tables above the chart (spec 000 §2, §3 'Billing chart month'): the current
 * month with its forecast, and, with Historical data on, the earlier months of the period.
 */
export function DiscountSummary({ months, currency, historical }: { months: readonly BillingMonth[]; currency: string; historical: boolean }) {
  const sorted = [...months].sort((a, b) => a.month.localeCompare(b.month));
  const current = sorted[sorted.length - 1];
  const earlier = sorted.slice(0, -1).reverse();
  return (
    <div className={styles.discounts}>
      <table className={styles.table} aria-label="Current month discount">
        <caption>Current month ({currency})</caption>
        <thead>
          <tr>
            <th scope="col">Month</th>
            <th scope="col">Monthly Spend</th>
            <th scope="col">Forecasted Monthly Spend</th>
            <th scope="col">Discount</th>
            <th scope="col">Reached Tier</th>
            <th scope="col">Forecasted Reached Tier</th>
            <th scope="col">Discounted Spend</th>
            <th scope="col">Forecasted Discounted Spend</th>
          </tr>
        </thead>
        <tbody>
          <tr>
            <th scope="row">{current.month}</th>
            <td>{formatMoney(current.monthly_spend)}</td>
            <td>{formatMoney(current.forecasted_monthly_spend)}</td>
            <td>{formatPercent(current.discount)}</td>
            <td>{tier(current.reached_tier)}</td>
            <td>{tier(current.forecasted_reached_tier)}</td>
            <td>{formatMoney(current.discounted_spend)}</td>
            <td>{formatMoney(current.forecasted_discounted_spend)}</td>
          </tr>
        </tbody>
      </table>
      {historical && earlier.length > 0 ? (
        <table className={styles.table} aria-label="Previous months discount">
          <caption>Previous months ({currency})</caption>
          <thead>
            <tr>
              <th scope="col">Month</th>
              <th scope="col">Monthly Spend</th>
              <th scope="col">Discount</th>
              <th scope="col">Reached Tier</th>
              <th scope="col">Discounted Spend</th>
            </tr>
          </thead>
          <tbody>
            {earlier.map((m) => (
              <tr key={m.month}>
                <th scope="row">{m.month}</th>
                <td>{formatMoney(m.monthly_spend)}</td>
                <td>{formatPercent(m.discount)}</td>
                <td>{tier(m.reached_tier)}</td>
                <td>{formatMoney(m.discounted_spend)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </div>
  );
}
