/**
 * Port of the per-customer monitoring dashboard (spec 000 §2 System Health; §7 POST /v1/monitoring/{id}/ and
 * /rebuild): Grafana (shared/src/adapters/monitoring/real.ts) or the built-in dashboard CommandCenter serves
 * itself (shared/src/adapters/monitoring/local.ts). Only the `monitoring` queue calls it; the api reads what it
 * recorded (shared/src/db/monitoring.ts).
 *
 * Both operations are safe to repeat: a run that died half-way is completed by the next one, and nothing is created
 * twice. The password is chosen by the caller's store, not by the adapter, when one exists: the store keeps it
 * (sealed) before the adapter is called, so a crash between "user created there" and "recorded here" cannot leave a
 * password nobody knows.
 */
import { randomInt } from 'node:crypto';

export interface MonitoringCustomer {
  customer_id: string;
  customer_name: string;
  /** The customer's service account (the Cloud Monitoring data source reads as it). */
  service_account_email: string;
  /** Granted GCP projects: the dashboards' project choices; the first is the data source's default project. */
  projects: { project_id: string; project_name: string }[];
}

export interface MonitoringAccount {
  /** Spec 000 §2: the user ID equals the customer name. */
  login: string;
  password: string;
  /** The built-in dashboard link (the customer's grafana_link), before kiosk parameters (shared/src/monitoring/kiosk-url.ts). */
  dashboardUrl: string;
  /** Ids in the external system worth keeping (Grafana: orgId, userId, folderUid); empty for local. */
  remote: Record<string, string | number>;
}

export interface MonitoringService {
  readonly name: 'local' | 'grafana';
  /**
   * Ensures everything the customer's dashboard needs. `password`: the one stored by an earlier (perhaps failed) run,
   * which is kept; without it a new one is generated.
   */
  initialise(customer: MonitoringCustomer, opts?: { password?: string }): Promise<MonitoringAccount>;
  /** Re-applies the dashboard templates (overwriting) and repairs anything missing, keeping `password`. */
  rebuild(customer: MonitoringCustomer, opts: { password: string }): Promise<MonitoringAccount>;
}

const LOWER = 'abcdefghijkmnopqrstuvwxyz';
const UPPER = 'ABCDEFGHJKLMNPQRSTUVWXYZ';
const DIGITS = '23456789';
const SYMBOLS = '-_.!#%+';
const ALL = LOWER + UPPER + DIGITS + SYMBOLS;

/**
 * 24 characters with every class present, so Grafana's optional strong-password policy (upper, lower, digit,
 * symbol, 12+) accepts it; look-alikes (l, 1, O, 0, I) are left out because users copy it by eye from the panel.
 */
export function generateMonitoringPassword(length = 24): string {
  for (;;) {
    let p = '';
    for (let i = 0; i < length; i++) p += ALL[randomInt(ALL.length)];
    if ([LOWER, UPPER, DIGITS, SYMBOLS].every((set) => [...p].some((c) => set.includes(c)))) return p;
  }
}
