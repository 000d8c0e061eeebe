import fp from 'fastify-plugin';
import type { RouteOptions } from 'fastify';
import { CUSTOMER_KEYS, FEATURE_GATES, FOREIGN_ROUTE_POLICIES, gatedAreaOf, type TenantRule } from '../../route-policy.ts';

/** A registered route with its declared policy; the cross-tenant test enumerates these. */
export interface RegisteredRoute {
  method: string;
  url: string;
  permission: string;
  tenant: TenantRule;
  feature: string | undefined;
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

function checkFeature(where: string, url: string, tenant: TenantRule, feature: string | undefined): void {
  const area = gatedAreaOf(url);
  if (feature !== undefined && feature !== 'none' && !(feature in FEATURE_GATES)) throw new Error(`route ${where} declares an unknown config.feature '${feature}'`);
  if (tenant === 'none') {
    // A flag is a customer's: a route naming none could not be checked against it.
    if (feature !== undefined && feature !== 'none') throw new Error(`route ${where} declares config.feature '${feature}' but names no customer`);
    return;
  }
  if (!area) return;
  if (feature === undefined) throw new Error(`route ${where} lies in the area of the ${area} flag but does not declare config.feature`);
  if (feature !== 'none' && feature !== area) throw new Error(`route ${where} lies in the area of the ${area} flag but declares config.feature '${feature}'`);
}

/**
 * The route registry. At registration every route must declare
 * `config.permission` and `config.tenant`, and a route whose params, query or body carry a customer
 * id cannot say `tenant: 'none'`: the server refuses to start rather than serve an unguarded route.
 * A route under a gated area's paths (FEATURE_GATES) that names a customer must declare that area's
 * `config.feature` (or 'none'), so a new route of the area cannot forget its flag.
 * permission-guard.ts, tenant-guard.ts and feature-guard.ts enforce what is declared here.
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
      checkFeature(where, route.url, tenant, route.config.feature);
      for (const method of methods) {
        if (method !== 'HEAD' && method !== 'OPTIONS') app.registeredRoutes.push({ method, url: route.url, permission, tenant, feature: route.config.feature, schema: route.schema });
      }
    });

  },
  { name: 'route-registry' },
);
