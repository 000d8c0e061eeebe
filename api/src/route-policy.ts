import type { FastifyRequest } from 'fastify';
import type { Permission } from '@cc/shared/permissions.ts';

/**
 * What a route must declare in its `config` (checked at registration, see plugins/app/route-registry.ts; enforced by permission-guard.ts and tenant-guard.ts).
 * - permission: an `area_action` string, or 'public' (no sign-in), 'authenticated' (any signed-in user),
 *   'admin' (role admin: operator tools).
 * - tenant: where the route names a customer, or 'none' when it names none. The customer it names is admitted
 *   (or the request refused) before the handler runs, and the handler reads it as `request.customer`.
 */
export type RoutePermission = Permission | 'public' | 'authenticated' | 'admin';

export type TenantRule =
  | 'none'
  | { params: string }
  | { query: string }
  | { body: string }
  /** The path parameter `domain` names the customer by its Workspace domain_name (the licenses routes, spec 001 §7). */
  | { domain: string }
  /**
   * For routes that name a resource rather than a customer: return its customer id, null when it does not exist,
   * or undefined when the request names no existing customer (a route creating one).
   */
  | { resolve: (req: FastifyRequest) => Promise<string | null | undefined> };

declare module 'fastify' {
  interface FastifyContextConfig {
    permission?: RoutePermission;
    tenant?: TenantRule;
  }
}

/** Property names that mean "a customer id" wherever they appear in params, query or body. */
export const CUSTOMER_KEYS = ['customer', 'customer_id', 'customerId'];

/** Routes added by third-party plugins get their policy from their prefix. */
export const FOREIGN_ROUTE_POLICIES: { prefix: string; permission: RoutePermission }[] = [
  { prefix: '/docs', permission: 'public' },
  { prefix: '/ops/queues', permission: 'admin' },
  // @fastify/static's catch-all for the built web app's files.
  { prefix: '/*', permission: 'public' },
];
