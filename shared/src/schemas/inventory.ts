/**
 * Wire shapes of the asset inventory (spec 000 §2 /inventory, §3 Inventory item and Recommendation; 001 §2.10, §3
 * Inventory graph and node detail, §7 visualize and node). Every route answers 403 'Inventory is disabled for this
 * customer' when the customer's inventory flag is off, except the sync status, which says so in `inventory`.
 */
import { Type, type Static } from '@sinclair/typebox';

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);

export const InventoryParams = Type.Object({ customer: Type.String() });
export const InventoryNodeParams = Type.Object({
  customer: Type.String(),
  /** The node id with every `/` written as `*` (spec 001 §7). */
  nodeId: Type.String({ minLength: 1 }),
});

const Paging = {
  offset: Type.Optional(Type.Integer({ minimum: 0, default: 0 })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 100 })),
  desc: Type.Optional(Type.Boolean({ default: false })),
  /** Case-insensitive substring (asset: its name; recommendation: description, name or targets). */
  search: Type.Optional(Type.String({ maxLength: 200 })),
  project_id: Type.Optional(Type.String()),
};

export const ASSET_SORT_KEYS = ['asset_name', 'asset_type', 'project_id', 'region'] as const;
export const RECOMMENDATION_SORT_KEYS = ['project_id', 'recommender_subtype', 'primary_impact_category', 'location', 'cost'] as const;

export const AssetListQuery = Type.Object({
  ...Paging,
  asset_type: Type.Optional(Type.String()),
  region: Type.Optional(Type.String()),
  violating: Type.Optional(Type.Boolean()),
  /** Default asset_name: the order the spec reads the collection in. */
  sort: Type.Optional(Type.Union(ASSET_SORT_KEYS.map((k) => Type.Literal(k)))),
});
export type AssetListQuery = Static<typeof AssetListQuery>;

export const RecommendationListQuery = Type.Object({
  ...Paging,
  primary_impact_category: Type.Optional(Type.String()),
  recommender_subtype: Type.Optional(Type.String()),
  state: Type.Optional(Type.String()),
  /** Default project_id: the order the spec reads the collection in. */
  sort: Type.Optional(Type.Union(RECOMMENDATION_SORT_KEYS.map((k) => Type.Literal(k)))),
});
export type RecommendationListQuery = Static<typeof RecommendationListQuery>;

export const InventoryItem = Type.Object({
  asset_name: Type.String(),
  asset_type: Type.String(),
  project_id: Type.String(),
  location: Nullable(Type.String()),
  region: Nullable(Type.String()),
  violation_rule: Nullable(Type.String()),
  display_name: Type.String(),
  update_time: Nullable(Type.String({ format: 'date-time' })),
});
export type InventoryItem = Static<typeof InventoryItem>;

export const AssetPage = Type.Object({ total: Type.Integer(), offset: Type.Integer(), limit: Type.Integer(), items: Type.Array(InventoryItem) });
export type AssetPage = Static<typeof AssetPage>;

export const RecommendationItem = Type.Object({
  name: Type.String(),
  state: Type.String(),
  recommender: Type.String(),
  recommender_subtype: Type.String(),
  primary_impact_category: Type.String(),
  /** Decimal text per cost_duration; negative is a saving. */
  cost: Nullable(Type.String()),
  currency: Nullable(Type.String()),
  cost_duration: Nullable(Type.String()),
  /** The cost scaled to 30 days (decimal text), so every row compares: the estimated monthly saving when negative. */
  monthly_cost: Nullable(Type.String()),
  description: Type.String(),
  priority: Type.String(),
  target_resources: Type.Array(Type.String()),
  location: Type.String(),
  project_id: Type.String(),
  last_refresh_time: Nullable(Type.String({ format: 'date-time' })),
  /** The support ticket that took it on. */
  ticket_key: Nullable(Type.String()),
});
export type RecommendationItem = Static<typeof RecommendationItem>;

export const RecommendationPage = Type.Object({
  total: Type.Integer(),
  offset: Type.Integer(),
  limit: Type.Integer(),
  items: Type.Array(RecommendationItem),
  /** Over every recommendation of the customer, in its billing currency, per 30 days, as positive decimal text. */
  savings: Type.Object({ currency: Type.String(), claimed: Type.String(), realised: Type.String() }),
});
export type RecommendationPage = Static<typeof RecommendationPage>;

export const GraphNode = Type.Object({ id: Type.String(), asset_name: Type.String(), level: Type.Integer(), module: Type.String(), img: Type.String() });
export const GraphLink = Type.Object({ source: Type.String(), target: Type.String() });
export const InventoryGraph = Type.Object({ nodes: Type.Array(GraphNode), links: Type.Array(GraphLink) });
export type InventoryGraph = Static<typeof InventoryGraph>;
export type GraphNode = Static<typeof GraphNode>;

/** Node detail (spec 001 §3): data is the asset's resource data as JSON text. */
export const InventoryNode = Type.Object({ name: Type.String(), asset_type: Type.String(), location: Nullable(Type.String()), data: Type.String() });
export type InventoryNode = Static<typeof InventoryNode>;

export const AssetChange = Type.Object({
  change: Type.Union([Type.Literal('added'), Type.Literal('removed'), Type.Literal('changed')]),
  changed_fields: Type.Array(Type.String()),
  changed_at: Type.String({ format: 'date-time' }),
});
export const AssetHistory = Type.Object({ asset_name: Type.String(), changes: Type.Array(AssetChange) });
export type AssetHistory = Static<typeof AssetHistory>;

const SyncRun = Type.Object({
  status: Type.Union([Type.Literal('running'), Type.Literal('succeeded'), Type.Literal('failed')]),
  started_at: Type.String({ format: 'date-time' }),
  finished_at: Nullable(Type.String({ format: 'date-time' })),
  asset_count: Nullable(Type.Integer()),
  recommendation_count: Nullable(Type.Integer()),
  added: Nullable(Type.Integer()),
  removed: Nullable(Type.Integer()),
  changed: Nullable(Type.Integer()),
  error: Nullable(Type.String()),
});

export const InventorySyncStatus = Type.Object({
  /** The customer's inventory flag. */
  inventory: Type.Boolean(),
  /** The latest run of any outcome, and the latest successful one (what the tables show). */
  last_run: Nullable(SyncRun),
  last_success: Nullable(SyncRun),
  /** When the nightly sync runs next (ISO date-time). */
  next_run_at: Type.String({ format: 'date-time' }),
});
export type InventorySyncStatus = Static<typeof InventorySyncStatus>;

export const InventorySyncStarted = Type.Object({ job_id: Type.String() });
