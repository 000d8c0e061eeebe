/**
 * Request and response schemas of System Health (spec 000 §2, §3, §7 Monitoring, §8). The screen is built from this file.
 *
 * | method | path                              | permission          | answer                                    |
 * |--------|-----------------------------------|---------------------|-------------------------------------------|
 * | POST   | /v1/monitoring/:id/password       | systemhealth_read   | { grafana_pass }                          |
 * | POST   | /v1/monitoring/:id/               | systemhealth_create | MonitoringRun (initialise; waits for it)  |
 * | POST   | /v1/monitoring/:id/rebuild        | systemhealth_update | MonitoringRun (rebuild; waits for it)     |
 * | GET    | /v1/monitoring/:id/               | systemhealth_read   | MonitoringPanel (the credentials panel)   |
 * | GET    | /v1/monitoring/:id/figures/       | systemhealth_read   | HealthFigures (the built-in dashboard)    |
 *
 * All are tenant-checked on :id (a user of another customer: 404 'Customer not found') and answer 403
 * 'System health is disabled for this customer' when the customer's system_health_dashboard flag is off.
 * The password route answers 404 'Monitoring not implemented for this customer' until a first Initialize succeeded.
 * Initialize / Rebuild answer 502 with the failure's message as `detail` (the screen's browser alert), 503 when no
 * worker serves the monitoring queue, 504 when the run outlasts the wait.
 */
import { Type, type Static, type TSchema } from '@sinclair/typebox';

export const MonitoringParams = Type.Object({ id: Type.String({ minLength: 1 }) });

export const MonitoringPassword = Type.Object({ grafana_pass: Type.String() });
export type MonitoringPassword = Static<typeof MonitoringPassword>;

export const MonitoringRun = Type.Object({
  status: Type.Literal('ready'),
  /** The user ID: the customer name. */
  login: Type.String(),
  /** The customer's grafana_link (the built-in dashboard link, before kiosk parameters). */
  dashboard_url: Type.String(),
});
export type MonitoringRun = Static<typeof MonitoringRun>;

const Nullable = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()]);

/** What the credentials panel shows besides the password. */
export const MonitoringPanel = Type.Object({
  /** Spec 000 §2: the user ID equals the customer name. */
  user_id: Type.String(),
  service_account_email: Type.String(),
  projects: Type.Array(Type.Object({ project_id: Type.String(), project_name: Type.String() })),
  /** null before the first Initialize. */
  status: Nullable(Type.Union([Type.Literal('initialising'), Type.Literal('rebuilding'), Type.Literal('ready'), Type.Literal('failed')])),
  last_error: Nullable(Type.String()),
});
export type MonitoringPanel = Static<typeof MonitoringPanel>;

const Money = Type.String({ description: 'decimal text, 2 places' });

export const HealthFigures = Type.Object({
  customer_id: Type.String(),
  /** The display currency (the customer's billing_currency) of every amount of the figures. */
  currency: Type.String(),
  /** Spend without a rate within 7 days of its usage day: in no figure, shown apart per currency. */
  unconverted: Type.Array(
    Type.Object({ currency: Type.String(), amount: Money, missing_from: Type.String(), missing_to: Type.String(), message: Type.String() }),
  ),
  today: Type.String(),
  yesterday: Type.String(),
  anomaly_date: Type.String(),
  projects: Type.Array(
    Type.Object({
      project_id: Type.String(),
      project_name: Type.String(),
      currency: Type.String(),
      yesterday_spend: Money,
      mean_28d: Money,
      mean_days: Type.Integer(),
      month_to_date: Money,
      open_anomalies: Type.Integer(),
    }),
  ),
  alerts: Type.Array(
    Type.Object({
      id: Type.Integer(),
      group_by: Type.Union([Type.Literal('service'), Type.Literal('project_label'), Type.Literal('resource_label')]),
      label_key: Type.String(),
      label_value: Type.String(),
      quota: Money,
      month_to_date: Money,
      currency: Type.String(),
      exceeded: Type.Boolean(),
    }),
  ),
  tickets: Type.Array(
    Type.Object({
      priority: Type.String(),
      open: Type.Integer(),
      awaiting_first_response: Type.Integer(),
      oldest_awaiting_minutes: Nullable(Type.Integer()),
      mean_first_response_minutes: Nullable(Type.Integer()),
    }),
  ),
  freshness: Type.Array(
    Type.Object({
      billing_account_id: Type.String(),
      last_usage_date: Nullable(Type.String()),
      last_ingest_at: Nullable(Type.String()),
      last_batch_status: Nullable(Type.String()),
      source: Nullable(Type.String()),
      last_delivery: Nullable(Type.String()),
      source_error: Nullable(Type.String()),
    }),
  ),
  jobs: Type.Object({
    failing_ingest_accounts: Type.Array(Type.String()),
    ticket_sync_failures: Type.Integer(),
    anomaly_run_missing: Type.Boolean(),
    monitoring_failed: Type.Boolean(),
    failing: Type.Boolean(),
  }),
});
export type HealthFigures = Static<typeof HealthFigures>;

// Kept with the other spec texts, which the web may import as values without bringing TypeBox into its bundle.
export { MONITORING_NOT_IMPLEMENTED } from '../constants.ts';
export const SYSTEM_HEALTH_DISABLED = 'System health is disabled for this customer';
