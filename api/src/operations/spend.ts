/**
 * The all-customers spend overview: per customer the figures of its own billing dashboard (month to date and the
 * forecast, by the same functions), last month at the same day, and the same month to date and forecast in the
 * provider's currency from each day converted at its own rate.
 */
import type { Pool } from '@cc/shared/db/pool.ts';
import { customersSpendDays, type CustomerSpendDays } from '@cc/shared/db/operations-spend.ts';
import { forecastMonth, HISTORY_WEEKS, monthToDate } from '@cc/shared/billing/forecast.ts';
import { divRound, formatUnits, toUnits, type Units } from '@cc/shared/billing/money.ts';
import { monthStart } from '@cc/shared/billing/periods.ts';
import { ANOMALY_DATE_OFFSET_DAYS } from '@cc/shared/insights/anomaly-rule.ts';
import { addDays, addMonths } from '@cc/shared/time.ts';
import type { SpendAnswer, SpendRow } from '@cc/shared/schemas/operations.ts';

const unitsOf = (days: Map<string, string>) => new Map([...days].map(([d, s]) => [d, toUnits(s)] as const));

/** Last month from its first day to the same day of the month as yesterday (clamped to its length); 0 on the 1st. */
export function lastMonthSameDay(daily: ReadonlyMap<string, Units>, today: string): Units {
  if (today.slice(8, 10) === '01') return 0n;
  const last = addMonths(addDays(today, -1), -1);
  let s = 0n;
  for (let d = monthStart(last); d <= last; d = addDays(d, 1)) s += daily.get(d) ?? 0n;
  return s;
}

/** (now − before) / before in percent, 1 decimal, half away from zero; null when before is 0. */
export function changePercent(now: Units, before: Units): string | null {
  if (before === 0n) return null;
  const tenths = divRound((now - before) * 1000n, before < 0n ? -before : before);
  const neg = tenths < 0n;
  const a = neg ? -tenths : tenths;
  return `${neg ? '-' : ''}${a / 10n}.${a % 10n}`;
}

/** Every day from `from` to `to` that has spend in the customer's currency also has it in the provider's. */
const convertedWhole = (c: CustomerSpendDays) => [...c.days.keys()].every((d) => c.providerDays.has(d));

function rowOf(c: CustomerSpendDays, today: string): { row: SpendRow; provider: { mtd: Units; forecast: Units } | null } {
  const own = unitsOf(c.days);
  const mtd = monthToDate(own, today);
  const before = lastMonthSameDay(own, today);
  const provider = convertedWhole(c) ? unitsOf(c.providerDays) : null;
  const p = provider ? { mtd: monthToDate(provider, today), forecast: forecastMonth(provider, today) } : null;
  return {
    row: {
      customer_id: c.customer_id,
      customer_name: c.customer_name,
      currency: c.currency,
      billing_account_id: c.billing_account_id,
      month_to_date: formatUnits(mtd),
      forecast: formatUnits(forecastMonth(own, today)),
      last_month_same_day: formatUnits(before),
      change_percent: changePercent(mtd, before),
      provider_month_to_date: p ? formatUnits(p.mtd) : null,
      provider_forecast: p ? formatUnits(p.forecast) : null,
      open_anomalies: c.open_anomalies,
      alerts_over_quota: c.alerts_over_quota,
      last_usage_date: c.last_usage_date,
    },
    provider: p,
  };
}

/** The overview as of US/Pacific `today`. */
export async function spendOverview(pool: Pool, today: string, providerCurrency: string): Promise<SpendAnswer> {
  // the forecast's 4 weeks and last month from its first day
  const from = [monthStart(addMonths(today, -1)), addDays(today, -7 * HISTORY_WEEKS)].sort()[0];
  const customers = await customersSpendDays(pool, {
    from,
    to: addDays(today, -1),
    providerCurrency,
    anomalyDate: addDays(today, -ANOMALY_DATE_OFFSET_DAYS),
    month: today.slice(0, 7),
  });
  let mtd = 0n;
  let forecast = 0n;
  const rows: SpendRow[] = [];
  const unconverted: string[] = [];
  for (const c of customers) {
    const { row, provider } = rowOf(c, today);
    rows.push(row);
    if (provider) {
      mtd += provider.mtd;
      forecast += provider.forecast;
    } else unconverted.push(c.customer_id);
  }
  return { today, provider_currency: providerCurrency, rows, total: { month_to_date: formatUnits(mtd), forecast: formatUnits(forecast) }, unconverted };
}
