/**
 * The provider's own console: the operations inbox and the spend of every customer (admins only; routes in
 * api/src/routes/operations/).
 *
 * | method | path                                 | permission | tenant |
 * |--------|--------------------------------------|------------|--------|
 * | GET    | /v1/operations/inbox                 | admin      | none   |
 * | POST   | /v1/operations/inbox/anomalies-seen  | admin      | none   |
 * | GET    | /v1/operations/spend                 | admin      | none   |
 *
 * Both lists span every customer, so they name none: `for_customer` filters the inbox (the route registry keeps
 * `customer` for routes admitting one customer).
 */
import { Type, type Static } from '@sinclair/typebox';

/** What the inbox lists, one kind per thing a person must look at. */
export const INBOX_KINDS = [
  'project_request_pending',
  'provisioning_failed',
  'license_order_pending',
  'license_order_failed',
  'billing_ingest_failed',
  'billing_data_stale',
  'sync_failing',
  'anomalies_found',
  'alert_over_quota',
  'ticket_first_response_overdue',
  'channel_delivery_failed',
] as const;
export type InboxKind = (typeof INBOX_KINDS)[number];

/** How the screen names each kind (its filter and its counts). */
export const INBOX_KIND_LABELS: Record<InboxKind, string> = {
  project_request_pending: 'Project requests awaiting approval',
  provisioning_failed: 'Provisioning failed',
  license_order_pending: 'License orders pending',
  license_order_failed: 'License orders failed',
  billing_ingest_failed: 'Billing ingests failed',
  billing_data_stale: 'Stale billing data',
  sync_failing: 'Sync jobs failing',
  anomalies_found: 'New anomalies',
  alert_over_quota: 'Alerts over quota',
  ticket_first_response_overdue: 'Tickets awaiting a first response',
  channel_delivery_failed: 'Channel deliveries failed',
};

export const InboxQuery = Type.Object({
  kind: Type.Optional(Type.Union(INBOX_KINDS.map((k) => Type.Literal(k)))),
  for_customer: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  offset: Type.Integer({ minimum: 0, maximum: 100_000, default: 0 }),
  limit: Type.Integer({ minimum: 1, maximum: 200, default: 50 }),
});
export type InboxQuery = Static<typeof InboxQuery>;

/** A project request an item can decide in place (the provisioning screen's confirmation lists these fields). */
const ProjectRequestRef = Type.Object({ id: Type.String(), project_name: Type.String(), folder_name: Type.String(), state: Type.String() });
/** A license order an item can decide in place (the decision route names the customer by its domain). */
const LicenseOrderRef = Type.Object({
  order_id: Type.String(),
  domain: Type.String(),
  sku_name: Type.String(),
  order_amount: Type.Integer(),
  order_by: Type.String(),
  status: Type.String(),
});

export const InboxItem = Type.Object({
  /** Stable while the item stays open: kind and what it is about. */
  id: Type.String(),
  kind: Type.Union(INBOX_KINDS.map((k) => Type.Literal(k))),
  /** 1 acts now (failures, P1 tickets), 2 waits for a decision, 3 to look at; the list is sorted by it, then newest. */
  urgency: Type.Integer({ minimum: 1, maximum: 3 }),
  /** null: about every customer (a nightly job run for all). */
  customer_id: Type.Union([Type.String(), Type.Null()]),
  customer_name: Type.Union([Type.String(), Type.Null()]),
  what: Type.String(),
  detail: Type.Union([Type.String(), Type.Null()]),
  /** ISO 8601 instant since when it waits. */
  since: Type.String(),
  /** The web path that shows it (opened with the item's customer selected); null when none does. */
  link: Type.Union([Type.String(), Type.Null()]),
  project_request: Type.Optional(ProjectRequestRef),
  license_order: Type.Optional(LicenseOrderRef),
});
export type InboxItem = Static<typeof InboxItem>;

export const InboxAnswer = Type.Object({
  items: Type.Array(InboxItem),
  /** Items matching the filters (all pages). */
  total: Type.Integer(),
  /** Open items per kind across the customer filter (every kind, whatever `kind` asks). */
  counts: Type.Record(Type.String(), Type.Integer()),
  /** When this admin last marked the anomalies seen; null: never (the last 7 days count as new). */
  anomalies_seen_at: Type.Union([Type.String(), Type.Null()]),
});
export type InboxAnswer = Static<typeof InboxAnswer>;

export const AnomaliesSeenAnswer = Type.Object({ anomalies_seen_at: Type.String() });

export const SpendRow = Type.Object({
  customer_id: Type.String(),
  customer_name: Type.String(),
  /** The customer's billing currency: the row's own figures are in it (as its billing dashboard). */
  currency: Type.String(),
  billing_account_id: Type.Union([Type.String(), Type.Null()]),
  /** Decimal text, 2 places; the first of the month up to yesterday (US/Pacific), as the dashboard's month to date. */
  month_to_date: Type.String(),
  forecast: Type.String(),
  /** Last month from its first day to the same day of the month as yesterday. */
  last_month_same_day: Type.String(),
  /** Month to date against last month at the same day, in percent (1 decimal); null when last month had nothing. */
  change_percent: Type.Union([Type.String(), Type.Null()]),
  /** In PROVIDER_CURRENCY, each day's figure converted at that day's rate; null when a day has no rate. */
  provider_month_to_date: Type.Union([Type.String(), Type.Null()]),
  provider_forecast: Type.Union([Type.String(), Type.Null()]),
  open_anomalies: Type.Integer(),
  alerts_over_quota: Type.Integer(),
  /** Latest usage day with spend on the billing account; null without data. */
  last_usage_date: Type.Union([Type.String(), Type.Null()]),
});
export type SpendRow = Static<typeof SpendRow>;

export const SpendAnswer = Type.Object({
  today: Type.String(),
  provider_currency: Type.String(),
  rows: Type.Array(SpendRow),
  /** Sums of the provider-currency columns over the rows that have them. */
  total: Type.Object({ month_to_date: Type.String(), forecast: Type.String() }),
  /** Customers left out of the total because a day of theirs has no rate into the provider currency. */
  unconverted: Type.Array(Type.String()),
});
export type SpendAnswer = Static<typeof SpendAnswer>;
