import { Type, type Static } from '@sinclair/typebox';
import { COST_BASES } from './billing.ts';

const Tier = Type.Object({ threshold_spend: Type.Number(), percentage: Type.Number() });

/** The customer document (spec 000 §3, 001 §3). */
export const CustomerDocument = Type.Object({
  id: Type.String(),
  customer_id: Type.String(),
  customer_name: Type.String(),
  entity: Type.Union([Type.String(), Type.Null()]),
  billing_account_id: Type.String(),
  billing_currency: Type.String(),
  billing_dashboard_type: Type.String(),
  billing_dashboard_set_discount: Type.Union([Type.Number(), Type.Null()]),
  billing_dashboard_tier_discount: Type.Array(Tier),
  support_request: Type.Boolean(),
  billing_viewer: Type.Boolean(),
  gcp_service_account: Type.Boolean(),
  service_account_email: Type.String(),
  inventory: Type.Boolean(),
  system_health_dashboard: Type.Boolean(),
  grafana_external_link: Type.String(),
  /** The built-in monitoring dashboard link ('' until Initialize Dashboard); the screen adds kiosk parameters. */
  grafana_link: Type.String(),
  documentation: Type.Boolean(),
  drive_id: Type.String(),
  drive_link: Type.String(),
  workspace_license: Type.Boolean(),
  domain_name: Type.String(),
  anomaly_detection: Type.Boolean(),
  minimum_anomaly_threshold: Type.Number(),
  minimum_value_toggled_anomaly: Type.Number(),
  /** What alert quotas and anomaly detection judge: 'billed' (default) or 'amortised' (docs/decisions-billing.md). */
  billing_cost_basis: Type.Union(COST_BASES.map((b) => Type.Literal(b))),
  business_units: Type.Array(Type.String()),
  products: Type.Array(Type.String()),
  env: Type.Array(Type.String()),
  owner_values: Type.Array(Type.String()),
  project_provisioning: Type.Array(Type.Unknown()),
  users: Type.Array(Type.String()),
  notify: Type.Array(Type.String()),
  alert: Type.Array(Type.String()),
  filters: Type.Array(Type.Object({ user: Type.String(), label_key: Type.String(), label_value: Type.String() })),
});
export type CustomerDocument = Static<typeof CustomerDocument>;
