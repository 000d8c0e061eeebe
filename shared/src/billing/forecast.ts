/**
 * Forecast of the current month's spend: month-to-date (complete days up to yesterday) plus a prediction of every
 * remaining day (today through the month's last day). A remaining day is predicted by the median spend of the same
 * weekday over the 4 weeks before today: cloud spend follows a weekly rhythm (batch jobs, office-hours scaling) and
 * the median of four ignores a one-off spike. The naive baseline (month-to-date ÷ elapsed days × days in month)
 * is kept for the backtest benchmark. All arithmetic is exact on Units; medians round half away from zero.
 */
import { addDays } from '../time.ts';
import { daysInMonth, monthEnd, monthStart } from './periods.ts';
import { divRound, type Units } from './money.ts';

export const HISTORY_WEEKS = 4;

const weekday = (day: string) => new Date(`${day}T00:00:00Z`).getUTCDay();

function median(values: Units[]): Units {
  const s = [...values].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : divRound(s[mid - 1] + s[mid], 2n);
}

/** Month-to-date: the month's days before `today`. */
export function monthToDate(daily: ReadonlyMap<string, Units>, today: string): Units {
  let s = 0n;
  for (let d = monthStart(today); d < today; d = addDays(d, 1)) s += daily.get(d) ?? 0n;
  return s;
}

/**
 * `daily`: spend per day (missing = 0) covering at least the 4 weeks before today and the month so far.
 * When those 4 weeks hold no data at all (a new account), nothing can be said about the rest: the forecast is
 * the month-to-date.
 */
export function forecastMonth(daily: ReadonlyMap<string, Units>, today: string): Units {
  const mtd = monthToDate(daily, today);
  const historyStart = addDays(today, -7 * HISTORY_WEEKS);
  const byWeekday: Units[][] = Array.from({ length: 7 }, () => []);
  let seen = false;
  for (let d = historyStart; d < today; d = addDays(d, 1)) {
    if (daily.has(d)) seen = true;
    byWeekday[weekday(d)].push(daily.get(d) ?? 0n);
  }
  if (!seen) return mtd;
  const predicted = byWeekday.map(median);
  let rest = 0n;
  for (let d = today, end = monthEnd(today); d <= end; d = addDays(d, 1)) rest += predicted[weekday(d)];
  return mtd + rest;
}

/** The baseline the issue names: month-to-date × days in month ÷ elapsed days (month-to-date on the 1st). */
export function naiveForecast(daily: ReadonlyMap<string, Units>, today: string): Units {
  const mtd = monthToDate(daily, today);
  const elapsed = Number(today.slice(8, 10)) - 1;
  if (elapsed === 0) return mtd;
  return divRound(mtd * BigInt(daysInMonth(today)), BigInt(elapsed));
}
