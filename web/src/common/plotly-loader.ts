/**
 * Plotly sits behind one lazy-loaded wrapper (STYLE): the partial bundle of plotly-partial.ts (core + bar) is its
 * own chunk, fetched only when a chart first draws. vite.config.ts keeps it out of every other chunk.
 */
export type PlotlyApi = typeof import('plotly.js-basic-dist-min');

let loading: Promise<PlotlyApi> | null = null;

/** Resolves with Plotly, loading it once; a failed load may be retried by the next call. */
export function loadPlotly(): Promise<PlotlyApi> {
  loading ??= import('./plotly-partial.ts').then(
    (m) => m.default as unknown as PlotlyApi,
    (err: unknown) => {
      loading = null;
      throw err instanceof Error ? err : new Error('Plotly could not be fetched');
    },
  );
  return loading;
}
