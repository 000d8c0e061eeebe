import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';

/** The api the dev server forwards `/v1` and `/v2` to (`npm run dev -w web`). */
const API_URL = 'http://localhost:8080';

/**
 * What every screen runs on (React, the store, the router): one chunk that stays cached across deploys. Everything
 * else from node_modules — Primer's components among them — goes where Rolldown's splitting puts it, so a route's
 * chunk carries only the Primer pieces that route uses, and Plotly (common/plotly-partial.ts) and the graph
 * libraries are chunks of their own, fetched by the screens that draw them.
 */
const FRAMEWORK = /node_modules[\\/](react|react-dom|scheduler|react-redux|@reduxjs[\\/]toolkit|redux|redux-thunk|immer|reselect|use-sync-external-store|wouter|regexparam|mitt)[\\/]/;

/** A node of the ESTree Rolldown's parser answers, as far as the plugin below looks into it. */
interface EsNode {
  type: string;
  start: number;
  end: number;
  [key: string]: unknown;
}

/**
 * Whether an attribute's description is text built from text only: literals, `+`, `[...].join(' ')`, template
 * strings and references to other descriptions (`dash.description`). Anything else (a call, an assignment) is kept.
 */
function isText(node: EsNode | null | undefined): boolean {
  if (!node) return false;
  const child = (k: string) => node[k] as EsNode;
  switch (node.type) {
    case 'Literal':
    case 'Identifier':
      return true;
    case 'TemplateLiteral':
      return (node.expressions as EsNode[]).every(isText);
    case 'BinaryExpression':
    case 'LogicalExpression':
      return isText(child('left')) && isText(child('right'));
    case 'ConditionalExpression':
      return isText(child('test')) && isText(child('consequent')) && isText(child('alternate'));
    case 'ArrayExpression':
      return (node.elements as EsNode[]).every(isText);
    case 'MemberExpression':
      return !node.computed && isText(child('object'));
    case 'ParenthesizedExpression':
      return isText(child('expression'));
    case 'CallExpression': {
      const callee = child('callee');
      return callee.type === 'MemberExpression' && (callee.property as EsNode & { name?: string }).name === 'join' && isText(callee.object as EsNode) && (node.arguments as EsNode[]).every(isText);
    }
    default:
      return false;
  }
}

/**
 * Plotly's attribute tables carry a `description` per attribute for its schema and docs (about a ninth of the partial
 * bundle gzipped); drawing never reads them. Plotly's own minified bundles strip them at build time
 * (tasks/compress_attributes.js upstream); this does the same on the parsed source, removing only `description`
 * properties whose value is plain text, so no code path changes.
 */
function stripPlotlyDescriptions(): Plugin {
  return {
    name: 'strip-plotly-descriptions',
    apply: 'build',
    transform: {
      filter: { id: /node_modules[\\/]plotly\.js[\\/]src[\\/].*\.js$/, code: 'description' },
      handler(code) {
        const cuts: [number, number][] = [];
        const visit = (node: unknown): void => {
          if (Array.isArray(node)) return node.forEach(visit);
          if (!node || typeof node !== 'object') return;
          const n = node as EsNode;
          if (n.type === 'ObjectExpression') {
            for (const prop of n.properties as EsNode[]) {
              const key = prop.key as EsNode & { name?: string; value?: unknown };
              const named = prop.type === 'Property' && !prop.computed && (key.name === 'description' || key.value === 'description');
              if (named && isText(prop.value as EsNode)) {
                // Remove the property and the comma after it, if any.
                const comma = /^\s*,/.exec(code.slice(prop.end));
                cuts.push([prop.start, prop.end + (comma ? comma[0].length : 0)]);
              }
            }
          }
          for (const k in n) if (k !== 'type' && k !== 'start' && k !== 'end') visit(n[k]);
        };
        visit(this.parse(code));
        if (cuts.length === 0) return null;
        cuts.sort((a, b) => a[0] - b[0]);
        let out = '';
        let at = 0;
        for (const [from, to] of cuts) {
          out += code.slice(at, from);
          at = to;
        }
        return { code: out + code.slice(at), map: null };
      },
    },
  };
}

/**
 * Plotly modules the partial bundle replaces with a stand-in (web/src/common/plotly-stub-*) because no chart of
 * the app can reach them; each stub says why. Keyed by the path inside plotly.js/src.
 */
const PLOTLY_STUBS: Record<string, string> = {
  'components/modebar/manage.js': './src/common/plotly-stub-modebar.cjs',
  'components/modebar/constants.js': './src/common/plotly-stub-modebar-constants.ts',
};

/** Packages plotly's modules import that the partial bundle replaces likewise, by import name. */
const PLOTLY_PACKAGE_STUBS: Record<string, string> = {
  'gl-mat4': './src/common/plotly-stub-gl-mat4.ts',
};

function stubPlotlyModules(): Plugin {
  return {
    name: 'stub-plotly-modules',
    // Before Vite's own resolver, which answers every import it can resolve.
    enforce: 'pre',
    apply: 'build',
    async resolveId(source, importer, options) {
      if (!importer || !/node_modules[\\/]plotly\.js[\\/]src[\\/]/.test(importer)) return null;
      const packageStub = PLOTLY_PACKAGE_STUBS[source];
      if (packageStub) return fileURLToPath(new URL(packageStub, import.meta.url));
      if (!source.startsWith('.')) return null;
      const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
      const inSrc = resolved?.id.replaceAll('\\', '/').split('/plotly.js/src/')[1];
      const stub = inSrc ? PLOTLY_STUBS[inSrc] : undefined;
      return stub ? fileURLToPath(new URL(stub, import.meta.url)) : null;
    },
  };
}

export default defineConfig({
  plugins: [stripPlotlyDescriptions(), stubPlotlyModules()],
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
