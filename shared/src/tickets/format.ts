/** Date formats of spec 000 §9: ticket dates YYYY/MM/DD HH:mm (US/Pacific, the product's time zone); list dates en-GB 24-hour. */
const TICKET_ZONE = 'US/Pacific';

const parts = new Intl.DateTimeFormat('en-CA', {
  timeZone: TICKET_ZONE,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

/** '2026/11/22 10:05' in US/Pacific. */
export function formatTicketDate(instant: Date | string): string {
  const p = Object.fromEntries(parts.formatToParts(new Date(instant)).map((x) => [x.type, x.value]));
  return `${p.year}/${p.month}/${p.day} ${p.hour}:${p.minute}`;
}

const listFormat = new Intl.DateTimeFormat('en-GB', {
  timeZone: TICKET_ZONE,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

/** '22/11/2026, 10:05' (en-GB, 24-hour, US/Pacific). */
export function formatListDate(instant: Date | string): string {
  return listFormat.format(new Date(instant));
}
