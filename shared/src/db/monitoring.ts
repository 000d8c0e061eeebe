/**
 * Per-customer monitoring state (migration 1700000000011_monitoring.sql). The password only ever reaches the table
 * sealed (shared/src/secret-box.ts), bound to its customer id, and is opened here for the password route only.
 */
import type { SecretBox } from '../secret-box.ts';
import type { Queryable } from './pool.ts';

export type MonitoringBackend = 'local' | 'grafana';
export type MonitoringStatus = 'initialising' | 'rebuilding' | 'ready' | 'failed';
export type MonitoringAction = 'initialise' | 'rebuild';

/** What the screen may see: everything but the password. */
export interface MonitoringAccountRow {
  customer_id: string;
  backend: MonitoringBackend;
  status: MonitoringStatus;
  login: string;
  dashboard_url: string;
  remote: Record<string, string | number>;
  initialised_at: string | null;
  rebuilt_at: string | null;
  last_error: string | null;
  last_error_at: string | null;
}

const iso = (col: string) => `to_json(${col})#>>'{}' AS ${col}`;
const COLUMNS = `customer_id, backend, status, login, dashboard_url, remote, ${iso('initialised_at')}, ${iso('rebuilt_at')},
  last_error, ${iso('last_error_at')}`;

export async function findMonitoringAccount(db: Queryable, customerId: string): Promise<MonitoringAccountRow | null> {
  const { rows } = await db.query<MonitoringAccountRow>(`SELECT ${COLUMNS} FROM monitoring_account WHERE customer_id = $1`, [customerId]);
  return rows[0] ?? null;
}

/**
 * Starts a run: keeps the stored password (a retried or repeated run must not change it), or stores `newPassword`
 * sealed when there is none; marks the run's status. Returns the password the run must use.
 */
export async function beginMonitoringRun(
  db: Queryable,
  box: SecretBox,
  run: { customerId: string; backend: MonitoringBackend; action: MonitoringAction; login: string; newPassword: string },
): Promise<string> {
  const status: MonitoringStatus = run.action === 'initialise' ? 'initialising' : 'rebuilding';
  const { rows } = await db.query<{ password_sealed: string }>(
    `INSERT INTO monitoring_account (customer_id, backend, status, login, password_sealed)
     VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (customer_id) DO UPDATE SET backend = EXCLUDED.backend, status = EXCLUDED.status, updated_at = now()
     RETURNING password_sealed`,
    [run.customerId, run.backend, status, run.login, box.seal(run.newPassword, run.customerId)],
  );
  return box.open(rows[0].password_sealed, run.customerId);
}

/** The run succeeded: the account is usable (initialised_at is set once, by the first success). */
export async function markMonitoringReady(
  db: Queryable,
  done: { customerId: string; action: MonitoringAction; login: string; dashboardUrl: string; remote: Record<string, string | number> },
): Promise<void> {
  await db.query(
    `UPDATE monitoring_account
        SET status = 'ready', login = $3, dashboard_url = $4, remote = $5::jsonb, last_error = NULL, last_error_at = NULL,
            initialised_at = COALESCE(initialised_at, now()),
            rebuilt_at = CASE WHEN $2 = 'rebuild' THEN now() ELSE rebuilt_at END,
            updated_at = now()
      WHERE customer_id = $1`,
    [done.customerId, done.action, done.login, done.dashboardUrl, JSON.stringify(done.remote)],
  );
}

/** The run failed: the message is kept for the screen (callers pass error messages, which never carry the password). */
export async function markMonitoringFailed(db: Queryable, customerId: string, message: string): Promise<void> {
  await db.query(
    `UPDATE monitoring_account SET status = 'failed', last_error = left($2, 2000), last_error_at = now(), updated_at = now()
      WHERE customer_id = $1`,
    [customerId, message],
  );
}

/**
 * The password for POST /v1/monitoring/{id}/password (answer grafana_pass): null until an initialise has succeeded
 * once (the screen then says 'Monitoring not implemented for this customer').
 */
export async function findMonitoringPassword(db: Queryable, box: SecretBox, customerId: string): Promise<string | null> {
  const { rows } = await db.query<{ password_sealed: string }>(
    'SELECT password_sealed FROM monitoring_account WHERE customer_id = $1 AND initialised_at IS NOT NULL',
    [customerId],
  );
  return rows[0] ? box.open(rows[0].password_sealed, customerId) : null;
}
