import fp from 'fastify-plugin';
import type { FastifyRequest } from 'fastify';
import { userCanAccessCustomer } from '@cc/shared/db/users.ts';
import { customerExists } from '@cc/shared/db/customers.ts';
import type { TenantRule } from '../../route-policy.ts';
import { errors } from '../../errors.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The customer the tenant guard checked for this request, if the route names one. */
    customerId: string | null;
  }
}

/**
 * The tenant guard: a route that names a customer (path, query, body, or through the resource it names)
 * only proceeds for an admin or a user granted that customer. Refusal and non-existence look the same.
 */
export default fp(
  async (app) => {
    app.decorateRequest('customerId', null);

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
        ? await customerExists(app.pg, customerId)
        : await userCanAccessCustomer(app.pg, user.email, customerId);
      if (!allowed) throw new errors.customerNotFound();
      req.customerId = customerId;
    });
  },
  { name: 'tenant-guard', dependencies: ['auth', 'pg', 'permission-guard'] },
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
