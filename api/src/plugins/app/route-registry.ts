import fp from 'fastify-plugin';
import type { RouteOptions } from 'fastify';
import { CUSTOMER_KEYS, FOREIGN_ROUTE_POLICIES, type TenantRule } from '../../route-policy.ts';

/** A registered route with its declared policy; the cross-tenant test enumerates these. */
export interface RegisteredRoute {
  method: string;
  url: string;
  permission: string;
  tenant: TenantRule;
  schema: RouteOptions['schema'];
}

declare module 'fastify' {
  interface FastifyInstance {
    registeredRoutes: RegisteredRoute[];
  }
}

function schemaNamesCustomer(schema: unknown): string | null {
  const props = (schema as { properties?: Record<string, unknown> } | undefined)?.properties;
  if (!props) return null;
  return CUSTOMER_KEYS.find((k) => k in props) ?? null;
}

/**
 * The route registry. At registration every route must declare
 * `config.permission` and `config.tenant`, and a route whose params, query or body carry a customer
 * id cannot say `tenant: 'none'`: the server refuses to start rather than serve an unguarded route.
 * permission-guard.ts and tenant-guard.ts enforce what is declared here.
 */
export default fp(
  async (app) => {
    app.decorate('registeredRoutes', [] as RegisteredRoute[]);

    app.addHook('onRoute', (route) => {
      const methods = Array.isArray(route.method) ? route.method : [route.method];
      // HEAD routes Fastify adds by itself go through the same checks: they run the GET's handler, so
      // one left without a policy would answer anyone (it carries its GET's declared config, but not the
      // policy a foreign prefix gives the GET below).
      route.config = { ...(route.config ?? {}) };
      const foreign = FOREIGN_ROUTE_POLICIES.find((p) => route.url === p.prefix || route.url.startsWith(`${p.prefix}/`));
      if (foreign && !route.config.permission) {
        route.config.permission = foreign.permission;
        route.config.tenant = 'none';
      }
      const { permission, tenant } = route.config;
      const where = `${methods.join(',')} ${route.url}`;
      if (!permission) throw new Error(`route ${where} does not declare config.permission`);
      if (!tenant) throw new Error(`route ${where} does not declare config.tenant`);
      if (tenant === 'none') {
        const schema = route.schema ?? {};
        for (const part of ['params', 'querystring', 'body'] as const) {
          const key = schemaNamesCustomer(schema[part]);
          if (key) throw new Error(`route ${where} names a customer in ${part}.${key} but declares tenant 'none'`);
        }
      }
      for (const method of methods) {
        if (method !== 'HEAD' && method !== 'OPTIONS') app.registeredRoutes.push({ method, url: route.url, permission, tenant, schema: route.schema });
      }
    });

  },
  { name: 'route-registry' },
);
