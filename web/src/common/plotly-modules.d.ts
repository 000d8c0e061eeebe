/** Plotly's own source modules the partial bundle (plotly-partial.ts) is assembled from; untyped upstream. */
declare module 'plotly.js/src/registry' {
  const registry: { register(module: unknown): void };
  export default registry;
}
declare module 'plotly.js/src/plot_api/plot_api' {
  /** The plot API functions (react, purge, ...) as `plotly.js/lib/core` exports them. */
  const plotApi: Record<string, (...args: never[]) => unknown>;
  export default plotApi;
}
declare module 'plotly.js/src/traces/*' {
  const trace: unknown;
  export default trace;
}
declare module 'plotly.js/src/components/*' {
  const component: unknown;
  export default component;
}
declare module 'plotly.js/src/locale-*' {
  const locale: unknown;
  export default locale;
}
declare module 'plotly.js/build/plotcss';
declare module 'gl-mat4/invert' {
  const invert: (out: number[], a: number[]) => number[] | null;
  export default invert;
}
declare module 'gl-mat4/multiply' {
  const multiply: (out: number[], a: number[], b: number[]) => number[];
  export default multiply;
}
