/**
 * The partial Plotly the app draws with, for a smaller bundle: our own copy of `plotly.js/src/core.js`, registering the
 * bar and scatter traces (spend chart, System Health with its quota markers) and the layout components core.js
 * registers, less eight no chart of the app uses: update menus, sliders, range selectors, range sliders, layout
 * images, grids, error bars and 3D annotations. Plotly reaches those eight only through
 * `Registry.getComponentMethod`, which answers a no-op for an unregistered component, and each of them does nothing
 * for a figure that does not set it (range slider and grid defaults return at once; error bars' `visible` defaults
 * to false; the readers of their layout keys check for them first), so every chart is drawn exactly as with
 * lib/core. Also left out: the plot API's image export, validation and template helpers and the Promise polyfill.
 * vite.config.ts strips the attributes' descriptions and stubs the (switched off) mode bar's buttons.
 * A chart needing another trace or component registers it here.
 */
import Registry from 'plotly.js/src/registry';
import plotApi from 'plotly.js/src/plot_api/plot_api';
import scatter from 'plotly.js/src/traces/scatter';
import bar from 'plotly.js/src/traces/bar';
import annotations from 'plotly.js/src/components/annotations';
import selections from 'plotly.js/src/components/selections';
import shapes from 'plotly.js/src/components/shapes';
import colorscale from 'plotly.js/src/components/colorscale';
import colorbar from 'plotly.js/src/components/colorbar';
import legend from 'plotly.js/src/components/legend';
import fx from 'plotly.js/src/components/fx';
import modebar from 'plotly.js/src/components/modebar';
import localeEn from 'plotly.js/src/locale-en';
import localeEnUs from 'plotly.js/src/locale-en-us';
// Plotly's stylesheet (hover labels, drag cursors), injected into the page on first draw.
import 'plotly.js/build/plotcss';

// Plotly calls its own API through the registry (legend clicks, drags, relayouts), as core.js registers it.
for (const [name, fn] of Object.entries(plotApi)) Registry.register({ moduleType: 'apiMethod', name, fn });

Registry.register(scatter);
Registry.register(bar);
// In core.js's order: the legend after shapes (its defaults read the shapes'), fx after the legend (unified hover
// defaults read the legend's).
Registry.register([annotations, selections, shapes, colorscale, colorbar, legend, fx, modebar]);
// en and en-US are required for the default number and date formats.
Registry.register([localeEn, localeEnUs]);

export default plotApi;
