/** The months of an answer's discount rows and Spend Sum, planned once per answer from the period and today. */
import { monthsBetween, monthStart, type DateRange } from '@cc/shared/billing/periods.ts';
import { addMonths } from '@cc/shared/time.ts';

export interface MonthPlan {
  /** Today's month (yyyy-MM): month-to-date and forecast, from the daily rows. */
  current: string;
  /** The month before: the Spend Sum's previous month; a discount row only when the period touches it. */
  previous: string;
  /** Months read as whole-month totals: every month needed but the current one, sorted (never empty). */
  past: string[];
  /** Months with a discount row, sorted; the current month is the last. */
  rows: string[];
}

/**
 * The months the period touches, the previous and the current month. A custom period reaching into the future adds
 * no months after the current one: they hold no spend and no forecast, and the current month must stay the last row
 * (the dashboard's "Current month" table).
 */
export function planMonths(range: DateRange, today: string): MonthPlan {
  const current = today.slice(0, 7);
  const previous = addMonths(monthStart(today), -1).slice(0, 7);
  const touched = monthsBetween(range.start_date, range.end_date).filter((m) => m <= current);
  const needed = [...new Set([...touched, previous, current])].sort();
  return {
    current,
    previous,
    past: needed.filter((m) => m !== current),
    rows: needed.filter((m) => m !== previous || touched.includes(previous)),
  };
}
