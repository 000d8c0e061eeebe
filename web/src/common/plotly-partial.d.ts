/** Plotly's own modules, typed as the whole library (@types/plotly.js) they are a part of. */
declare module 'plotly.js/lib/core' {
  import * as Plotly from 'plotly.js';
  export = Plotly;
}
declare module 'plotly.js/lib/bar' {
  const bar: Parameters<typeof import('plotly.js').register>[0];
  export = bar;
}
