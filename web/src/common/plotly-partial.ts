/**
 * The partial Plotly the app draws with (issue 19 item 5): Plotly's core — which holds the scatter trace the
 * System Health quota markers use — plus the bar trace of the spend chart and the health charts. Nothing else:
 * no pie, no WebGL, maps or 3D, about a third of the basic bundle. A chart needing another trace type registers
 * it here (`plotly.js/lib/<type>`).
 */
import Plotly from 'plotly.js/lib/core';
import bar from 'plotly.js/lib/bar';

Plotly.register([bar]);

export default Plotly;
