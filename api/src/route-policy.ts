import type { FastifyRequest } from 'fastify';
import type { Permission } from '@cc/shared/permissions.ts';
import type { TenantCustomer } from '@cc/shared/db/customers.ts';
import { SYSTEM_HEALTH_DISABLED } from '@cc/shared/schemas/monitoring.ts';

/**
 * What a route must declare in its `config` (checked at registration, see plugins/app/route-registry.ts; enforced by
 * permission-guard.ts, tenant-guard.ts and feature-guard.ts).
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
    /**
     * The customer's feature flag the route needs (FEATURE_GATES), or 'none' for a route of a gated area that
     * answers with the flag off. Required on every route under a gated area's paths that names a customer.
     */
    feature?: FeatureFlag | 'none';
  }
}

/** Per-customer flags that switch a whole area of the product on or off (spec 000 §6, 001 §2.1). */
export type FeatureFlag = 'billing_viewer' | 'system_health_dashboard' | 'workspace_license' | 'inventory' | 'documentation' | 'support_request';

export interface FeatureGate {
  /** Path prefixes of the area's route patterns: a route under them that names a customer must declare `feature`. */
  paths: string[];
  /** The 403 detail when the flag is off (the texts each area has always answered). */
  refusal: (customer: TenantCustomer) => string;
  /** Spec 000 §6 lets admins act for any customer on Support only ("… support_request flag, or admin"). */
  adminsExempt?: boolean;
}

export const FEATURE_GATES: Record<FeatureFlag, FeatureGate> = {
  billing_viewer: { paths: ['/v1/viewers/'], refusal: () => 'Billing Viewer is disabled for this customer' },
  system_health_dashboard: { paths: ['/v1/monitoring/'], refusal: () => SYSTEM_HEALTH_DISABLED },
  workspace_license: { paths: ['/v1/licenses/'], refusal: (c) => `Workspace licenses are off for ${c.customer_name}` },
  inventory: { paths: ['/v1/asset-inventory/:customer/'], refusal: () => 'Inventory is disabled for this customer' },
  documentation: { paths: ['/v1/gdrive/'], refusal: (c) => `Playbook for ${c.customer_name} is disabled` },
  support_request: { paths: ['/v1/jira/'], refusal: () => 'Support requests are disabled for this customer', adminsExempt: true },
};

/** The flag whose area a URL lies in, if any. */
export function gatedAreaOf(url: string): FeatureFlag | undefined {
  return (Object.keys(FEATURE_GATES) as FeatureFlag[]).find((flag) => FEATURE_GATES[flag].paths.some((p) => url.startsWith(p)));
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
