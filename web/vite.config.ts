import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

/** The api the dev server forwards `/v1` and `/v2` to (`npm run dev -w web`). */
const API_URL = 'http://localhost:8080';

/**
 * What every screen runs on (React, the store, the router): one chunk that stays cached across deploys. Everything
 * else from node_modules — Primer's components among them — goes where Rolldown's splitting puts it, so a route's
 * chunk carries only the Primer pieces that route uses, and Plotly (common/plotly-partial.ts) and the graph
 * libraries are chunks of their own, fetched by the screens that draw them.
 */
const FRAMEWORK = /node_modules[\\/](react|react-dom|scheduler|react-redux|@reduxjs[\\/]toolkit|redux|redux-thunk|immer|reselect|use-sync-external-store|wouter|regexparam|mitt)[\\/]/;

export default defineConfig({
  // Vite 8 transforms TS/TSX with Oxc; no React plugin needed (no fast refresh, full reloads instead).
  oxc: { jsx: { runtime: 'automatic' } },
  // Plotly's sources (common/plotly-partial.ts) use browserify's `global`; its dist bundles defined it themselves.
  define: { global: 'globalThis' },
  resolve: {
    // The repository root hoists React 18 (a test tool needs it); the web app and every library it
    // bundles (Primer, react-redux, wouter) must share web/'s React 19, so resolve React from here.
    dedupe: ['react', 'react-dom', 'react-is', 'scheduler'],
    // Plotly's registry imports maplibre's stylesheet (65 kB) for map traces; the partial bundle has none.
    alias: [{ find: /^maplibre-gl\/dist\/maplibre-gl\.css$/, replacement: fileURLToPath(new URL('./src/common/no-map.css', import.meta.url)) }],
  },
  server: {
    proxy: {
      '/v1': API_URL,
      '/v2': API_URL,
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: true,
    // Read by test/bench/web-bundle.ts to weigh each route's JavaScript.
    manifest: true,
    // Plotly's partial bundle and three.js (the 3D graph) are larger than this, each in its own lazy chunk.
    chunkSizeWarningLimit: 1400,
    rolldownOptions: {
      // Primer marks its entry "use client" (for React Server Components); meaningless in an SPA bundle.
      onwarn(warning, warn) {
        if (warning.code === 'MODULE_LEVEL_DIRECTIVE') return;
        warn(warning);
      },
      output: {
        codeSplitting: { groups: [{ name: 'framework', test: (id: string) => FRAMEWORK.test(id) }] },
      },
    },
  },
});
