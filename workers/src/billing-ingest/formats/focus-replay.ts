/**
 * Local demo of recent AWS and Azure spend: the real FOCUS 1.0 sample covers one month (September 2024), so on its
 * own it is invisible in every period the dashboard offers today. This replays its rows into each of the last
 * `months` months up to `yesterday`, keeping every amount as written (no arithmetic on money), so `make start`
 * shows every provider in every period. Only the time columns change.
 */
import { parse } from 'csv-parse/sync';
import { addDays, billingDay } from '@cc/shared/time.ts';

const TIME_COLUMNS = ['ChargePeriodStart', 'ChargePeriodEnd'] as const;

/** 'YYYY-MM-DD HH:MM:SS' (UTC, as the sample writes it) moved by whole days. */
function shiftTimestamp(value: string, days: number): string {
  const ms = Date.parse(`${value.trim().replace(' ', 'T').replace(/Z?$/, 'Z')}`);
  if (Number.isNaN(ms)) throw new Error(`not a timestamp: '${value}'`);
  return new Date(ms + days * 86_400_000).toISOString().replace('T', ' ').slice(0, 19);
}

const nextMonthStart = (first: string) => addMonths(first, 1);
const previousMonthStart = (first: string) => addMonths(first, -1);
const daysBetween = (from: string, to: string) => Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
const monthStart = (day: string) => `${day.slice(0, 7)}-01`;

const monthsBetween = (from: string, to: string) => (Number(to.slice(0, 4)) - Number(from.slice(0, 4))) * 12 + Number(to.slice(5, 7)) - Number(from.slice(5, 7));
/** The first of the month `n` months after the month of `first` (a YYYY-MM-01 date). */
function addMonths(first: string, n: number): string {
  const index = Number(first.slice(0, 4)) * 12 + Number(first.slice(5, 7)) - 1 + n;
  return `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, '0')}-01`;
}

const quote = (field: string) => (/[",\r\n]/.test(field) ? `"${field.replace(/"/g, '""')}"` : field);

/**
 * The sample's rows replayed into every month from `months - 1` months before `yesterday`'s month to it. A row lands
 * in a copy when its US/Pacific charge day falls inside that month (and not after `yesterday`), so copies never
 * overlap and short months simply lose the sample's last days.
 */
export function replayFocusSample(csvText: string, o: { yesterday: string; months: number }): string {
  const records = parse(csvText, { bom: true, relax_column_count: false }) as string[][];
  const [header, ...rows] = records;
  const col = Object.fromEntries(header.map((name, i) => [name, i]));
  for (const name of [...TIME_COLUMNS, 'BillingPeriodStart', 'BillingPeriodEnd']) {
    if (!(name in col)) throw new Error(`the FOCUS sample has no ${name} column`);
  }
  const out = [header.map(quote).join(',')];
  let target = monthStart(o.yesterday);
  const targets: string[] = [];
  for (let i = 0; i < o.months; i++, target = previousMonthStart(target)) targets.unshift(target);

  // One shift per copy, from the sample's (first) billing month: a late row billed in the next month moves with it.
  const sampleMonth = rows.map((r) => r[col.BillingPeriodStart].slice(0, 10)).sort()[0];
  for (const first of targets) {
    const next = nextMonthStart(first);
    const last = [addDays(next, -1), o.yesterday].sort()[0];
    const shift = daysBetween(sampleMonth, first);
    const months = monthsBetween(sampleMonth, first);
    for (const row of rows) {
      const copy = [...row];
      for (const name of TIME_COLUMNS) copy[col[name]] = shiftTimestamp(row[col[name]], shift);
      const day = billingDay(Date.parse(`${copy[col.ChargePeriodStart].replace(' ', 'T')}Z`));
      if (day < first || day > last) continue;
      copy[col.BillingPeriodStart] = `${addMonths(row[col.BillingPeriodStart].slice(0, 10), months)} 00:00:00`;
      copy[col.BillingPeriodEnd] = `${addMonths(row[col.BillingPeriodEnd].slice(0, 10), months)} 00:00:00`;
      out.push(copy.map(quote).join(','));
    }
  }
  return `${out.join('\n')}\n`;
}
