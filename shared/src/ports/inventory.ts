/**
 * Port for a customer's cloud inventory: the assets of its GCP projects (Cloud Asset Inventory) and the
 * recommendations on them (Recommender), plus the two state changes the product sends back when a support
 * ticket takes a recommendation on (spec 000 §2 /inventory, §3 Inventory item and Recommendation).
 * `local` builds a deterministic estate from the customer's billing projects; `real` calls Google.
 */

/**
 * What one sync reads. Which projects belong to the customer is the adapter's business: the real one scans the
 * projects its service account was granted, the local one those in the customer's billing data.
 */
export interface InventoryScope {
  customerId: string;
  /** The customer's service account: the real adapter reads as this account. */
  serviceAccountEmail: string;
  /** ISO 4217 code the local adapter prices its recommendations in (real ones carry their own). */
  currency: string;
}

/** One asset as Cloud Asset Inventory names it (`contentType=RESOURCE`). */
export interface InventoryAsset {
  /** Full resource name, e.g. `//compute.googleapis.com/projects/p/zones/europe-west1-b/instances/vm1`. */
  asset_name: string;
  /** e.g. `compute.googleapis.com/Instance`. */
  asset_type: string;
  /** The project id of the scope it was read in (not the project number of `ancestors`). */
  project_id: string;
  /** Zone, region, multi-region or `global`; null when the resource has none. */
  location: string | null;
  /** Short human name (the resource's `name` field, else the last path segment). */
  display_name: string;
  /** Full resource name of the direct parent (`resource.parent`), e.g. `//cloudresourcemanager.googleapis.com/projects/123`. */
  parent: string | null;
  /** Nearest first: `['projects/123', 'folders/45', 'organizations/1']`. */
  ancestors: string[];
  /** RFC 3339, when the upstream changed it last. */
  update_time: string | null;
  /** The resource's own fields (`resource.data`). */
  data: Record<string, unknown>;
}

export type RecommendationState = 'STATE_UNSPECIFIED' | 'ACTIVE' | 'CLAIMED' | 'SUCCEEDED' | 'FAILED' | 'DISMISSED';
export type ImpactCategory = 'CATEGORY_UNSPECIFIED' | 'COST' | 'SECURITY' | 'PERFORMANCE' | 'MANAGEABILITY' | 'SUSTAINABILITY' | 'RELIABILITY';

export interface Recommendation {
  /** `projects/{number}/locations/{loc}/recommenders/{recommender}/recommendations/{id}`. */
  name: string;
  /** Required by markClaimed / markSucceeded / markFailed: a stale one is refused upstream (then re-read once). */
  etag: string;
  state: RecommendationState;
  /** e.g. `google.compute.instance.MachineTypeRecommender`. */
  recommender: string;
  /** e.g. `CHANGE_MACHINE_TYPE`. */
  recommender_subtype: string;
  primary_impact_category: ImpactCategory;
  /** Decimal string per `cost_duration`; negative is a saving. Null when the impact is not a cost. */
  cost: string | null;
  currency: string | null;
  /** e.g. `2592000s` (30 days). */
  cost_duration: string | null;
  description: string;
  priority: string;
  target_resources: string[];
  location: string;
  project_id: string;
  last_refresh_time: string | null;
  /** The recommendation's `content` (overview and operation groups), kept for the detail view and the ticket. */
  content: Record<string, unknown>;
}

/** A recommendation state change; `stateMetadata` carries the ticket key (keys `^[a-z0-9][a-z0-9_.-]{0,62}$`). */
export interface MarkRecommendation extends InventoryScope {
  name: string;
  etag: string;
  stateMetadata: Record<string, string>;
}

export interface MarkedRecommendation {
  name: string;
  etag: string;
  state: RecommendationState;
}

/** The upstream refused or failed; `retryable` is true for quota (429) and unavailability. */
export class InventorySourceError extends Error {
  constructor(
    message: string,
    readonly retryable = false,
  ) {
    super(message);
    this.name = 'InventorySourceError';
  }
}

export interface InventorySource {
  readonly kind: 'local' | 'real';
  /** Every asset of the customer's projects; fails whole rather than answer with a partial estate. */
  listAssets(scope: InventoryScope): Promise<InventoryAsset[]>;
  /**
   * Every recommendation on the customer's projects. `assets` (from listAssets of the same sync) tells which
   * locations can hold any, so a real adapter scans only those.
   */
  listRecommendations(scope: InventoryScope, assets: InventoryAsset[]): Promise<Recommendation[]>;
  /** ACTIVE → CLAIMED; answers the new state and etag. */
  markClaimed(req: MarkRecommendation): Promise<MarkedRecommendation>;
  /** ACTIVE or CLAIMED → SUCCEEDED; answers the new state and etag. */
  markSucceeded(req: MarkRecommendation): Promise<MarkedRecommendation>;
  /** ACTIVE, CLAIMED, SUCCEEDED or FAILED → FAILED (the ticket that took it on ended without resolving it). */
  markFailed(req: MarkRecommendation): Promise<MarkedRecommendation>;
}
