/**
 * MONITORING=local (default): CommandCenter serves the customer's dashboard itself (a kiosk page reading
 * shared/src/db/monitoring-figures.ts), so there is nothing external to set up. The credential is still a per-customer
 * password, managed by the same routes as Grafana's, so the System Health panel behaves the same in both modes.
 */
import { generateMonitoringPassword, type MonitoringAccount, type MonitoringCustomer, type MonitoringService } from '../../ports/monitoring.ts';
import { localKioskPath } from '../../monitoring/kiosk-url.ts';

const account = (customer: MonitoringCustomer, password: string): MonitoringAccount => ({
  login: customer.customer_name,
  password,
  dashboardUrl: localKioskPath(customer.customer_id),
  remote: {},
});

export function localMonitoringService(): MonitoringService {
  return {
    name: 'local',
    async initialise(customer, opts = {}) {
      return account(customer, opts.password ?? generateMonitoringPassword());
    },
    async rebuild(customer, opts) {
      return account(customer, opts.password);
    },
  };
}
