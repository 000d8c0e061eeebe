import type { Queryable } from '../db/pool.ts';
import { listBilledGcpProjects } from '../db/customers-write.ts';
import type { CloudProjects } from '../ports/cloud-projects.ts';

/**
 * Offline adapter: the GCP projects that appear in the customer's billing data — the projects a granted
 * service account would see, as far as the store knows, without calling Google.
 */
export function localCloudProjects(db: Queryable): CloudProjects {
  return { grantedProjects: (customer) => listBilledGcpProjects(db, customer.customer_id) };
}
