/**
 * Plotly figures of the built-in System Health dashboard (MONITORING=local) from the figures route
 * (shared/src/db/monitoring-figures.ts), each with the table that shows the same numbers (the chart's text alternative).
 * Pure, so the rules are tested without a browser.
 *
 * Project charts are horizontal bars: names read left to right however long, and the plot keeps most of its panel
 * whether the customer has 1 project or 500 (the top ones and "Other projects", project-ranking.ts).
 */
import type { Config, Data, Layout } from 'plotly.js-basic-dist-min';
import type { HealthFigures } from '@cc/shared/schemas/monitoring.ts';
import { centsToNumber, centsToText, rankProjects, type RankedRow } from './project-ranking.ts';
import { shortLabel } from './project-label.ts';

/** What a chart's table toggle shows: the chart's numbers as text. */
export interface ChartTable {
  columns: string[];
  rows: { key: string; cells: string[] }[];
}

export interface Figure {
  data: Data[];
  layout: Partial<Layout>;
  config: Partial<Config>;
  table: ChartTable;
}

/** Drawing options: `wall` for a wall screen read from across a room (larger type), `narrow` for a phone (shorter labels). */
export interface FigureOptions {
  wall?: boolean;
  narrow?: boolean;
}

const CONFIG: Partial<Config> = { displayModeBar: false, responsive: true };
export const COLORS = { yesterday: '#0969da', mean: '#6e7781', mtd: '#1a7f37', quota: '#cf222e', awaiting: '#9a6700', answered: '#0969da', other: '#8c959f' };

function baseLayout({ wall }: FigureOptions): Partial<Layout> {
  return {
    font: { size: wall ? 16 : 12 },
    // the legend sits in the top margin, above the plot, never over an axis
    margin: { l: 4, r: 12, t: wall ? 32 : 24, b: 4 },
    legend: { orientation: 'h', x: 0, y: 1, xanchor: 'left', yanchor: 'bottom' },
    paper_bgcolor: 'rgba(0,0,0,0)',
    plot_bgcolor: 'rgba(0,0,0,0)',
  };
}

/** A horizontal bar chart's layout: the largest row on top, labels cut to fit, the money axis below. */
function barsLayout(rows: readonly RankedRow[], options: FigureOptions): Partial<Layout> {
  return {
    ...baseLayout(options),
    barmode: 'group',
    bargap: 0.25,
    yaxis: {
      automargin: true,
      autorange: 'reversed',
      tickmode: 'array',
      tickvals: rows.map((r) => r.label),
      ticktext: rows.map((r) => shortLabel(r.label, options.narrow ? 14 : 22)),
    },
    // no axis title: the panel's heading names the figure and the dashboard says the currency
    xaxis: { automargin: true, tickformat: ',.0f', rangemode: 'tozero' },
  };
}

const anomalyText = (n: number) => (n === 0 ? '' : n === 1 ? '1 open anomaly' : `${n} open anomalies`);

/** Yesterday's spend against the 28-day mean, top projects by yesterday's spend (grouped bars). */
export function spendFigure(f: HealthFigures, options: FigureOptions = {}): Figure {
  const rows = rankProjects(f.projects, 'yesterday_spend', ['yesterday_spend', 'mean_28d']);
  const y = rows.map((r) => r.label);
  const ids = rows.map((r) => r.detail);
  return {
    data: [
      {
        type: 'bar',
        orientation: 'h',
        // the panel's heading has the date: a phone's legend stays on one line
        name: options.narrow ? 'Yesterday' : `Yesterday (${f.yesterday})`,
        y,
        x: rows.map((r) => centsToNumber(r.cents.yesterday_spend)),
        customdata: ids,
        hovertemplate: '%{y}<br>%{customdata}<br>%{x:,.2f}<extra>Yesterday</extra>',
        marker: { color: COLORS.yesterday },
      },
      {
        type: 'bar',
        orientation: 'h',
        name: '28-day mean',
        y,
        x: rows.map((r) => centsToNumber(r.cents.mean_28d)),
        customdata: ids,
        hovertemplate: '%{y}<br>%{customdata}<br>%{x:,.2f}<extra>28-day mean</extra>',
        marker: { color: COLORS.mean },
      },
    ],
    layout: barsLayout(rows, options),
    config: CONFIG,
    table: {
      columns: ['Project', 'Project Id', `Yesterday (${f.yesterday})`, '28-day mean'],
      rows: rows.map((r) => ({ key: r.detail, cells: [r.label, r.detail, centsToText(r.cents.yesterday_spend), centsToText(r.cents.mean_28d)] })),
    },
  };
}

