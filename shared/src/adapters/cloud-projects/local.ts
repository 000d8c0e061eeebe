import type { Queryable } from '../../db/pool.ts';
import { listBilledGcpProjects } from '../../db/customers-write.ts';
import { listProvisionedProjects } from '../../db/provisioning.ts';
import type { CloudProjects } from '../../ports/cloud-projects.ts';

/**
 * Offline adapter: the GCP projects that appear in the customer's billing data, plus those CommandCenter
 * provisioned for it (Active requests) — the projects a granted service account would see, as far as the
 * store knows, without calling Google. A provisioned project has no spend before its first billing day, yet the
 * customer can already grant access to it.
 */
export function localCloudProjects(db: Queryable): CloudProjects {
  return {
    async grantedProjects(customer) {
      const [billed, provisioned] = await Promise.all([listBilledGcpProjects(db, customer.customer_id), listProvisionedProjects(db, customer.customer_id)]);
      const known = new Set(billed.map((p) => p.project_id));
      const added = provisioned.filter((p) => !known.has(p.project_id)).map((p) => ({ project_id: p.project_id, project_name: p.project_name }));
      // Billed projects keep the store's order when nothing is added.
      return added.length === 0 ? billed : [...billed, ...added].sort((a, b) => a.project_id.localeCompare(b.project_id));
    },
  };
}
