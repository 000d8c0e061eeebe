import type { FastifyRequest } from 'fastify';
import { errors } from '../errors.ts';

/**
 * Changes are for the customer's users and the provider's admins; a customerViewer only reads (they hold no
 * create or update permission anywhere, and the licenses have no permission area of their own).
 */
export function assertWriter(req: FastifyRequest): void {
  if (req.auth?.role === 'customerViewer') throw new errors.forbidden('Read-only access');
}
