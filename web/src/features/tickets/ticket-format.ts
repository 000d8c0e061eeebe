/** How ticket dates and durations read (spec 000 §4, §9). */

const TICKET_TIME_ZONE = 'US/Pacific';

const ticketParts = new Intl.DateTimeFormat('en-US', {
  timeZone: TICKET_TIME_ZONE,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

const listFormat = new Intl.DateTimeFormat('en-GB', { dateStyle: 'short', timeStyle: 'short', hourCycle: 'h23' });

function toDate(value: string | null | undefined): Date | null {
  if (!value) return null;
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? null : d;
}

/** Ticket screen dates: YYYY/MM/DD HH:mm in US/Pacific; '' when absent. */
export function formatTicketDate(value: string | null | undefined): string {
  const d = toDate(value);
  if (!d) return '';
  const p = Object.fromEntries(ticketParts.formatToParts(d).map((x) => [x.type, x.value]));
  return `${p.year}/${p.month}/${p.day} ${p.hour}:${p.minute}`;
}

/** List dates: en-GB, 24-hour (e.g. 22/11/2026, 18:05), in the browser's time zone; '' when absent. */
export function formatListDate(value: string | null | undefined): string {
  const d = toDate(value);
  return d ? listFormat.format(d) : '';
}

/**
 * The first-response bucket, from minutes between creation and first response: under 60 '< 1h',
 * under 240 '< 4h', under 1440 '< 24h', under 2880 '< 48h', otherwise the hours rounded ('73h').
 */
export function firstResponseBucket(created: string | null | undefined, firstResponse: string | null | undefined): string {
  const from = toDate(created);
  const to = toDate(firstResponse);
  if (!from || !to) return '';
  const minutes = (to.getTime() - from.getTime()) / 60_000;
  if (minutes < 60) return '< 1h';
  if (minutes < 240) return '< 4h';
  if (minutes < 1440) return '< 24h';
  if (minutes < 2880) return '< 48h';
  return `${Math.round(minutes / 60)}h`;
}
