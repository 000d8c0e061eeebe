/**
 * The body of the monitoring queue's job (registration comes with the queue registry, see docs/monitoring.md):
 * initialise or rebuild one customer's dashboard and record the outcome. Safe to run twice: the password is stored
 * (sealed) before the adapter is called and reused by every later run, and the adapters' steps are idempotent.
 */
import { UnrecoverableError } from 'bullmq';
import type { Pool } from '@cc/shared/db/pool.ts';
import { findCustomer } from '@cc/shared/db/customers.ts';
import { beginMonitoringRun, markMonitoringFailed, markMonitoringReady, type MonitoringAction } from '@cc/shared/db/monitoring.ts';
import { generateMonitoringPassword, type MonitoringCustomer, type MonitoringService } from '@cc/shared/ports/monitoring.ts';
import type { CloudProjects } from '@cc/shared/ports/cloud-projects.ts';
import type { SecretBox } from '@cc/shared/secret-box.ts';

export interface ProvisionDeps {
  pool: Pool;
  service: MonitoringService;
  box: SecretBox;
  projects: CloudProjects;
}

export interface ProvisionResult {
  status: 'ready';
  login: string;
  dashboard_url: string;
}

export async function provisionMonitoring(deps: ProvisionDeps, customerId: string, action: MonitoringAction): Promise<ProvisionResult> {
  const doc = await findCustomer(deps.pool, customerId);
  if (!doc) throw new UnrecoverableError(`customer ${customerId} not found`);
  const customer: MonitoringCustomer = {
    customer_id: doc.customer_id,
    customer_name: doc.customer_name,
    service_account_email: doc.service_account_email,
    projects: doc.service_account_email ? await deps.projects.grantedProjects(doc) : [],
  };
  const password = await beginMonitoringRun(deps.pool, deps.box, {
    customerId,
    backend: deps.service.name,
    action,
    login: customer.customer_name,
    newPassword: generateMonitoringPassword(),
  });
  try {
    const account = action === 'initialise' ? await deps.service.initialise(customer, { password }) : await deps.service.rebuild(customer, { password });
    await markMonitoringReady(deps.pool, { customerId, action, login: account.login, dashboardUrl: account.dashboardUrl, remote: account.remote });
    return { status: 'ready', login: account.login, dashboard_url: account.dashboardUrl };
  } catch (err) {
    await markMonitoringFailed(deps.pool, customerId, err instanceof Error ? err.message : String(err));
    throw err;
  }
}
