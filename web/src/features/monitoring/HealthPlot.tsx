import { useEffect, useId, useRef, useState } from 'react';
import { Banner, Button, Spinner } from '@primer/react';
import { GraphIcon, TableIcon } from '@primer/octicons-react';
import { loadPlotly, type PlotlyApi } from '../../common/plotly-loader.ts';
import { markDrawn } from '../../common/drawn.ts';
import type { ChartTable, Figure } from './health-charts.ts';
import styles from './Kiosk.module.css';

/**
 * One chart of the built-in dashboard, drawn with the lazily loaded plotly into the height its panel gives it, and
 * a toggle showing the same numbers as a table (the chart's text alternative, and the exact figures).
 */
export function HealthPlot({ title, figure, empty }: { title: string; figure: Figure; empty: string | null }) {
  const box = useRef<HTMLDivElement>(null);
  const titleId = useId();
  const [plotly, setPlotly] = useState<PlotlyApi | null>(null);
  const [failed, setFailed] = useState(false);
  const [asTable, setAsTable] = useState(false);

  useEffect(() => {
    if (empty || asTable) return;
    let live = true;
    loadPlotly().then(
      (p) => live && setPlotly(() => p),
      () => live && setFailed(true),
    );
    return () => {
      live = false;
    };
  }, [empty, asTable]);

  useEffect(() => {
    const el = box.current;
    if (!plotly || !el || asTable) return;
    // autosize: plotly takes the box's size, which the panel's CSS sets (laptop or wall screen)
    void plotly.react(el, figure.data, { ...figure.layout, autosize: true }, figure.config).then(() => markDrawn('health-chart'));
    return () => plotly.purge(el);
  }, [plotly, figure, asTable]);

  return (
    <figure className={styles.card} aria-labelledby={titleId} data-testid="health-panel">
      <div className={styles.cardHead}>
        <figcaption id={titleId} className={styles.cardTitle}>
          {title}
        </figcaption>
        {empty ? null : (
          <Button size="small" variant="invisible" leadingVisual={asTable ? GraphIcon : TableIcon} aria-pressed={asTable} onClick={() => setAsTable((v) => !v)}>
            {asTable ? 'Show chart' : 'Show table'}
          </Button>
        )}
      </div>
      {empty ? (
        <p className={styles.empty}>{empty}</p>
      ) : asTable ? (
        <FigureTable title={title} table={figure.table} />
      ) : failed ? (
        <Banner variant="critical" title="The chart could not be loaded" description="Reload the page to try again." />
      ) : (
        <div className={styles.plot}>
          <div ref={box} className={styles.plotBox} role="img" aria-label={`${title} chart`} data-testid="health-chart" />
          {!plotly ? <Spinner className={styles.spinner} srText="Loading chart" /> : null}
        </div>
      )}
    </figure>
  );
}

function FigureTable({ title, table }: { title: string; table: ChartTable }) {
  return (
    <div className={styles.tableBox} tabIndex={0} role="region" aria-label={`${title} table`}>
      <table className={styles.table}>
        <thead>
          <tr>
            {table.columns.map((c, i) => (
              <th key={c} scope="col" data-align={i === 0 || c.endsWith('Id') || c === 'Alert' || c === 'Priority' ? 'start' : 'end'}>
                {c}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {table.rows.map((r) => (
            <tr key={r.key}>
              {r.cells.map((cell, i) =>
                i === 0 ? (
                  <th key={i} scope="row">
                    {cell}
                  </th>
                ) : (
                  <td key={i} data-align={/^-?[\d.,]+$/.test(cell) ? 'end' : 'start'}>
                    {cell}
                  </td>
                ),
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
