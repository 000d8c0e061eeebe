/** Wire schemas of the Workspace license routes (spec 001 §7), the Workspace subscriptions a license is created for among them. */
import { Type, type Static } from '@sinclair/typebox';
import { Limit, Offset } from './common.ts';

const ISO_DATE = '^\\d{4}-\\d{2}-\\d{2}$';

export const DomainParams = Type.Object({ domain: Type.String({ minLength: 1, maxLength: 253 }) });
export const LicenseParams = Type.Object({ domain: Type.String({ minLength: 1, maxLength: 253 }), sku_id: Type.String({ minLength: 1, maxLength: 40 }) });
export const CustomerParams = Type.Object({ customer: Type.String({ minLength: 1 }) });

export const License = Type.Object({
  sku_name: Type.String(),
  sku_id: Type.String(),
  volume_total: Type.Integer(),
  volume_available: Type.Integer(),
  threshold: Type.Integer(),
  new_order: Type.Integer(),
  auto_order: Type.Boolean(),
  synced_at: Type.Union([Type.String(), Type.Null()]),
});
export type License = Static<typeof License>;
export const LicenseList = Type.Array(License);

// Numbers arrive as JSON numbers or form text; the rules (shared/src/licenses/rules.ts) answer the spec's messages.
export const LicenseCreateBody = Type.Object({
  sku_id: Type.Optional(Type.Unknown()),
  threshold: Type.Optional(Type.Unknown()),
  auto_order: Type.Optional(Type.Boolean()),
  new_order: Type.Optional(Type.Unknown()),
});
export const LicenseUpdateBody = Type.Object({
  auto_order: Type.Boolean(),
  threshold: Type.Unknown(),
  new_order: Type.Optional(Type.Unknown()),
});

export const LicenseOrder = Type.Object({
  order_id: Type.String(),
  customer_id: Type.String(),
  sku_id: Type.String(),
  sku_name: Type.String(),
  order_amount: Type.Integer(),
  order_by: Type.String(),
  comment: Type.String(),
  status: Type.String(),
  order_time: Type.String(),
  auto: Type.Boolean(),
  decided_by: Type.Union([Type.String(), Type.Null()]),
  decided_at: Type.Union([Type.String(), Type.Null()]),
  error: Type.Union([Type.String(), Type.Null()]),
});
export type LicenseOrder = Static<typeof LicenseOrder>;
export const LicenseOrderList = Type.Array(LicenseOrder);

/** Spec: license fields plus order_amount, comment, customer_id, order_by (order_by is the caller, whatever is sent). */
export const OrderCreateBody = Type.Object({
  sku_id: Type.Union([Type.String({ minLength: 1, maxLength: 40 }), Type.Integer()]),
  order_amount: Type.Optional(Type.Unknown()),
  comment: Type.Optional(Type.String({ maxLength: 1000 })),
  customer_id: Type.String({ minLength: 1 }),
  order_by: Type.Optional(Type.String()),
});
export const OrderDecisionParams = Type.Object({
  domain: Type.String({ minLength: 1, maxLength: 253 }),
  order_id: Type.String({ format: 'uuid' }),
  approve: Type.Union([Type.Literal('true'), Type.Literal('false')]),
});

/** The orders and history lists answer one page, newest first; X-Total-Count holds the count of the whole list. */
export const LICENSE_LIST_LIMIT = { default: 100, max: 500 } as const;
export const DayRangePageQuery = Type.Object({
  start_date: Type.Optional(Type.String({ pattern: ISO_DATE })),
  end_date: Type.Optional(Type.String({ pattern: ISO_DATE })),
  offset: Type.Optional(Offset()),
  limit: Type.Optional(Limit(LICENSE_LIST_LIMIT.max, LICENSE_LIST_LIMIT.default)),
});
export const HistoryParams = Type.Object({
  domain: Type.String({ minLength: 1, maxLength: 253 }),
  with_orders: Type.Union([Type.Literal('true'), Type.Literal('false')]),
});
export const HistoryRecord = Type.Object({
  id: Type.String(),
  sku_id: Type.String(),
  sku_name: Type.String(),
  kind: Type.String(),
  changed_by: Type.String(),
  date: Type.String(),
  updates: Type.Array(
    Type.Object({
      field: Type.String(),
      from: Type.Unknown(),
      to: Type.Unknown(),
      order_id: Type.Optional(Type.String()),
      order_amount: Type.Optional(Type.Integer()),
    }),
  ),
});
export type HistoryRecord = Static<typeof HistoryRecord>;
export const HistoryList = Type.Array(HistoryRecord);

/** A domain's Workspace subscription: a SKU a license can be created for (Create License's choice). */
export const WorkspaceSubscription = Type.Object({
  sku_id: Type.String(),
  sku_name: Type.String(),
  plan: Type.String(),
  /** Seats paid for, and those not assigned to a user: a license's volume_total and volume_available. */
  volume_total: Type.Integer(),
  volume_available: Type.Integer(),
  /** A license for this SKU exists already (creating another answers 409). */
  licensed: Type.Boolean(),
});
export type WorkspaceSubscription = Static<typeof WorkspaceSubscription>;
export const WorkspaceSubscriptionList = Type.Array(WorkspaceSubscription);
