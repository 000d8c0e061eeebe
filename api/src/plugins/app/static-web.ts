import fp from 'fastify-plugin';
import fastifyStatic from '@fastify/static';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';

const API_PREFIXES = ['/v1/', '/v2/', '/oidc/', '/ops/', '/docs'];

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
      await app.register(fastifyStatic, { root, wildcard: true, index: 'index.html', prefix: '/' });
    } else {
      app.log.warn({ root }, 'web app not built (npm run build); serving the api only');
    }
    app.setNotFoundHandler((req, reply) => {
      const isApi = API_PREFIXES.some((p) => req.url.startsWith(p));
      if (hasWeb && req.method === 'GET' && !isApi && (req.headers.accept ?? '').includes('text/html')) {
        return reply.type('text/html').sendFile('index.html', { maxAge: 0 });
      }
      return reply.code(404).send({ detail: `Route ${req.method} ${req.url.split('?')[0]} not found` });
    });
  },
  { name: 'static-web', dependencies: ['config', 'route-registry'] },
);
