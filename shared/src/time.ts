/** The one place that turns instants into billing days (spec: billing days and months are US/Pacific). */
import { BILLING_TIME_ZONE } from './constants.ts';

const dayFormat = new Intl.DateTimeFormat('en-CA', { timeZone: BILLING_TIME_ZONE, year: 'numeric', month: '2-digit', day: '2-digit' });

/** YYYY-MM-DD of the US/Pacific day containing the instant (milliseconds since the epoch). */
// The day of the last minute asked for: time zones change the date on a whole minute, and the hot path asks on every
// request (Intl formatting was ~2 % of a cached chart).
let lastMinute = NaN;
let lastDay = '';

export function billingDay(epochMs: number): string {
  const minute = Math.floor(epochMs / 60_000);
  if (minute !== lastMinute) {
    // en-CA formats as YYYY-MM-DD.
    lastDay = dayFormat.format(minute * 60_000);
    lastMinute = minute;
  }
  return lastDay;
}

const ISO_DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** True for a real calendar date written YYYY-MM-DD (rejects 2024-02-30). */
export function isIsoDate(s: string): boolean {
  const m = ISO_DATE_RE.exec(s);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.toISOString().slice(0, 10) === s;
}

/** Adds whole days to a YYYY-MM-DD date (calendar arithmetic in UTC, so no DST surprises). */
export function addDays(isoDate: string, days: number): string {
  const d = new Date(`${isoDate}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** Adds whole months to a YYYY-MM-DD date, clamping the day to the target month's length. */
export function addMonths(isoDate: string, months: number): string {
  const [y, m, d] = isoDate.split('-').map(Number);
  const first = new Date(Date.UTC(y, m - 1 + months, 1));
  const last = new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + 1, 0)).getUTCDate();
  first.setUTCDate(Math.min(d, last));
  return first.toISOString().slice(0, 10);
}

/** Today's US/Pacific date. */
export function billingToday(now = Date.now()): string {
  return billingDay(now);
}
