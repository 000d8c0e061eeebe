import t from 'tap';
import { formatListTimestamp, formatTimestamp, formatTimestampWithZone } from './dates.ts';

t.test('timestamps are US/Pacific, YYYY/MM/DD HH:mm', async (t) => {
  // 2026-07-01 16:05 UTC is 09:05 in US/Pacific (daylight time)
  t.equal(formatTimestamp('2026-07-01T16:05:00Z'), '2026/07/01 09:05');
  t.equal(formatTimestamp('2026-01-02T07:30:00Z'), '2026/01/01 23:30');
  // 2026-03-15 05:07 UTC is still 2026-03-14 in Los Angeles.
  t.equal(formatTimestamp(Date.UTC(2026, 2, 15, 5, 7)), '2026/03/14 22:07');
  t.equal(formatTimestamp(new Date('2026-11-22T18:05:00Z')), '2026/11/22 10:05');
});

t.test('list dates are en-GB 24-hour, US/Pacific', async (t) => {
  t.equal(formatListTimestamp('2026-07-01T16:05:00Z'), '01/07/2026, 09:05');
  t.equal(formatListTimestamp('2026-01-02T07:30:00Z'), '01/01/2026, 23:30');
});

t.test('one spelling of the zone, the same clock as the spec US/Pacific', async (t) => {
  const instants = ['2026-03-08T09:59:00Z', '2026-03-08T10:00:00Z', '2026-11-01T08:59:00Z', '2026-11-01T09:00:00Z'];
  for (const at of instants) {
    const legacy = new Intl.DateTimeFormat('en-GB', { timeZone: 'US/Pacific', dateStyle: 'short', timeStyle: 'short' }).format(new Date(at));
    t.equal(formatListTimestamp(at), legacy, `same text as US/Pacific at ${at}`);
  }
});

t.test('a time shown alone says its zone', async (t) => {
  t.equal(formatTimestampWithZone('2026-07-01T16:05:00Z'), '2026/07/01 09:05 PDT');
  t.equal(formatTimestampWithZone('2026-01-02T07:30:00Z'), '2026/01/01 23:30 PST');
});
