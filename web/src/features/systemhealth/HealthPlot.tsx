import { useEffect, useRef, useState } from 'react';
import { Banner, Spinner } from '@primer/react';
import { loadPlotly, type PlotlyApi } from '../../common/plotly-loader.ts';
import type { Figure } from './health-charts.ts';
import styles from './Kiosk.module.css';

/** One chart of the built-in dashboard, drawn with the lazily loaded plotly. */
export function HealthPlot({ title, figure, empty }: { title: string; figure: Figure; empty: string | null }) {
  const box = useRef<HTMLDivElement>(null);
  const [plotly, setPlotly] = useState<PlotlyApi | null>(null);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    if (empty) return;
    let live = true;
    loadPlotly().then(
      (p) => live && setPlotly(() => p),
      () => live && setFailed(true),
    );
    return () => {
      live = false;
    };
  }, [empty]);

  useEffect(() => {
    const el = box.current;
    if (!plotly || !el) return;
    void plotly.react(el, figure.data, { ...figure.layout, height: 260, autosize: true }, figure.config);
    return () => plotly.purge(el);
  }, [plotly, figure]);

  return (
    <figure className={styles.card} style={{ margin: 0 }}>
      <figcaption className={styles.cardTitle}>{title}</figcaption>
      {empty ? (
        <p className={styles.empty}>{empty}</p>
      ) : failed ? (
        <Banner variant="critical" title="The chart could not be loaded" description="Reload the page to try again." />
      ) : (
        <div className={styles.plot}>
          <div ref={box} role="img" aria-label={`${title} chart`} data-testid="health-chart" />
          {!plotly ? <Spinner className={styles.spinner} srText="Loading chart" /> : null}
        </div>
      )}
    </figure>
  );
}
