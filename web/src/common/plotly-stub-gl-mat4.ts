/**
 * Stands in for `gl-mat4` as plotly's 2D code imports it (vite.config.ts, PLOTLY_STUBS): lib/dom.js and
 * lib/matrix.js take the whole 4×4 matrix library for two of its functions (undoing a CSS transform around the
 * chart); the 3D code that uses the rest is not in the partial bundle. The same two functions, from the same library.
 */
import invert from 'gl-mat4/invert';
import multiply from 'gl-mat4/multiply';

export { invert, multiply };
