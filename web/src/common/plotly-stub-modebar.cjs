/**
 * Stands in for plotly's `components/modebar/manage.js` in the partial bundle (vite.config.ts, PLOTLY_STUBS), and
 * like it is CommonJS: plotly's modebar/index.js takes `require('./manage')` as the function itself. Every chart of
 * the app turns the mode bar off (`displayModeBar: false`, no watermark), where plotly's own manager only removes a
 * mode bar drawn before — which never happens here — and returns. Leaving the real one out drops the bar, its
 * buttons (image download, zoom, shape drawing) and their icon font from the bundle. The modebar component itself
 * stays registered (plotly-partial.ts): plotly reads its layout defaults (`layout.modebar.orientation`).
 */
'use strict';

module.exports = function manageModeBar(gd) {
  var context = gd._context;
  var fullLayout = gd._fullLayout;
  if (!context.displayModeBar && !context.watermark) {
    // plotly's own off branch, word for word
    if (fullLayout._modeBar) {
      fullLayout._modeBar.destroy();
      delete fullLayout._modeBar;
    }
    return;
  }
  console.warn('The partial Plotly bundle (common/plotly-partial.ts) has no mode bar: set displayModeBar: false');
};
