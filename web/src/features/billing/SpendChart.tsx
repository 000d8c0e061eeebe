import { useEffect, useRef, useState } from 'react';
import { Banner, Spinner } from '@primer/react';
import { buildFigure, MARGIN, seriesColor } from './chart-figure.ts';
import { formatMoney } from './format.ts';
import { visibleLabel } from './label-text.ts';
import { loadPlotly, type PlotlyApi } from '../../common/plotly-loader.ts';
import { markDrawn } from '../../common/drawn.ts';
import type { ChartPayload, SpendSummary } from '@cc/shared/schemas/billing.ts';
import placeholderUrl from './chart-placeholder.svg';
import styles from './SpendChart.module.css';

export interface SpendChartProps {
  /** The chart's heading. */
  title: string;
  payload: ChartPayload | undefined;
  /** True while the answer for the current selection is loading. */
  loading: boolean;
  /** Shows the Spend Sum panel beside the chart (spec 001 §2.13). */
  showSpendSum: boolean;
  currency: string;
}

/** The spend-chart view of spec 001 §2.13: stacked bars, and the Spend Sum panel when enabled. */
export function SpendChart({ title, payload, loading, showSpendSum, currency }: SpendChartProps) {
  const empty = !payload || payload.data.length === 0 || payload.keys.length === 0;
  return (
    <div className={styles.wrap} data-spend-sum={showSpendSum}>
      <figure className={styles.chartBox} aria-busy={loading} style={{ margin: 0 }}>
        <figcaption className={styles.title}>{title}</figcaption>
        {empty ? (
          <div className={styles.empty} style={{ backgroundImage: `url("${placeholderUrl}")` }} data-testid="chart-placeholder">
            {loading ? <Spinner srText="Loading chart" /> : <span>No spend in the selected period</span>}
          </div>
        ) : (
          <PlotlyBars payload={payload} loading={loading} currency={currency} title={title} />
        )}
      </figure>
      {showSpendSum ? <SpendSumPanel summary={payload?.summary} currency={currency} /> : null}
    </div>
  );
}

function PlotlyBars({ payload, loading, currency, title }: { payload: ChartPayload; loading: boolean; currency: string; title: string }) {
  const box = useRef<HTMLDivElement>(null);
  const [plotly, setPlotly] = useState<PlotlyApi | null>(null);
  const [failed, setFailed] = useState(false);
  const [width, setWidth] = useState(0);

  useEffect(() => {
    let live = true;
    loadPlotly().then(
      (p) => live && setPlotly(() => p),
      () => live && setFailed(true),
    );
    return () => {
      live = false;
    };
  }, []);

  // The total-label rule depends on the bar width, so the figure follows the box width.
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const observer = new ResizeObserver(([entry]) => setWidth(Math.round(entry.contentRect.width)));
    observer.observe(el);
    return () => observer.disconnect();
  }, []);

  useEffect(() => {
    const el = box.current;
    if (!plotly || !el || width === 0) return;
    const figure = buildFigure(payload, width - MARGIN.l - MARGIN.r, currency);
    void plotly.react(el, figure.data, { ...figure.layout, width }, figure.config).then(() => markDrawn('billing-chart'));
  }, [plotly, payload, width, currency]);

  useEffect(() => {
    const el = box.current;
    return () => {
      if (el && plotly) plotly.purge(el);
    };
  }, [plotly]);

  if (failed) return <Banner variant="critical" title="The chart could not be loaded" description="Reload the page to try again." />;
  return (
    <div className={styles.plot}>
      <div ref={box} role="img" aria-label={`${title} chart`} data-testid="spend-chart" />
      {!plotly || loading ? (
        <div className={styles.overlay}>
          <Spinner srText="Loading chart" />
        </div>
      ) : null}
      <ul className={styles.legend} aria-label="Legend">
        {payload.keys.map((key) => (
          <li key={key}>
            <span className={styles.swatch} style={{ background: seriesColor(payload, key) }} aria-hidden="true" />
            {visibleLabel(key)}
          </li>
        ))}
      </ul>
    </div>
  );
}

/** Selected period, month-to-date and previous month (spec 001 §2.13). */
function SpendSumPanel({ summary, currency }: { summary: SpendSummary | undefined; currency: string }) {
  const figure = (v: string | undefined) =>
    v == null ? (
      '–'
    ) : (
      <>
        <span className={styles.amount}>{formatMoney(v)}</span> <span className={styles.currency}>{currency}</span>
      </>
    );
  return (
    <section className={styles.sum} aria-labelledby="spend-sum-title">
      <h2 id="spend-sum-title" className={styles.sumTitle}>
        Spend Sum
      </h2>
      <dl className={styles.figures}>
        <div>
          <dt>Selected period</dt>
          <dd>{figure(summary?.custom)}</dd>
        </div>
        <div>
          <dt>Month-to-date</dt>
          <dd>{figure(summary?.month_to_date)}</dd>
        </div>
        <div>
          <dt>Previous month</dt>
          <dd>{figure(summary?.previous_month)}</dd>
        </div>
      </dl>
    </section>
  );
}
