/** The monitoring service the configuration names (MONITORING=local|grafana). */
import type { Config } from '../../config.ts';
import type { MonitoringService } from '../../ports/monitoring.ts';
import { grafanaMonitoringService, serviceAccountKeyFromDir } from './real.ts';
import { localMonitoringService } from './local.ts';

/** The monitoring job tells Grafana's final refusals from retryable ones by this error. */
export { GrafanaError } from './real.ts';

export type MonitoringSettings = Pick<
  Config,
  'MONITORING' | 'GRAFANA_URL' | 'GRAFANA_PUBLIC_URL' | 'GRAFANA_ADMIN_USER' | 'GRAFANA_ADMIN_PASSWORD' | 'GRAFANA_GCM_KEY_DIR'
>;

export function monitoringServiceFromConfig(config: MonitoringSettings): MonitoringService {
  if (config.MONITORING === 'grafana') {
    return grafanaMonitoringService({
      url: config.GRAFANA_URL,
      publicUrl: config.GRAFANA_PUBLIC_URL || undefined,
      adminUser: config.GRAFANA_ADMIN_USER,
      adminPassword: config.GRAFANA_ADMIN_PASSWORD,
      serviceAccountKey: config.GRAFANA_GCM_KEY_DIR ? serviceAccountKeyFromDir(config.GRAFANA_GCM_KEY_DIR) : undefined,
    });
  }
  return localMonitoringService();
}

