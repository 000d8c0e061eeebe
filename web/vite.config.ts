import { defineConfig } from 'vite';

/** The api the dev server forwards `/v1` and `/v2` to (`npm run dev -w web`). */
const API_URL = 'http://localhost:8080';

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
  },
});
