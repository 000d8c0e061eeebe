/**
 * The one place the web turns instants into text (spec 000 §9, 001 §9). Dates are shown in the product's time
 * zone, the spec's "US/Pacific", written by its IANA canonical name.
 */
export const PACIFIC_TIME_ZONE = 'America/Los_Angeles';

const clock = { timeZone: PACIFIC_TIME_ZONE, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' } as const;
const timestampFormat = new Intl.DateTimeFormat('en-CA', clock);
const listFormat = new Intl.DateTimeFormat('en-GB', clock);

/** '2026/11/22 10:05': ticket dates, notices, the dashboard's clock. */
export function formatTimestamp(instant: Date | string | number): string {
  const p = Object.fromEntries(timestampFormat.formatToParts(new Date(instant)).map((x) => [x.type, x.value]));
  return `${p.year}/${p.month}/${p.day} ${p.hour}:${p.minute}`;
}

/** '22/11/2026, 10:05' (en-GB, 24-hour): dates in lists. */
export function formatListTimestamp(instant: Date | string | number): string {
  return listFormat.format(new Date(instant));
}

const zoneFormat = new Intl.DateTimeFormat('en-US', { timeZone: PACIFIC_TIME_ZONE, timeZoneName: 'short' });

/** '2026/11/22 10:05 PST': a time shown on its own says its zone (the product's, US/Pacific). */
export function formatTimestampWithZone(instant: Date | string | number): string {
  const zone = zoneFormat.formatToParts(new Date(instant)).find((p) => p.type === 'timeZoneName')?.value ?? 'US/Pacific';
  return `${formatTimestamp(instant)} ${zone}`;
}
