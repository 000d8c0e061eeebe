import { defineConfig } from 'vite';

/** The api the dev server forwards `/v1` and `/v2` to (`npm run dev -w web`). */
const API_URL = 'http://localhost:8080';

/** Packages only the inventory graph (force-graph, 3d-force-graph) pulls in. */
const GRAPH_ONLY =
  /node_modules[\\/](3d-force-graph|force-graph|three|three-forcegraph|three-render-objects|@tweenjs|accessor-fn|bezier-js|canvas-color-tracker|d3-[a-z0-9-]+|data-bind-mapper|float-tooltip|index-array-by|internmap|kapsule|lodash-es|ngraph\.[a-z]+|polished|preact|tinycolor2)[\\/]/;

export default defineConfig({
  // Vite 8 transforms TS/TSX with Oxc; no React plugin needed (no fast refresh, full reloads instead).
  oxc: { jsx: { runtime: 'automatic' } },
  resolve: {
    // The repository root hoists React 18 (a test tool needs it); the web app and every library it
    // bundles (Primer, react-redux, wouter) must share web/'s React 19, so resolve React from here.
    dedupe: ['react', 'react-dom', 'react-is', 'scheduler'],
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
    // The vendor chunk is React 19 + Primer (about 190 kB gzipped); the app code stays small.
    chunkSizeWarningLimit: 700,
    rolldownOptions: {
      // Primer marks its entry "use client" (for React Server Components); meaningless in an SPA bundle.
      onwarn(warning, warn) {
        if (warning.code === 'MODULE_LEVEL_DIRECTIVE') return;
        warn(warning);
      },
      output: {
        // Libraries change less often than the app: a separate chunk stays cached across deploys.
        // The inventory graph's libraries (three.js among them) stay out of it: only /inventory/view loads them.
        codeSplitting: { groups: [{ name: 'vendor', test: (id: string) => /node_modules/.test(id) && !GRAPH_ONLY.test(id) }] },
      },
    },
  },
});
