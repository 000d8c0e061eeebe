/**
 * Period semantics (spec 001 §9): 7days / 30days run from that many days ago up to yesterday, by day; 12months
 * from the first day of the month 11 months before yesterday's month up to yesterday, by month; CustomizedPeriod
 * is start_date..end_date inclusive, by day up to MAX_DAILY_DAYS days and by month beyond. Days are billing days
 * (US/Pacific); "today" is the day in the caller's time zone (default US/Pacific).
 */
import { addDays, addMonths, isIsoDate, billingDay } from '../time.ts';
import { BILLING_TIME_ZONE } from '../constants.ts';

export const PERIODS = ['7days', '30days', '12months', 'CustomizedPeriod'] as const;
export type Period = (typeof PERIODS)[number];
export type Granularity = 'day' | 'month';

/** A custom range longer than this is drawn by month (a bar per day would be unreadable). */
export const MAX_DAILY_DAYS = 92;
/** Longest custom range accepted (about 5 years of history). */
export const MAX_RANGE_DAYS = 1850;

export interface DateRange {
  start_date: string;
  end_date: string;
  granularity: Granularity;
  label: string;
}

export class PeriodError extends Error {
  override name = 'PeriodError';
}

export function isPeriod(p: string): p is Period {
  return (PERIODS as readonly string[]).includes(p);
}

/** Days between two ISO dates (b - a). */
export function daysBetween(a: string, b: string): number {
  return Math.round((Date.parse(`${b}T00:00:00Z`) - Date.parse(`${a}T00:00:00Z`)) / 86_400_000);
}

export const monthStart = (day: string) => `${day.slice(0, 8)}01`;
export const monthEnd = (day: string) => addDays(addMonths(monthStart(day), 1), -1);
export const daysInMonth = (day: string) => Number(monthEnd(day).slice(8, 10));

/** Today's date in a time zone; throws PeriodError for an unknown zone. */
export function todayIn(timeZone: string = BILLING_TIME_ZONE, now = Date.now()): string {
  if (timeZone === BILLING_TIME_ZONE) return billingDay(now);
  let fmt: Intl.DateTimeFormat;
  try {
    fmt = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
  } catch {
    throw new PeriodError(`Unknown timezone '${timeZone}'`);
  }
  return fmt.format(now);
}

// The named periods' ranges of the last day asked for: every chart request resolves one (the hot path).
const named = new Map<string, DateRange>();

export function resolvePeriod(input: { period?: string; start_date?: string; end_date?: string }, today: string): DateRange {
  const period = input.period ?? '12months';
  if (!isPeriod(period)) throw new PeriodError(`period must be one of ${PERIODS.join(', ')}`);
  if (period !== 'CustomizedPeriod') {
    const key = `${period} ${today}`;
    let range = named.get(key);
    if (!range) {
      if (named.size > 16) named.clear();
      range = resolveNamed(period, today);
      named.set(key, range);
    }
    return { ...range };
  }
  return resolveNamed(period, today, input);
}

function resolveNamed(period: (typeof PERIODS)[number], today: string, input: { start_date?: string; end_date?: string } = {}): DateRange {
  const yesterday = addDays(today, -1);
  const make = (start: string, end: string, granularity: Granularity): DateRange => ({
    start_date: start,
    end_date: end,
    granularity,
    label: `${start} - ${end}`,
  });
  if (period === '7days') return make(addDays(today, -7), yesterday, 'day');
  if (period === '30days') return make(addDays(today, -30), yesterday, 'day');
  if (period === '12months') return make(addMonths(monthStart(yesterday), -11), yesterday, 'month');
  const { start_date: start, end_date: end } = input;
  if (!start || !end) throw new PeriodError('CustomizedPeriod needs start_date and end_date (yyyy-MM-dd)');
  if (!isIsoDate(start)) throw new PeriodError(`start_date '${start}' is not a date in yyyy-MM-dd`);
  if (!isIsoDate(end)) throw new PeriodError(`end_date '${end}' is not a date in yyyy-MM-dd`);
  if (start > end) throw new PeriodError('start_date must not be after end_date');
  const days = daysBetween(start, end) + 1;
  if (days > MAX_RANGE_DAYS) throw new PeriodError(`the period may span at most ${MAX_RANGE_DAYS} days`);
  return make(start, end, days > MAX_DAILY_DAYS ? 'month' : 'day');
}

/** The bars of a range: every day, or every month (yyyy-MM), so days without spend still get an empty bar. */
export function buckets(range: DateRange): string[] {
  const out: string[] = [];
  if (range.granularity === 'day') {
    for (let d = range.start_date; d <= range.end_date; d = addDays(d, 1)) out.push(d);
  } else {
    for (let d = monthStart(range.start_date); d <= range.end_date; d = addMonths(d, 1)) out.push(d.slice(0, 7));
  }
  return out;
}

/** Calendar months (yyyy-MM) from the month of `from` through the month of `to`. */
export function monthsBetween(from: string, to: string): string[] {
  const out: string[] = [];
  for (let d = monthStart(from); d <= to; d = addMonths(d, 1)) out.push(d.slice(0, 7));
  return out;
}

/**
 * Splits a range for the monthly rollup: the whole calendar months inside it (first and last month start, or null)
 * and the leftover day ranges at its edges, which only the daily rollup can answer.
 */
export function splitWholeMonths(from: string, to: string): { months: { from: string; to: string } | null; days: { from: string; to: string }[] } {
  let first = monthStart(from);
  if (first < from) first = addMonths(first, 1);
  let last = monthStart(to);
  if (monthEnd(last) > to) last = addMonths(last, -1);
  if (first > last) return { months: null, days: [{ from, to }] };
  const days: { from: string; to: string }[] = [];
  if (from < first) days.push({ from, to: addDays(first, -1) });
  if (monthEnd(last) < to) days.push({ from: addDays(monthEnd(last), 1), to });
  return { months: { from: first, to: last }, days };
}
