import fp from 'fastify-plugin';
import type { FastifyRequest } from 'fastify';
import { findTenantCustomer, findTenantCustomerIdByDomain, type TenantCustomer } from '@cc/shared/db/customers.ts';
import type { TenantRule } from '../../route-policy.ts';
import { errors } from '../../errors.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** Id of the customer the tenant guard admitted; null on a route that names none. */
    customerId: string | null;
    /**
     * The customer the tenant guard admitted, read once for the whole request. Reading it on a route whose tenant
     * rule admitted no customer throws: that is a route declaring the wrong rule, not a caller's mistake.
     */
    readonly customer: TenantCustomer;
  }
  interface FastifyInstance {
    /** Admits the request's customer again for its current caller (after `confirmAccess` re-read them). */
    readmitTenant(req: FastifyRequest): Promise<void>;
  }
}

type NamingRule = Exclude<TenantRule, 'none' | { resolve: unknown } | { domain: string }>;
type Part = 'params' | 'querystring' | 'body';

const admitted = new WeakMap<FastifyRequest, TenantCustomer>();

/** Where a rule reads the customer id: the request part (named as validation errors name it) and the key. */
function placeOf(rule: NamingRule): [Part, string] {
  if ('params' in rule) return ['params', rule.params];
  if ('query' in rule) return ['querystring', rule.query];
  return ['body', rule.body];
}

function valueAt(req: FastifyRequest, part: Part, key: string): unknown {
  const source = part === 'params' ? req.params : part === 'querystring' ? req.query : req.body;
  return source !== null && typeof source === 'object' ? (source as Record<string, unknown>)[key] : undefined;
}

const unresolvable = (part: Part, key: string) => new errors.badRequest(`${part}/${key} must name a customer`);

/**
 * The tenant guard: a route that names a customer (path, query, body, or through the resource it names)
 * only proceeds for an admin or a user granted that customer. Refusal and non-existence look the same.
 * The admitted customer row is `request.customer` for the handler.
 */
export default fp(
  async (app) => {
    app.decorateRequest('customerId', null);
    app.decorateRequest('customer', {
      getter(this: FastifyRequest) {
        const customer = admitted.get(this);
        if (!customer) throw new Error(`${this.method} ${this.routeOptions.url} reads request.customer but its tenant rule admitted no customer`);
        return customer;
      },
    });

    async function admit(req: FastifyRequest, customerId: string): Promise<void> {
      const user = req.auth;
      if (!user) throw new errors.unauthenticated();
      // Kept in process for the request's access epoch: a grant removed or a customer changed moves it.
      const caller = { admin: user.admin, userId: user.email };
      const customer = await app.access.remember(`tenant:${caller.admin}:${caller.userId}:${customerId}`, user.epoch, () =>
        findTenantCustomer(app.pg, customerId, caller),
      );
      if (!customer) {
        // Admitted against the last epoch seen (a deferred request): refused only on the current one.
        if (app.access.isDeferred(req)) {
          await app.confirmAccess(req);
          return admit(req, customerId);
        }
        throw new errors.customerNotFound();
      }
      req.customerId = customerId;
      admitted.set(req, customer);
    }

    app.decorate('readmitTenant', async (req: FastifyRequest) => {
      const customerId = req.customerId;
      admitted.delete(req);
      req.customerId = null;
      if (customerId === null) throw new Error(`${req.method} ${req.routeOptions.url} re-admits but its tenant rule admitted no customer`);
      await admit(req, customerId);
    });

    // preValidation: before validation, so a request naming another tenant's customer is refused the same way
    // whatever else it carries. Only a plain string is taken from the unvalidated request: anything else (absent,
    // an array, a 5,000-deep object) is left to validation and checked in preHandler.
    app.addHook('preValidation', async (req) => {
      const rule = req.routeOptions.config.tenant;
      if (!rule || rule === 'none') return;
      if ('resolve' in rule) {
        const customerId = await rule.resolve(req);
        // undefined: the route names no customer yet (a customer being created)
        if (customerId === undefined) return;
        if (customerId === null) throw new errors.notFound('Not found');
        return admit(req, customerId);
      }
      if ('domain' in rule) {
        // A domain that is no customer's, or another tenant's, is refused exactly like a customer id would be.
        const domain = valueAt(req, 'params', rule.domain);
        if (typeof domain !== 'string' || domain === '') throw unresolvable('params', rule.domain);
        const user = req.auth;
        if (!user) throw new errors.unauthenticated();
        const customerId = await findTenantCustomerIdByDomain(app.pg, domain, { admin: user.admin, userId: user.email });
        if (!customerId) throw new errors.customerNotFound();
        return admit(req, customerId);
      }
      const [part, key] = placeOf(rule);
      const raw = valueAt(req, part, key);
      if (typeof raw !== 'string') return;
      if (raw === '') throw unresolvable(part, key);
      return admit(req, raw);
    });

    // preHandler: the validated value decides. Validation may have coerced it (['b'] becomes 'b'), so a value
    // other than the one admitted above is checked again; a route naming no usable customer is refused.
    app.addHook('preHandler', async (req) => {
      const rule = req.routeOptions.config.tenant;
      // A path parameter is a string already, so the domain admitted above cannot have changed in validation.
      if (!rule || rule === 'none' || 'resolve' in rule || 'domain' in rule) return;
      const [part, key] = placeOf(rule);
      const value = valueAt(req, part, key);
      if (typeof value !== 'string' || value === '') throw unresolvable(part, key);
      if (value !== req.customerId) await admit(req, value);
    });
  },
  { name: 'tenant-guard', dependencies: ['auth', 'pg', 'permission-guard', 'access-cache'] },
);
