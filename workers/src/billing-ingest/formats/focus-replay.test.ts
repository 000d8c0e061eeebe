import t from 'tap';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CostRow } from '@cc/shared/ports/billing-source.ts';
import { focusCsvSource } from './focus-csv.ts';
import { replayFocusSample } from './focus-replay.ts';

const SAMPLE = new URL('../../../../infra/data/focus-1.0/focus_sample.csv', import.meta.url).pathname;

/** Exact sum in 10^-12 units, kept apart from the code under test. */
function units(s: string): bigint {
  const neg = s.startsWith('-');
  const [i, f = ''] = s.replace(/^[-+]/, '').split('.');
  const v = BigInt(i || '0') * 10n ** 12n + BigInt((f + '0'.repeat(12)).slice(0, 12));
  return neg ? -v : v;
}

async function rowsOf(path: string): Promise<CostRow[]> {
  const rows: CostRow[] = [];
  for await (const item of focusCsvSource(path).rows()) {
    if (item.error !== undefined) throw new Error(`line ${item.line}: ${item.error}`);
    rows.push(item.row);
  }
  return rows;
}

function spendByProvider(rows: CostRow[]): Record<string, bigint> {
  const out: Record<string, bigint> = {};
  for (const r of rows) out[r.provider] = (out[r.provider] ?? 0n) + units(r.cost) + units(r.credits);
  return out;
}

t.test('the FOCUS sample replayed into the last 13 months: valid, in range, amounts unchanged', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'cc-replay-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const file = join(dir, 'replayed.csv');
  await writeFile(file, replayFocusSample(await readFile(SAMPLE, 'utf8'), { yesterday: '2026-11-21', months: 13 }));

  const sample = await rowsOf(SAMPLE);
  const replayed = await rowsOf(file);
  const days = replayed.map((r) => r.usage_date).sort();
  t.equal(days[0], '2025-11-01', 'starts with the first day of the 13th month back');
  t.equal(days.at(-1), '2026-11-21', 'ends with yesterday');

  // A 31-day month receives every row whose US/Pacific day is in the sample's own month, amounts as written.
  const september = sample.filter((r) => r.usage_date.startsWith('2024-09'));
  const october = replayed.filter((r) => r.usage_date.startsWith('2026-10'));
  t.equal(october.length, september.length);
  t.same(spendByProvider(october), spendByProvider(september));
  const invoices = (rows: CostRow[]) => rows.reduce((m, r) => m.set(r.invoice_month, (m.get(r.invoice_month) ?? 0) + 1), new Map<string | null, number>());
  t.same([...invoices(october)], [...invoices(september)].map(([m, n]) => [m === '202409' ? '202610' : m === '202410' ? '202611' : m, n]), 'invoice months move with the copy');
  t.same(Object.keys(spendByProvider(replayed)).sort(), ['aws', 'azure', 'oracle']);

  // February has 28 days: the sample's 29th and 30th do not spill into March.
  const february = replayed.filter((r) => r.usage_date.startsWith('2026-02'));
  t.ok(february.length < september.length && february.length > 0);
  // Copies never overlap: no day holds more rows than the sample's busiest day.
  const perDay = (rows: CostRow[]) => rows.reduce((m, r) => m.set(r.usage_date, (m.get(r.usage_date) ?? 0) + 1), new Map<string, number>());
  t.ok(Math.max(...perDay(replayed).values()) <= Math.max(...perDay(sample).values()));
});
