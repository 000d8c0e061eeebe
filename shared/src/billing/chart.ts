/**
 * Builds the spend-chart payload (spec 001 §2.13) from exact cells: Top N folding, one bar per bucket (empty
 * buckets included), exact bar and series totals; plot values as numbers.
 */
import { foldTopN, colorsFor, OTHERS } from './top-n.ts';
import { formatUnits, sumUnits, toNumber, type Units } from './money.ts';

export interface SeriesCell {
  bucket: string;
  key: string;
  amount: Units;
  /** Service or label value the key stands for. */
  group: string;
  project_id: string | null;
  project_name: string | null;
  /** Already folded into Others by the query (series that cannot be among the Top N): not ranked. */
  folded?: boolean;
}

export interface ChartParts {
  keys: string[];
  data: { date: string; values: Record<string, number>; total: string }[];
  colors: Record<string, string>;
  max_value: number;
  series: { key: string; group: string; project_id: string | null; project_name: string | null; total: string }[];
  total: Units;
}

export function buildChart(cells: SeriesCell[], bucketList: string[], top: number): ChartParts {
  const folded = foldTopN(cells, top);
  const meta = new Map<string, SeriesCell>();
  for (const c of cells) if (!c.folded && !meta.has(c.key)) meta.set(c.key, c);
  let max = 0;
  const data = bucketList.map((date) => {
    const row = folded.byBucket.get(date) ?? new Map<string, Units>();
    const values: Record<string, number> = {};
    for (const k of folded.keys) {
      const v = row.get(k);
      if (v !== undefined && v !== 0n) values[k] = toNumber(v);
    }
    const total = sumUnits(row.values());
    max = Math.max(max, toNumber(total));
    return { date, values, total: formatUnits(total) };
  });
  const series = folded.keys.map((key) => {
    const m = key === OTHERS && !meta.has(OTHERS) ? null : meta.get(key);
    const folded_ = key === OTHERS;
    return {
      key,
      group: folded_ ? OTHERS : (m?.group ?? key),
      project_id: folded_ ? null : (m?.project_id ?? null),
      project_name: folded_ ? null : (m?.project_name ?? null),
      total: formatUnits(folded.totals.get(key) ?? 0n),
    };
  });
  return {
    keys: folded.keys,
    data,
    colors: colorsFor(folded.keys),
    max_value: max,
    series,
    total: sumUnits(folded.totals.values()),
  };
}
