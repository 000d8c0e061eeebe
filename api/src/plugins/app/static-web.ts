import fp from 'fastify-plugin';
import fastifyStatic from '@fastify/static';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';

const API_PREFIXES = ['/v1/', '/v2/', '/oidc/', '/ops/', '/docs'];

/**
 * Vite names every file under assets/ by a hash of its content, so one URL never changes content: the browser may
 * keep it for a year without asking again (`immutable`: not even on a reload). Before, every file was served with
 * `max-age=0`, and a warm load of the billing home asked for each of its ~20 scripts again (one 304 each) before it
 * could run any. Everything else (index.html, which names the current hashes, the favicon) is checked each time.
 */
export const IMMUTABLE = 'public, max-age=31536000, immutable';
const REVALIDATE = 'no-cache';
/** A file Vite wrote under assets/ with its content hash in the name (`BillingPage-BcseFqco.js`, `…js.map`). */
const isHashedAsset = (path: string) => /[\\/]assets[\\/][^\\/]+-[\w-]{8}\.\w+(\.map)?$/.test(path);

/**
 * Serves the built web app and falls back to index.html for client-side routes, so a deep link
 * such as /supportrequest/view/12 loads the app. API paths keep a JSON 404.
 */
export default fp(
  async (app) => {
    const root = resolve(app.config.WEB_DIST);
    const hasWeb = existsSync(resolve(root, 'index.html'));
    if (hasWeb) {
      // `/` serves index.html directly; other client routes come through the not-found fallback below.
      await app.register(fastifyStatic, {
        root,
        wildcard: true,
        index: 'index.html',
        prefix: '/',
        setHeaders: (reply, path) => reply.header('cache-control', isHashedAsset(path) ? IMMUTABLE : REVALIDATE),
      });
    } else {
      app.log.warn({ root }, 'web app not built (npm run build); serving the api only');
    }
    app.setNotFoundHandler((req, reply) => {
      const isApi = API_PREFIXES.some((p) => req.url.startsWith(p));
      if (hasWeb && req.method === 'GET' && !isApi && (req.headers.accept ?? '').includes('text/html')) {
        return reply.type('text/html').header('cache-control', REVALIDATE).sendFile('index.html', { cacheControl: false });
      }
      return reply.code(404).send({ detail: `Route ${req.method} ${req.url.split('?')[0]} not found` });
    });
  },
  { name: 'static-web', dependencies: ['config', 'route-registry'] },
);
