/**
 * Plotly sits behind one lazy loader (STYLE: "Plotly sits behind one lazy-loaded wrapper"): the
 * basic bundle (bar charts, about 1.2 MB) is fetched only when a chart first draws.
 *
 * Why a script tag and not `import()`: vite.config.ts groups every node_modules module into one
 * `vendor` chunk, dynamic imports included, which would put plotly on the first page. `?url` makes
 * Vite emit the bundle as its own hashed file instead; the UMD bundle then sets `window.Plotly`.
 */
import plotlyUrl from 'plotly.js-basic-dist-min/plotly-basic.min.js?url';

export type PlotlyApi = typeof import('plotly.js-basic-dist-min');

let loading: Promise<PlotlyApi> | null = null;

/** Resolves with Plotly, loading it once; a failed load may be retried by the next call. */
export function loadPlotly(): Promise<PlotlyApi> {
  const present = (window as unknown as { Plotly?: PlotlyApi }).Plotly;
  if (present) return Promise.resolve(present);
  loading ??= new Promise<PlotlyApi>((resolve, reject) => {
    const script = document.createElement('script');
    script.src = plotlyUrl;
    script.async = true;
    script.onload = () => {
      const loaded = (window as unknown as { Plotly?: PlotlyApi }).Plotly;
      if (loaded) resolve(loaded);
      else reject(new Error('Plotly did not load'));
    };
    script.onerror = () => {
      script.remove();
      loading = null;
      reject(new Error('Plotly could not be fetched'));
    };
    document.head.append(script);
  });
  return loading;
}
