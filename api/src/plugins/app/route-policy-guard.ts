import fp from 'fastify-plugin';
import type { FastifyRequest, RouteOptions } from 'fastify';
import { hasPermission } from '@cc/shared/permissions.ts';
import { userCanAccessCustomer } from '@cc/shared/db/users.ts';
import { CUSTOMER_KEYS, FOREIGN_ROUTE_POLICIES, type TenantRule } from '../../route-policy.ts';
import { errors } from '../../errors.ts';

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
  interface FastifyRequest {
    /** The customer the tenant guard checked for this request, if the route names one. */
    customerId: string | null;
  }
}

function schemaNamesCustomer(schema: unknown): string | null {
  const props = (schema as { properties?: Record<string, unknown> } | undefined)?.properties;
  if (!props) return null;
  return CUSTOMER_KEYS.find((k) => k in props) ?? null;
}

/**
 * The permission and tenant guard, in one place. At registration every route must declare
 * `config.permission` and `config.tenant`, and a route whose params, query or body carry a customer
 * id cannot say `tenant: 'none'`: the server refuses to start rather than serve an unguarded route.
 */
export default fp(
  async (app) => {
    app.decorate('registeredRoutes', [] as RegisteredRoute[]);
    app.decorateRequest('customerId', null);

    app.addHook('onRoute', (route) => {
      const methods = Array.isArray(route.method) ? route.method : [route.method];
      if (methods.every((m) => m === 'HEAD' || m === 'OPTIONS')) return;
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
        if (method !== 'HEAD') app.registeredRoutes.push({ method, url: route.url, permission, tenant, schema: route.schema });
      }
    });

    app.addHook('onRequest', async (req) => {
      const permission = req.routeOptions.config.permission;
      if (!permission || permission === 'public') return;
      const user = await app.authenticate(req);
      if (permission === 'authenticated') return;
      if (permission === 'admin') {
        if (!user.admin) throw new errors.forbidden('Admin only');
        return;
      }
      if (!user.role) throw new errors.forbidden('Your user account is being initialised');
      if (!hasPermission(user.perms, permission)) throw new errors.forbidden(`Permission ${permission} required`);
    });

    // preValidation: the body is parsed but not yet validated, so a request naming another tenant's
    // customer is refused the same way whatever else it carries.
    app.addHook('preValidation', async (req) => {
      const tenant = req.routeOptions.config.tenant;
      if (!tenant || tenant === 'none') return;
      const customerId = await customerNamedBy(req, tenant);
      if (customerId === undefined) return;
      if (customerId === null) throw new errors.notFound('Not found');
      const user = req.auth;
      if (!user) throw new errors.unauthenticated();
      const allowed = user.admin
        ? ((await app.pg.query('SELECT 1 FROM customer WHERE customer_id = $1', [customerId])).rowCount ?? 0) > 0
        : await userCanAccessCustomer(app.pg, user.email, customerId);
      if (!allowed) throw new errors.customerNotFound();
      req.customerId = customerId;
    });
  },
  { name: 'route-policy-guard', dependencies: ['auth', 'pg'] },
);

/** The customer id a request names: a string, null (resource does not exist) or undefined (none given). */
async function customerNamedBy(req: FastifyRequest, tenant: Exclude<TenantRule, 'none'>): Promise<string | null | undefined> {
  if ('resolve' in tenant) return tenant.resolve(req);
  const [source, key] =
    'params' in tenant ? [req.params, tenant.params] : 'query' in tenant ? [req.query, tenant.query] : [req.body, tenant.body];
  const value = (source as Record<string, unknown> | undefined)?.[key];
  if (value === undefined || value === null || value === '') return undefined;
  return String(value);
}
