/**
 * Administration routes: request and response schemas (spec 001 §2.4–§2.7, §3, §4, §5, §7, §8; 000 §3, §5, §7).
 * Longer than 300 lines on purpose: declarations only, one per route of the area, no logic to split off.
 * Decisions behind the shapes are in docs/decisions-admin.md. Every error body is `{ detail }`; a 400 detail
 * is a sentence meant for the user (the spec's own message where it has one, e.g. 'Email list is not valid').
 *
 * Routes (path · method · permission · tenant). Only role admin holds entitymanagement_*, usermanagement_*,
 * customermanagement_create / _update; a customer holds customermanagement_read (own customers only).
 *
 * Entities
 *   GET    /v1/entities/                    entitymanagement_read     → Entity[] (ordered by name)
 *   POST   /v1/entities/                    entitymanagement_create   EntityInput → 201 Entity
 *   GET    /v1/entities/:id/                entitymanagement_read     → Entity            (404 'Entity not found')
 *   PUT    /v1/entities/:id/                entitymanagement_update   EntityInput → Entity
 *   POST   /v1/entities/:id/admins/         entitymanagement_update   EntityAdminsBody → Entity (adds)
 *   DELETE /v1/entities/:id/admins/         entitymanagement_update   EntityAdminsBody → Entity (removes)
 *
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
 * Users (:id is the user's e-mail, URL-encoded)
 *   GET    /v1/users/                       usermanagement_read       UserListQuery → UserPage (sorted by e-mail, page size 100)
 *   GET    /v1/users/events                 usermanagement_read       text/event-stream: `event: users` with UsersChangedEvent data
 *   GET    /v1/users/:id/                   usermanagement_read       → AdminUser         (404 'User not found')
 *   POST   /v1/users/                       usermanagement_create     InviteBody → 201 InviteAnswer (invitation e-mails sent)
 *   PUT    /v1/users/:id/                   usermanagement_update     UserUpdate → AdminUser
 *   DELETE /v1/users/                       usermanagement_update     DeleteUsersBody → DeleteUsersAnswer
 *   POST   /v1/users/:id/invitation/        usermanagement_update     → 202 InvitationSent (new link; old links stop working)
 *
 * Invitations (public: the token is the credential)
 *   GET    /v1/invitations/:token           public                    → InvitationInfo    (404 'Invitation not found or expired')
 *   POST   /v1/invitations/:token           public                    InvitationAccept → InvitationInfo (password set, e-mail verified)
 *
 * Messages a 400 can carry (besides schema messages such as "body/role must be equal to one of the allowed values"):
 *   'This field is required' (prefixed with the field: 'customer_name: This field is required'),
 *   'Must have at least 6 characters', 'Customer Id may contain only letters, hyphen and space',
 *   'Customer {id} already exists', 'Email list is not valid', 'Email is not valid',
 *   'Please grant access to at least one customer', 'E-mail already exists: a@x.y, b@x.y' (the UI's 'E-mail already exists' dialog:
 *   the detail starts with 'E-mail already exists'), 'Unknown customer(s): …', 'Unknown user(s): …', 'Entity not found'.
 */
import { Type, type Static } from '@sinclair/typebox';
import { CURRENCIES, EMAIL_PATTERN } from '@cc/shared/constants.ts';
import { ROLES } from '@cc/shared/permissions.ts';
import { Page, PageSize } from './common.ts';
import { DASHBOARD_TYPE_ALIASES } from '../customers/messages.ts';
import { COST_BASES } from './billing.ts';

const Email = Type.String({ pattern: EMAIL_PATTERN });

// ── Entities ───────────────────────────────────────────────────────────────────────────────

export const Entity = Type.Object({
  id: Type.String(),
  name: Type.String(),
  /** Allowed e-mail domains, one per line (the form's multiline text). */
  email_domain_allowed: Type.String(),
  /** Admin e-mails, sorted; empty → the list shows 'No Users'. */
  admins: Type.Array(Type.String()),
});
export type Entity = Static<typeof Entity>;

export const EntityParams = Type.Object({ id: Type.String() });

/** name required ('name: This field is required' when blank). The id is derived from the name on create. */
export const EntityInput = Type.Object({
  name: Type.String(),
  email_domain_allowed: Type.Optional(Type.String()),
});
export type EntityInput = Static<typeof EntityInput>;

export const EntityAdminsBody = Type.Object({ admins: Type.Array(Type.String(), { minItems: 1 }) });

