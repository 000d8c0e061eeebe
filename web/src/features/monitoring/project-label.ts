/** How System Health names projects and its money axis. */

/** A project's label: its name, and the id when the name is missing or shared; the currency when several. */
export function projectLabel(p: { project_id: string; project_name: string; currency: string }, all: readonly { project_name: string; currency: string }[]): string {
  const name = p.project_name || p.project_id;
  const twins = all.filter((o) => (o.project_name || '') === p.project_name).length;
  const currencies = new Set(all.map((o) => o.currency)).size;
  const base = twins > 1 && p.project_name ? `${name} (${p.project_id})` : name;
  return currencies > 1 ? `${base} · ${p.currency}` : base;
}

/** The axis title: the currency when every project shares one. */
export function spendAxisTitle(projects: readonly { currency: string }[]): string {
  const currencies = [...new Set(projects.map((p) => p.currency))];
  return currencies.length === 1 ? `Spend (${currencies[0]})` : 'Spend';
}

export const AXIS_LABEL_MAX = 24;

/**
 * An axis label cut to fit beside the bars (the full name and the id show on hover and in the table). The middle
 * goes: names of one customer's projects often share their start ("Contoso workload 001", "… 002").
 */
export function shortLabel(label: string, max = AXIS_LABEL_MAX): string {
  if (label.length <= max) return label;
  const tail = Math.min(8, Math.floor((max - 1) / 2));
  return `${label.slice(0, max - 1 - tail).trimEnd()}…${label.slice(-tail)}`;
}
