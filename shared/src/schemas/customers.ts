/**
 * Customer routes: the customer document and the request and response schemas of customer management (spec 000 §3,
 * 001 §2.4, §3, §4, §5). Only role admin holds customermanagement_create / _update; a customer holds
 * customermanagement_read (own customers only).
 * Decisions behind the shapes are in docs/decisions-admin.md. Every error body is `{ detail }`; a 400 detail
 * is a sentence meant for the user (the spec's own message where it has one, e.g. 'Email list is not valid').
 *
 * Routes (path · method · permission · tenant)
 * Customers (GET /v1/customers/ and GET /v1/customers/:id/ are in read.ts and answer CustomerDocument)
 *   POST   /v1/customers/                   customermanagement_create CustomerCreate → 201 CustomerDocument
 *   PUT    /v1/customers/:id/               customermanagement_update CustomerUpdate → CustomerDocument
 *   PUT    /v1/customers/:id/lists/:list/   customermanagement_update MemberListBody → CustomerDocument (replaces the list)
 *   POST   /v1/customers/:id/lists/:list/   customermanagement_update MemberListBody → CustomerDocument (adds)
 *   DELETE /v1/customers/:id/lists/:list/   customermanagement_update MemberListBody → CustomerDocument (removes)
 *          :list is users (User Access tab) | notify (R.A.T Notification) | alert (Billing Alert Notification)
 *   GET    /v1/customers/:id/service/access/ customermanagement_read  → ServiceAccessAnswer (granted GCP projects)
 *   GET    /v1/customers/:id/entity/        customermanagement_read   → CustomerEntity (its entity's id and name)
 *   POST   /v1/customers/:id/service/script/ customermanagement_update ScriptRequest → ScriptAnswer
 *   All with tenant {params: 'id'}: unknown customer, or one the caller may not see → 404 'Customer not found'.
 *
 * 400 messages besides schema messages: '{label}: This field is required', 'Must have at least 6 characters',
 * 'Customer Id may contain only letters, hyphen and space', 'Customer {id} already exists', 'Email list is not
 * valid', 'Unknown user(s): …'.
 */
import { Type, type Static } from '@sinclair/typebox';
import { CURRENCIES } from '@cc/shared/constants.ts';
import { DASHBOARD_TYPE_ALIASES } from '../customers/messages.ts';
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

// ── Customer management ──────────────────────────────────────────────────────────────────

export const DASHBOARD_TYPES = ['Standard', 'Set Discount', 'Tier Discount'] as const;

export const TierRow = Type.Object({ threshold_spend: Type.Number({ minimum: 0 }), percentage: Type.Number({ minimum: 0, maximum: 100 }) });

export const ProjectTemplate = Type.Object({
  template_name: Type.String({ minLength: 1 }),
  folder_name: Type.String(),
  folder_number: Type.String(),
  project_template: Type.Object({
    project_type: Type.String(),
    default_admin: Type.String(),
    budget: Type.Number({ minimum: 0 }),
    owner_label: Type.String(),
    /** With placeholders {bu}, {product}, {env}. */
    project_name: Type.String(),
    quota: Type.Object({ bigquery_analysis: Type.Number({ minimum: 0 }), compute_engine_cpus: Type.Number({ minimum: 0 }) }),
  }),
});
export type ProjectTemplate = Static<typeof ProjectTemplate>;

/**
 * The editable customer fields. On create, omitted fields take their defaults (EUR, Standard, flags off,
 * thresholds 20 / 10); on update, omitted fields keep their stored value.
 * - billing_account_id: spaces are removed, items split on commas (first = default account); required.
 * - billing_dashboard_type: Standard, Set Discount ('Discount' is taken as Set Discount) or Tier Discount.
 * - billing_dashboard_set_discount: required with 'Set Discount' (0–100); billing_dashboard_tier_discount: at
 *   least one row with 'Tier Discount'; both are cleared for the other types.
 * - inventory / system_health_dashboard: only with gcp_service_account (400 otherwise); turning the service
 *   account off clears them. gcp_service_account needs a valid service_account_email.
 * - drive_id: a pasted folder URL (…/folders/{id}?…) is stripped to the id. domain_name: required with workspace_license.
 */