// ── Customers ──────────────────────────────────────────────────────────────────────────────

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

// ── Users ──────────────────────────────────────────────────────────────────────────────────

export const RoleSchema = Type.Union(ROLES.map((r) => Type.Literal(r)));

/** A customer the user may access; entity_name null → shown as 'No Entity'. */
export const UserCustomer = Type.Object({
  id: Type.String(),
  name: Type.String(),
  entity: Type.Union([Type.String(), Type.Null()]),
  entity_name: Type.Union([Type.String(), Type.Null()]),
});

export const AdminUser = Type.Object({
  /** The e-mail (users are keyed by e-mail). */
  id: Type.String(),
  email: Type.String(),
  /** null: no user entry (an address only found in a customer's access list) → role text 'user not found'. */
  role: Type.Union([RoleSchema, Type.Null()]),
  email_verified: Type.Boolean(),
  /** Invited, password not set yet. */
  invitation_pending: Type.Boolean(),
  /** Distinct entity names of the user's customers (null entity → 'No Entity'), sorted. */
  entities: Type.Array(Type.String()),
  /** Customer Access, ordered by customer name. */
  customers: Type.Array(UserCustomer),
});
export type AdminUser = Static<typeof AdminUser>;

export const UserListQuery = Type.Object({
  /** 0-based page. */
  page: Type.Optional(Page()),
  page_size: Type.Optional(PageSize(500, 100)),
  /** Case-insensitive filter on e-mail, role, customer and entity names. */
  q: Type.Optional(Type.String()),
});
export type UserListQuery = Static<typeof UserListQuery>;

export const UserPage = Type.Object({
  users: Type.Array(AdminUser),
  total: Type.Integer(),
  page: Type.Integer(),
  page_size: Type.Integer(),
});
export type UserPage = Static<typeof UserPage>;

export const UserParams = Type.Object({ id: Type.String() });

/**
 * emails: the raw text of the e-mail box, several separated by commas (lower-cased and trimmed by the
 * server); customers: customer ids to grant (users list). New users get an invitation e-mail.
 */
export const InviteBody = Type.Object({
  role: Type.Optional(Type.String()),
  emails: Type.Optional(Type.String()),
  customers: Type.Optional(Type.Array(Type.String())),
});
export type InviteBody = Static<typeof InviteBody>;
export const InviteAnswer = Type.Object({ invited: Type.Array(AdminUser) });
export type InviteAnswer = Static<typeof InviteAnswer>;

/**
 * Replaces role, e-mail and customer access. Customers no longer granted: the user leaves their users,
 * notify and alert lists and loses their viewer filters there; newly granted customers: the user joins
 * `users`, and `notify` / `alert` when they were on that list of a customer they left (a move). A new e-mail
 * replaces the old one everywhere (lists, filters, entity admins).
 */
export const UserUpdate = Type.Object({
  role: Type.Optional(Type.String()),
  email: Type.Optional(Type.String()),
  customers: Type.Optional(Type.Array(Type.String())),
});
export type UserUpdate = Static<typeof UserUpdate>;

export const DeleteUsersBody = Type.Object({ users: Type.Array(Type.String(), { minItems: 1 }) });
/** deleted: how many users were removed (for '{n} user(s) deleted with success'). */
export const DeleteUsersAnswer = Type.Object({ deleted: Type.Integer() });
export type DeleteUsersAnswer = Static<typeof DeleteUsersAnswer>;

export const InvitationSent = Type.Object({ email: Type.String() });
export type InvitationSent = Static<typeof InvitationSent>;

/** Data of each `event: users` server-sent event: which users changed (ids), so lists refetch. */
export const UsersChangedEvent = Type.Object({
  type: Type.Union([Type.Literal('invited'), Type.Literal('updated'), Type.Literal('deleted'), Type.Literal('access')]),
  users: Type.Array(Type.String()),
});
export type UsersChangedEvent = Static<typeof UsersChangedEvent>;

// ── Invitations ────────────────────────────────────────────────────────────────────────────

export const InvitationParams = Type.Object({ token: Type.String({ minLength: 1, maxLength: 200 }) });
export const InvitationInfo = Type.Object({ email: Type.String() });
export type InvitationInfo = Static<typeof InvitationInfo>;
/** password: at least 6 characters ('Must have at least 6 characters'). */
export const InvitationAccept = Type.Object({ password: Type.String() });

export { Email };
