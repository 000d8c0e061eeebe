/**
 * The spend chart's plotly figure, from a chart answer (spec 001 §2.13, §9): stacked bars per series
 * key with their colour (grey when none is given), bar padding 0.3, y axis with 0 decimals, and a
 * total label above a bar only when the bar is at least 18 px wide, its total is at least 1 and it
 * holds more than its date and total (at least one series value).
 */
import { visibleLabel } from './label-text.ts';
import type { Annotations, Config, Data, Layout } from 'plotly.js-basic-dist-min';
import { formatMoney } from './format.ts';
import type { ChartPayload } from '@cc/shared/schemas/billing.ts';

export const GREY = '#9e9e9e';
export const BAR_PADDING = 0.3;
export const MIN_LABEL_BAR_WIDTH = 18;
export const MARGIN = { l: 72, r: 16, t: 24, b: 48 } as const;

/** Width in px of one bar in a plot area of `plotWidth` px holding `bars` bars. */
export function barWidth(plotWidth: number, bars: number): number {
  return bars > 0 ? (plotWidth / bars) * (1 - BAR_PADDING) : 0;
}

/** The total-label rule of spec 001 §2.13 for one bar. */
export function showsTotalLabel(bar: ChartPayload['data'][number], width: number): boolean {
  return width >= MIN_LABEL_BAR_WIDTH && Number(bar.total) >= 1 && Object.keys(bar.values).length > 0;
}

export interface Figure {
  data: Data[];
  layout: Partial<Layout>;
  config: Partial<Config>;
}

/** The colour a series is drawn with. */
export function seriesColor(payload: ChartPayload, key: string): string {
  return payload.colors[key] || GREY;
}

/** Dates slant when they would not fit side by side under their bars (about 7 px per character). */
export function slantTicks(payload: ChartPayload, plotWidth: number): boolean {
  const longest = Math.max(0, ...payload.data.map((b) => b.date.length));
  return payload.data.length > 0 && plotWidth / payload.data.length < longest * 7 + 8;
}

/** `plotWidth` is the drawing area without margins; it decides which totals get a label. */
export function buildFigure(payload: ChartPayload, plotWidth: number, currency: string): Figure {
  const dates = payload.data.map((b) => b.date);
  const data: Data[] = payload.keys.map((key) => ({
    type: 'bar',
    name: visibleLabel(key),
    x: dates,
    y: payload.data.map((b) => b.values[key] ?? 0),
    marker: { color: seriesColor(payload, key) },
    hovertemplate: `%{x}<br>%{fullData.name}: %{y:,.2f} ${currency}<extra></extra>`,
  }));

  const width = barWidth(plotWidth, payload.data.length);
  // Narrow bars get upright labels so neighbouring totals do not overlap.
  const upright = width < 56;
  const annotations: Partial<Annotations>[] = payload.data
    .filter((bar) => showsTotalLabel(bar, width))
    .map((bar) => ({
      x: bar.date,
      y: Number(bar.total),
      text: formatMoney(bar.total),
      showarrow: false,
      yanchor: 'bottom',
      textangle: upright ? '-90' : '0',
      yshift: 2,
      font: { size: 11, color: '#1f2328' },
    }));

  const layout: Partial<Layout> = {
    barmode: 'stack',
    bargap: BAR_PADDING,
    margin: { ...MARGIN },
    height: 440,
    autosize: true,
    // The legend is HTML beside the plot (SpendChart): it wraps long keys instead of covering the axis.
    showlegend: false,
    xaxis: { type: 'category', title: { text: 'Date' }, tickangle: slantTicks(payload, plotWidth) ? -45 : 0, automargin: true },
    yaxis: {
      title: { text: `Cost (${currency})` },
      tickformat: ',.0f',
      // Room above the highest bar for its label.
      range: [0, Math.max(payload.max_value, 1) * (upright ? 1.22 : 1.1)],
      automargin: true,
    },
    annotations,
    paper_bgcolor: 'rgba(0,0,0,0)',
    plot_bgcolor: 'rgba(0,0,0,0)',
    font: { family: 'inherit', size: 12 },
  };
  return { data, layout, config: { responsive: true, displaylogo: false, displayModeBar: false } };
}