const CustomerFields = {
  customer_name: Type.String(),
  entity: Type.String(),
  billing_account_id: Type.String(),
  billing_currency: Type.Optional(Type.Union(CURRENCIES.map((c) => Type.Literal(c)))),
  // 'Discount' (spec 000 §3's stored name) is accepted and stored as 'Set Discount'.
  billing_dashboard_type: Type.Optional(Type.Union([...DASHBOARD_TYPES, ...Object.keys(DASHBOARD_TYPE_ALIASES)].map((c) => Type.Literal(c)))),
  // Null first: with type coercion on, a null would otherwise be coerced to 0 by the number branch.
  billing_dashboard_set_discount: Type.Optional(Type.Union([Type.Null(), Type.Number({ minimum: 0, maximum: 100 })])),
  billing_dashboard_tier_discount: Type.Optional(Type.Array(TierRow)),
  support_request: Type.Optional(Type.Boolean()),
  billing_viewer: Type.Optional(Type.Boolean()),
  gcp_service_account: Type.Optional(Type.Boolean()),
  service_account_email: Type.Optional(Type.String()),
  inventory: Type.Optional(Type.Boolean()),
  system_health_dashboard: Type.Optional(Type.Boolean()),
  grafana_external_link: Type.Optional(Type.String()),
  documentation: Type.Optional(Type.Boolean()),
  drive_id: Type.Optional(Type.String()),
  workspace_license: Type.Optional(Type.Boolean()),
  domain_name: Type.Optional(Type.String()),
  anomaly_detection: Type.Optional(Type.Boolean()),
  minimum_anomaly_threshold: Type.Optional(Type.Number({ minimum: 0 })),
  minimum_value_toggled_anomaly: Type.Optional(Type.Number({ minimum: 0 })),
  // What alert quotas and anomaly detection judge: billed (default) or amortised.
  billing_cost_basis: Type.Optional(Type.Union(COST_BASES.map((b) => Type.Literal(b)))),
  business_units: Type.Optional(Type.Array(Type.String())),
  products: Type.Optional(Type.Array(Type.String())),
  env: Type.Optional(Type.Array(Type.String())),
  owner_values: Type.Optional(Type.Array(Type.String())),
  project_provisioning: Type.Optional(Type.Array(ProjectTemplate)),
};

/**
 * customer_name, entity, billing_account_id are checked by the handler so a blank one answers
 * '{field}: This field is required'. customer_id is optional: when omitted it is derived from the name
 * (lower-cased, spaces removed); either way it must be ≥ 6 characters of letters and hyphens.
 */
export const CustomerCreate = Type.Object({
  customer_id: Type.Optional(Type.String()),
  ...CustomerFields,
  customer_name: Type.Optional(Type.String()),
  entity: Type.Optional(Type.String()),
  billing_account_id: Type.Optional(Type.String()),
});
export type CustomerCreate = Static<typeof CustomerCreate>;

/** Same fields; the id is read-only (a customer_id in the body is ignored). */
export const CustomerUpdate = Type.Object({
  ...CustomerFields,
  customer_name: Type.Optional(Type.String()),
  entity: Type.Optional(Type.String()),
  billing_account_id: Type.Optional(Type.String()),
});
export type CustomerUpdate = Static<typeof CustomerUpdate>;

export const CustomerParams = Type.Object({ id: Type.String() });

/**
 * The entity a customer belongs to, as its own users may read it (Customer Settings shows the name; the
 * entity list itself is admin-only). Both null for a customer without an entity ('No Entity').
 */
export const CustomerEntity = Type.Object({ id: Type.Union([Type.String(), Type.Null()]), name: Type.Union([Type.String(), Type.Null()]) });
export type CustomerEntity = Static<typeof CustomerEntity>;

export const MEMBER_LISTS = ['users', 'notify', 'alert'] as const;
export type MemberList = (typeof MEMBER_LISTS)[number];
export const MemberListParams = Type.Object({ id: Type.String(), list: Type.Union(MEMBER_LISTS.map((l) => Type.Literal(l))) });

/**
 * E-mails to set / add / remove. users: each must be an existing user ('Unknown user(s): …').
 * Removing a user from `users` also removes them from that customer's notify and alert lists and their
 * viewer filters there (they lost access). Changes take effect on the affected users' next request.
 */
export const MemberListBody = Type.Object({ users: Type.Array(Type.String()) });

export const GcpProject = Type.Object({ project_id: Type.String(), project_name: Type.String() });
export const ServiceAccessAnswer = Type.Object({
  service_account_email: Type.String(),
  projects: Type.Array(GcpProject),
});
export type ServiceAccessAnswer = Static<typeof ServiceAccessAnswer>;

/** project_ids: a list, or one comma-separated string as typed in the form. customer_id must equal :id. */
export const ScriptRequest = Type.Object({
  customer_id: Type.Optional(Type.String()),
  action: Type.Union([Type.Literal('grant'), Type.Literal('revoke')]),
  project_ids: Type.Union([Type.Array(Type.String()), Type.String()]),
});
export type ScriptRequest = Static<typeof ScriptRequest>;
export const ScriptAnswer = Type.Object({ script: Type.String() });
export type ScriptAnswer = Static<typeof ScriptAnswer>;