/** Month to date, top projects by it, with their open anomalies as the bar's label. */
export function monthToDateFigure(f: HealthFigures, options: FigureOptions = {}): Figure {
  const rows = rankProjects(f.projects, 'month_to_date', ['month_to_date']);
  const x = rows.map((r) => centsToNumber(r.cents.month_to_date));
  const labelled = rows.some((r) => r.open_anomalies > 0);
  const layout = barsLayout(rows, options);
  return {
    data: [
      {
        type: 'bar',
        orientation: 'h',
        name: 'Month to date',
        y: rows.map((r) => r.label),
        x,
        customdata: rows.map((r) => r.detail),
        hovertemplate: '%{y}<br>%{customdata}<br>%{x:,.2f}<extra>Month to date</extra>',
        // labelled only where there is something to look at
        text: rows.map((r) => anomalyText(r.open_anomalies)),
        textposition: 'outside',
        cliponaxis: false,
        marker: { color: rows.map((r) => (r.open_anomalies > 0 ? COLORS.quota : r.other ? COLORS.other : COLORS.mtd)) },
      },
    ],
    layout: {
      ...layout,
      showlegend: false,
      margin: { ...layout.margin, t: 8 },
      // room on the right for the anomaly labels
      xaxis: { ...layout.xaxis, range: labelled ? [0, Math.max(1, ...x) * 1.45] : undefined },
    },
    config: CONFIG,
    table: {
      columns: ['Project', 'Project Id', 'Month to date', 'Open anomalies'],
      rows: rows.map((r) => ({ key: r.detail, cells: [r.label, r.detail, centsToText(r.cents.month_to_date), String(r.open_anomalies)] })),
    },
  };
}

/** Alerts: month to date against the quota (bars and quota markers). */
export function alertsFigure(f: HealthFigures, options: FigureOptions = {}): Figure {
  const labels = f.alerts.map((a) => (a.group_by === 'service' ? `Total #${a.id}` : `${a.label_key}=${a.label_value} #${a.id}`));
  const rows: RankedRow[] = labels.map((label, i) => ({ label, detail: String(f.alerts[i].id), cents: {}, open_anomalies: 0, other: false }));
  return {
    data: [
      {
        type: 'bar',
        orientation: 'h',
        name: 'Month to date',
        y: labels,
        x: f.alerts.map((a) => Number(a.month_to_date)),
        marker: { color: f.alerts.map((a) => (a.exceeded ? COLORS.quota : COLORS.mtd)) },
      },
      {
        type: 'scatter',
        mode: 'markers',
        name: 'Quota',
        y: labels,
        x: f.alerts.map((a) => Number(a.quota)),
        marker: { color: COLORS.quota, symbol: 'line-ns-open', size: options.wall ? 36 : 24, line: { width: 3 } },
      },
    ],
    layout: barsLayout(rows, options),
    config: CONFIG,
    table: {
      columns: ['Alert', 'Month to date', 'Quota', 'Exceeded'],
      rows: f.alerts.map((a, i) => ({ key: String(a.id), cells: [labels[i], a.month_to_date, a.quota, a.exceeded ? 'Yes' : 'No'] })),
    },
  };
}

/** Open tickets per priority: waiting for a first response, stacked on answered ones. */
export function ticketsFigure(f: HealthFigures, options: FigureOptions = {}): Figure {
  const x = f.tickets.map((t) => t.priority);
  const most = Math.max(1, ...f.tickets.map((t) => t.open));
  return {
    data: [
      { type: 'bar', name: 'Awaiting first response', x, y: f.tickets.map((t) => t.awaiting_first_response), marker: { color: COLORS.awaiting } },
      { type: 'bar', name: 'Responded', x, y: f.tickets.map((t) => t.open - t.awaiting_first_response), marker: { color: COLORS.answered } },
    ],
    // whole tickets: integer ticks, and an axis up to at least 1 when nothing is open
    layout: {
      ...baseLayout(options),
      barmode: 'stack',
      xaxis: { automargin: true },
      yaxis: { automargin: true, tickformat: 'd', dtick: most <= 10 ? 1 : undefined, range: [0, most * 1.1] },
    },
    config: CONFIG,
    table: {
      columns: ['Priority', 'Awaiting first response', 'Responded'],
      rows: f.tickets.map((t) => ({ key: t.priority, cells: [t.priority, String(t.awaiting_first_response), String(t.open - t.awaiting_first_response)] })),
    },
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
