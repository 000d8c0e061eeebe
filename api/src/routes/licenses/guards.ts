import type { FastifyRequest } from 'fastify';
import type { TenantCustomer } from '@cc/shared/db/customers.ts';
import { errors } from '../../errors.ts';

/** The license routes act only for a customer with the workspace_license flag (spec 001 §2.1 gate). */
export function licensedCustomer(req: FastifyRequest): TenantCustomer {
  const customer = req.customer;
  if (!customer.workspace_license) throw new errors.forbidden(`Workspace licenses are off for ${customer.customer_name}`);
  return customer;
}

/**
 * Changes are for the customer's users and the provider's admins; a customerViewer only reads (they hold no
 * create or update permission anywhere, and the licenses have no permission area of their own).
 */
export function assertWriter(req: FastifyRequest): void {
  if (req.auth?.role === 'customerViewer') throw new errors.forbidden('Read-only access');
}
