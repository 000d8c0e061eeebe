import fp from 'fastify-plugin';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';

/** OpenAPI generated from the routes' TypeBox schemas, served at /docs (DOCS: on, off, auto = not in production). */
export default fp(
  async (app) => {
    await app.register(swagger, {
      openapi: {
        info: { title: 'CommandCenter API', version: '1.0.0', description: 'Errors are always `{ "detail": "…" }`.' },
        components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
        security: [{ bearer: [] }],
      },
    });
    // The document is generated either way (tests and `make` read it through app.swagger()); only serving it is
    // decided here. In production it is off unless DOCS=on (docs/operations.md): it lists every route.
    const serve = app.config.DOCS === 'on' || (app.config.DOCS === 'auto' && app.config.NODE_ENV !== 'production');
    if (serve) await app.register(swaggerUi, { routePrefix: '/docs' });
  },
  { name: 'swagger', dependencies: ['route-registry'] },
);
