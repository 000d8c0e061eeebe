/**
 * Plotly figures of the built-in System Health dashboard (MONITORING=local) from the figures route
 * (shared/src/db/health-figures.ts). Pure, so the rules are tested without a browser.
 */
import type { Config, Data, Layout } from 'plotly.js-basic-dist-min';
import type { HealthFigures } from '@cc/shared/schemas/monitoring.ts';

export interface Figure {
  data: Data[];
  layout: Partial<Layout>;
  config: Partial<Config>;
}

const CONFIG: Partial<Config> = { displayModeBar: false, responsive: true };
const BASE_LAYOUT: Partial<Layout> = {
  margin: { l: 64, r: 16, t: 32, b: 16 },
  // project names are long: the axis takes the room its slanted labels need instead of clipping them
  xaxis: { automargin: true, tickangle: -30 },
  barmode: 'group',
  legend: { orientation: 'h', x: 0, y: 1, yanchor: 'bottom' },
  paper_bgcolor: 'rgba(0,0,0,0)',
  plot_bgcolor: 'rgba(0,0,0,0)',
};
export const COLORS = { yesterday: '#0969da', mean: '#8c959f', mtd: '#1a7f37', quota: '#cf222e', awaiting: '#bf8700', answered: '#0969da' };

/** A project's label on the x axis: its name, and the id when the name is missing or ambiguous. */
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

/** Yesterday's spend against the 28-day mean, per project (grouped bars). */
export function spendFigure(f: HealthFigures): Figure {
  const x = f.projects.map((p) => projectLabel(p, f.projects));
  return {
    data: [
      { type: 'bar', name: `Yesterday (${f.yesterday})`, x, y: f.projects.map((p) => Number(p.yesterday_spend)), marker: { color: COLORS.yesterday } },
      {
        type: 'bar',
        name: '28-day mean',
        x,
        y: f.projects.map((p) => Number(p.mean_28d)),
        marker: { color: COLORS.mean },
        customdata: f.projects.map((p) => p.mean_days),
        hovertemplate: '%{y:,.2f} over %{customdata} days<extra>28-day mean</extra>',
      },
    ],
    layout: { ...BASE_LAYOUT, yaxis: { title: { text: spendAxisTitle(f.projects) }, tickformat: ',.0f' } },
    config: CONFIG,
  };
}

/** Month to date per project, with its open anomalies as the bar's label. */
export function monthToDateFigure(f: HealthFigures): Figure {
  return {
    data: [
      {
        type: 'bar',
        name: 'Month to date',
        x: f.projects.map((p) => projectLabel(p, f.projects)),
        y: f.projects.map((p) => Number(p.month_to_date)),
        // labelled only where there is something to look at
        text: f.projects.map((p) => (p.open_anomalies === 0 ? '' : p.open_anomalies === 1 ? '1 open anomaly' : `${p.open_anomalies} open anomalies`)),
        textposition: 'outside',
        marker: { color: f.projects.map((p) => (p.open_anomalies > 0 ? COLORS.quota : COLORS.mtd)) },
      },
    ],
    layout: { ...BASE_LAYOUT, showlegend: false, yaxis: { title: { text: spendAxisTitle(f.projects) }, tickformat: ',.0f' } },
    config: CONFIG,
  };
}

/** Alerts: month to date against the quota (bars and quota markers). */
export function alertsFigure(f: HealthFigures): Figure {
  const x = f.alerts.map((a) => (a.group_by === 'service' ? `Total #${a.id}` : `${a.label_key}=${a.label_value} #${a.id}`));
  return {
    data: [
      { type: 'bar', name: 'Month to date', x, y: f.alerts.map((a) => Number(a.month_to_date)), marker: { color: f.alerts.map((a) => (a.exceeded ? COLORS.quota : COLORS.mtd)) } },
      { type: 'scatter', mode: 'markers', name: 'Quota', x, y: f.alerts.map((a) => Number(a.quota)), marker: { color: COLORS.quota, symbol: 'line-ew-open', size: 28, line: { width: 3 } } },
    ],
    layout: { ...BASE_LAYOUT, yaxis: { title: { text: spendAxisTitle(f.alerts) }, tickformat: ',.0f' } },
    config: CONFIG,
  };
}

/** Open tickets per priority: waiting for a first response, stacked on answered ones. */
export function ticketsFigure(f: HealthFigures): Figure {
  const x = f.tickets.map((t) => t.priority);
  const most = Math.max(1, ...f.tickets.map((t) => t.open));
  return {
    data: [
      { type: 'bar', name: 'Awaiting first response', x, y: f.tickets.map((t) => t.awaiting_first_response), marker: { color: COLORS.awaiting } },
      { type: 'bar', name: 'Responded', x, y: f.tickets.map((t) => t.open - t.awaiting_first_response), marker: { color: COLORS.answered } },
    ],
    // whole tickets: integer ticks, and an axis up to at least 1 when nothing is open
    layout: { ...BASE_LAYOUT, barmode: 'stack', yaxis: { title: { text: 'Open tickets' }, tickformat: 'd', dtick: most <= 10 ? 1 : undefined, range: [0, most * 1.1] } },
    config: CONFIG,
  };
}

/** Minutes as the panel shows them: '45 min', '3 h 20 min', '2 d 4 h'; '–' for none. */
export function formatMinutes(minutes: number | null): string {
  if (minutes === null) return '–';
  if (minutes < 60) return `${minutes} min`;
  if (minutes < 24 * 60) return `${Math.floor(minutes / 60)} h${minutes % 60 ? ` ${minutes % 60} min` : ''}`;
  const hours = Math.floor(minutes / 60);
  return `${Math.floor(hours / 24)} d${hours % 24 ? ` ${hours % 24} h` : ''}`;
}
