/**
 * Top N (spec 000 §9: 5, 10, 15, All = 0; default 10): the N series with the largest spend over the period keep
 * their own colour, the rest are folded into one 'Others' series, so every bar still adds up to its total.
 */
import type { Units } from './money.ts';

export const TOP_N_OPTIONS = [0, 5, 10, 15] as const;
export const DEFAULT_TOP_N = 10;
export const OTHERS = 'Others';

/** Series colours in rank order; 'Others' has none and is drawn with the chart's grey fallback. */
export const PALETTE = [
  '#1f77b4', '#ff7f0e', '#2ca02c', '#d62728', '#9467bd', '#8c564b', '#e377c2', '#17becf',
  '#bcbd22', '#393b79', '#637939', '#8c6d31', '#843c39', '#7b4173', '#3182bd',
];

export interface Cell {
  bucket: string;
  key: string;
  amount: Units;
  /** Folded into Others already (by the query: a series that cannot be among the Top N): counted there, never ranked. */
  folded?: boolean;
}

export interface Folded {
  /** Kept series by descending total, then 'Others' when anything was folded. */
  keys: string[];
  totals: Map<string, Units>;
  /** bucket -> key -> amount (kept keys and 'Others'). */
  byBucket: Map<string, Map<string, Units>>;
  /** Original key -> the key it is drawn under. */
  drawnAs: (key: string) => string;
}

export function parseTopN(raw: string | undefined): number | null {
  if (raw === undefined || raw === '') return DEFAULT_TOP_N;
  const n = Number(raw);
  return (TOP_N_OPTIONS as readonly number[]).includes(n) && /^\d+$/.test(raw) ? n : null;
}

/** Ranks series by total (largest first, ties by name) and folds all but the first `top` (0 = keep all) into 'Others'. */
export function foldTopN(cells: Iterable<Cell>, top: number): Folded {
  const rawTotals = new Map<string, Units>();
  const list = [...cells];
  let prefolded = false;
  for (const c of list) {
    if (c.folded) prefolded = true;
    else rawTotals.set(c.key, (rawTotals.get(c.key) ?? 0n) + c.amount);
  }
  const ranked = [...rawTotals.entries()]
    .sort(([ka, a], [kb, b]) => (a === b ? (ka < kb ? -1 : ka > kb ? 1 : 0) : a > b ? -1 : 1))
    .map(([k]) => k);
  const kept = new Set(top > 0 ? ranked.slice(0, top) : ranked);
  const drawnAs = (key: string) => (kept.has(key) ? key : OTHERS);
  const totals = new Map<string, Units>();
  const byBucket = new Map<string, Map<string, Units>>();
  for (const c of list) {
    const k = c.folded ? OTHERS : drawnAs(c.key);
    totals.set(k, (totals.get(k) ?? 0n) + c.amount);
    let row = byBucket.get(c.bucket);
    if (!row) byBucket.set(c.bucket, (row = new Map()));
    row.set(k, (row.get(k) ?? 0n) + c.amount);
  }
  const keys = ranked.filter((k) => kept.has(k));
  // A real series literally named 'Others' and the folded rest share one key.
  if (totals.has(OTHERS) && !keys.includes(OTHERS)) keys.push(OTHERS);
  else if (keys.includes(OTHERS) && (prefolded || ranked.some((k) => !kept.has(k)))) {
    keys.splice(keys.indexOf(OTHERS), 1);
    keys.push(OTHERS);
  }
  return { keys, totals, byBucket, drawnAs };
}

/**
 * The i-th series colour: the palette first, then hues spread by the golden angle at alternating lightness, so
 * with Top N 'All' every series still has its own colour (spec 001 §2.13) and none is the grey of 'Others'.
 */
export function seriesColor(i: number): string {
  if (i < PALETTE.length) return PALETTE[i];
  const n = i - PALETTE.length;
  const hue = (n * 137.508 + 20) % 360;
  const lightness = [0.45, 0.6, 0.35][n % 3];
  return hslToHex(hue, 0.65, lightness);
}

function hslToHex(h: number, s: number, l: number): string {
  const a = s * Math.min(l, 1 - l);
  const channel = (n: number) => {
    const k = (n + h / 30) % 12;
    const c = l - a * Math.max(-1, Math.min(k - 3, 9 - k, 1));
    return Math.round(c * 255)
      .toString(16)
      .padStart(2, '0');
  };
  return `#${channel(0)}${channel(8)}${channel(4)}`;
}

export function colorsFor(keys: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  let i = 0;
  for (const k of keys) {
    if (k === OTHERS) continue;
    out[k] = seriesColor(i++);
  }
  return out;
}
