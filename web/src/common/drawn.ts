/**
 * The mark a page sets once its data is first drawn (a chart plotted, a table's rows in the page, the graph's first
 * frame), read by the browser benchmark (test/bench/browser.bench.ts) as the time a person waits for the page.
 * Set once per page load: later redraws (another setting, a refresh) keep the first time.
 */
export type DrawnMark = 'billing-chart' | 'health-chart' | 'inventory-table' | 'inventory-graph';

export const drawnMarkName = (name: DrawnMark) => `cc:drawn:${name}`;

export function markDrawn(name: DrawnMark): void {
  const mark = drawnMarkName(name);
  if (typeof performance === 'undefined' || typeof performance.mark !== 'function') return;
  if (performance.getEntriesByName(mark, 'mark').length > 0) return;
  performance.mark(mark);
}
