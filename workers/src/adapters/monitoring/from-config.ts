/**
 * The monitoring service the configuration names (MONITORING=local|grafana). Typed by the settings it reads, not by
 * Config, until those settings join shared/src/config.ts (docs/monitoring.md lists them): Config will then fit as is.
 */
import type { MonitoringService } from '@cc/shared/ports/monitoring.ts';
import { grafanaMonitoringService, serviceAccountKeyFromDir } from './grafana.ts';
import { localMonitoringService } from './local.ts';

export interface MonitoringSettings {
  MONITORING: 'local' | 'grafana';
  GRAFANA_URL: string;
  GRAFANA_PUBLIC_URL: string;
  GRAFANA_ADMIN_USER: string;
  GRAFANA_ADMIN_PASSWORD: string;
  GRAFANA_GCM_KEY_DIR: string;
}

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

