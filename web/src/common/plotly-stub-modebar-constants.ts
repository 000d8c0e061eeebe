/**
 * Stands in for plotly's `components/modebar/constants.js` in the partial bundle (vite.config.ts, PLOTLY_STUBS).
 * Besides the mode bar manager (stubbed, plotly-stub-modebar.cjs) only the modebar attributes' descriptions read it —
 * to list every button's name, which is why the real one loads every button — and descriptions are stripped from
 * the bundle. The two fixed lists are plotly's own.
 */
export const DRAW_MODES = ['drawline', 'drawopenpath', 'drawclosedpath', 'drawcircle', 'drawrect', 'eraseshape'];
export const backButtons = ['v1hovermode', 'hoverclosest', 'hovercompare', 'togglehover', 'togglespikelines', ...DRAW_MODES];
/** The real list names every button of the bar; nothing but a description reads it. */
export const foreButtons: string[] = [];
