/**
 * Forecast backtest over generated history: for every day of the last 12 complete months, forecast the month as
 * of that morning (weekday-aware median run rate, and the naive MTD ÷ elapsed × days baseline) and compare with the
 * month's actual spend. MAPE = mean |forecast − actual| / actual.
 */
import { addDays, addMonths, billingToday } from '@cc/shared/time.ts';
import { forecastMonth, naiveForecast } from '@cc/shared/billing/forecast.ts';
import { monthEnd } from '@cc/shared/billing/periods.ts';
import { toUnits, type Units } from '@cc/shared/billing/money.ts';
import { generatedRowsForDay } from '@cc/shared/adapters/bigquery/local.ts';
import { BENCH_ACCOUNT } from './rows.ts';
import { fmt } from './context.ts';

const ratio = (a: Units, b: Units) => Number((a * 1_000_000n) / b) / 1_000_000;

export async function forecastBench(): Promise<void> {
  const lastMonthStart = addMonths(`${billingToday().slice(0, 8)}01`, -1);
  const firstMonthStart = addMonths(lastMonthStart, -11);
  const daily = new Map<string, Units>();
  for (let d = addDays(firstMonthStart, -35); d <= monthEnd(lastMonthStart); d = addDays(d, 1)) {
    let s = 0n;
    for (const r of generatedRowsForDay(BENCH_ACCOUNT, d)) s += toUnits(r.cost) + toUnits(r.credits);
    daily.set(d, s);
  }
  const errors = { weekday: [] as number[], naive: [] as number[], weekdayEarly: [] as number[], naiveEarly: [] as number[] };
  for (let m = firstMonthStart; m <= lastMonthStart; m = addMonths(m, 1)) {
    let actual = 0n;
    for (let d = m; d <= monthEnd(m); d = addDays(d, 1)) actual += daily.get(d)!;
    // From the 2nd: on the 1st the naive method has nothing to extrapolate.
    for (let today = addDays(m, 1); today <= monthEnd(m); today = addDays(today, 1)) {
      const w = Math.abs(ratio(forecastMonth(daily, today) - actual, actual));
      const n = Math.abs(ratio(naiveForecast(daily, today) - actual, actual));
      errors.weekday.push(w);
      errors.naive.push(n);
      if (Number(today.slice(8, 10)) <= 7) {
        errors.weekdayEarly.push(w);
        errors.naiveEarly.push(n);
      }
    }
  }
  const mape = (xs: number[]) => (100 * xs.reduce((a, b) => a + b, 0)) / xs.length;
  console.log(`months ${firstMonthStart.slice(0, 7)} … ${lastMonthStart.slice(0, 7)}, ${errors.weekday.length} forecast days`);
  console.log(`MAPE weekday-aware median  ${fmt(mape(errors.weekday), 2)} %   (days 2–7: ${fmt(mape(errors.weekdayEarly), 2)} %)`);
  console.log(`MAPE naive MTD × days      ${fmt(mape(errors.naive), 2)} %   (days 2–7: ${fmt(mape(errors.naiveEarly), 2)} %)`);
  console.log(`error ratio naive / ours   ${fmt(mape(errors.naive) / mape(errors.weekday), 2)}×`);
}
