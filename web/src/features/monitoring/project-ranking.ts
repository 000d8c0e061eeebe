/**
 * The spend charts of System Health show the projects that matter, however many a customer has: the top ones by the
 * chart's figure and one "Other projects" row summing the rest. A customer with 500 projects (Azure subscriptions
 * are projects) otherwise gets bars too thin to see and labels over each other.
 */
import type { HealthFigures } from '@cc/shared/schemas/monitoring.ts';
import { projectLabel } from './project-label.ts';

export const TOP_PROJECTS = 10;
export const OTHER_PROJECTS = 'Other projects';

type Project = HealthFigures['projects'][number];

/** One row of a ranked chart or its table: a project, or the sum of the projects past the top ones. */
export interface RankedRow {
  /** What the axis and the table show: the project's name (its id when it has none). */
  label: string;
  /** The project id (hover, table); for "Other projects", how many projects it sums. */
  detail: string;
  /** The figures, in cents so sums stay exact (money is never added as floats). */
  cents: Record<string, bigint>;
  open_anomalies: number;
  other: boolean;
}

/** '12.50' → 1250n; the api answers money rounded to 2 places. */
export function toCents(money: string): bigint {
  const negative = money.trim().startsWith('-');
  const [whole, fraction = ''] = money.trim().replace(/^[-+]/, '').split('.');
  const cents = BigInt(whole || '0') * 100n + BigInt((fraction + '00').slice(0, 2));
  return negative ? -cents : cents;
}

/** Cents as the chart's number (only for drawing; the table shows the exact text). */
export function centsToNumber(cents: bigint): number {
  return Number(cents) / 100;
}

/** Cents as a decimal string with 2 places: 1250n → '12.50'. */
export function centsToText(cents: bigint): string {
  const negative = cents < 0n;
  const abs = negative ? -cents : cents;
  return `${negative ? '-' : ''}${abs / 100n}.${String(abs % 100n).padStart(2, '0')}`;
}

/**
 * The projects ranked by `by` (largest first), the top `n` kept and the rest folded into one "Other projects" row
 * carrying the sum of every figure in `fields`. Ties keep the answer's order, so a refresh does not shuffle bars.
 */
export function rankProjects<F extends keyof Project>(projects: readonly Project[], by: F, fields: readonly F[], n = TOP_PROJECTS): RankedRow[] {
  const rows = projects.map(
    (p, i): RankedRow & { i: number } => ({
      i,
      label: projectLabel(p, projects),
      detail: p.project_id,
      cents: Object.fromEntries(fields.map((f) => [f, toCents(String(p[f]))])),
      open_anomalies: p.open_anomalies,
      other: false,
    }),
  );
  rows.sort((a, b) => {
    const d = b.cents[by as string] - a.cents[by as string];
    return d > 0n ? 1 : d < 0n ? -1 : a.i - b.i;
  });
  const top = rows.slice(0, n).map(({ i: _i, ...r }) => r);
  const rest = rows.slice(n);
  if (rest.length === 0) return top;
  const sum = (f: string) => rest.reduce((s, r) => s + r.cents[f], 0n);
  return [
    ...top,
    {
      label: OTHER_PROJECTS,
      detail: rest.length === 1 ? '1 project' : `${rest.length} projects`,
      cents: Object.fromEntries(fields.map((f) => [f, sum(f as string)])),
      open_anomalies: rest.reduce((s, r) => s + r.open_anomalies, 0),
      other: true,
    },
  ];
}
