/**
 * Recommender v1 with the official client: list recommendations per project × location × recommender, and the
 * markClaimed / markSucceeded state changes. Reads are scarce (without a paid support package: 100 a day per
 * organisation, then 429 RESOURCE_EXHAUSTED), so a scan plan reads only locations where the customer's assets
 * are, and the caller keeps what each list call answered.
 * Docs: https://cloud.google.com/recommender/docs/reference/rest/v1/projects.locations.recommenders.recommendations
 */
import { RecommenderClient } from '@google-cloud/recommender';
import type { ImpactCategory, InventoryAsset, MarkedRecommendation, Recommendation, RecommendationState } from '../../ports/inventory.ts';
import {
  allPages, clientOptions, durationToString, moneyToDecimal, protoValueToJson, structToJson, timestampToIso, withBackoff,
  type Backoff, type GoogleAuthClient, type GoogleEndpoint,
} from './google.ts';

/** The recommenders read, and the assets whose locations they live in (null: the project-wide `global`). */
export const RECOMMENDERS: { id: string; assetType: string | null }[] = [
  { id: 'google.compute.instance.IdleResourceRecommender', assetType: 'compute.googleapis.com/Instance' },
  { id: 'google.compute.instance.MachineTypeRecommender', assetType: 'compute.googleapis.com/Instance' },
  { id: 'google.compute.disk.IdleResourceRecommender', assetType: 'compute.googleapis.com/Disk' },
  { id: 'google.iam.policy.Recommender', assetType: null },
];

export interface ScanTarget {
  projectId: string;
  /** `projects/{id}/locations/{location}/recommenders/{recommender}`. */
  parent: string;
}

/** One list call per recommender × location that holds its kind of asset × project; sorted, no duplicates. */
export function scanPlan(projectIds: string[], assets: InventoryAsset[]): ScanTarget[] {
  const parents = new Map<string, ScanTarget>();
  const add = (projectId: string, location: string, recommender: string) => {
    const parent = `projects/${projectId}/locations/${location}/recommenders/${recommender}`;
    parents.set(parent, { projectId, parent });
  };
  for (const projectId of projectIds) {
    for (const r of RECOMMENDERS) if (r.assetType === null) add(projectId, 'global', r.id);
  }
  const projects = new Set(projectIds);
  for (const a of assets) {
    if (!projects.has(a.project_id) || !a.location) continue;
    for (const r of RECOMMENDERS) if (r.assetType === a.asset_type) add(a.project_id, a.location, r.id);
  }
  return [...parents.values()].sort((a, b) => (a.parent < b.parent ? -1 : 1));
}

const PAGE_SIZE = 500;
const MAX_PAGES = 100;

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {});
const list = (v: unknown): Obj[] => (Array.isArray(v) ? v.map(obj) : []);

/** Operation values and path filters are protobuf Values: plain JSON for storage and tickets. */
function contentToJson(content: unknown): Obj {
  const c = obj(content);
  return {
    overview: structToJson(c.overview),
    operationGroups: list(c.operationGroups).map((g) => ({
      operations: list(g.operations).map((op) => ({
        action: op.action,
        resourceType: op.resourceType,
        resource: op.resource,
        path: op.path,
        ...(op.sourceResource ? { sourceResource: op.sourceResource, sourcePath: op.sourcePath } : {}),
        ...(op.value ? { value: protoValueToJson(op.value) } : {}),
        ...(Object.keys(obj(op.pathFilters)).length
          ? { pathFilters: Object.fromEntries(Object.entries(obj(op.pathFilters)).map(([k, v]) => [k, protoValueToJson(v)])) }
          : {}),
      })),
    })),
  };
}

const enumName = <T extends string>(v: unknown, names: readonly T[], fallback: T): T => {
  if (typeof v === 'number') return names[v] ?? fallback;
  return names.includes(v as T) ? (v as T) : fallback;
};
const STATES = ['STATE_UNSPECIFIED', 'ACTIVE', 'CLAIMED', 'SUCCEEDED', 'FAILED', 'DISMISSED'] as const;
// Recommender's enum numbers: ACTIVE 1, CLAIMED 6, SUCCEEDED 3, FAILED 4, DISMISSED 5 (google.cloud.recommender.v1.RecommendationStateInfo.State).
const STATE_BY_NUMBER: RecommendationState[] = ['STATE_UNSPECIFIED', 'ACTIVE', 'STATE_UNSPECIFIED', 'SUCCEEDED', 'FAILED', 'DISMISSED', 'CLAIMED'];
const CATEGORIES = ['CATEGORY_UNSPECIFIED', 'COST', 'SECURITY', 'PERFORMANCE', 'MANAGEABILITY', 'SUSTAINABILITY', 'RELIABILITY'] as const;
// The enum numbers run backwards: P4 = 1 … P1 = 4.
const PRIORITIES = ['PRIORITY_UNSPECIFIED', 'P4', 'P3', 'P2', 'P1'];

function stateOf(v: unknown): RecommendationState {
  return typeof v === 'number' ? (STATE_BY_NUMBER[v] ?? 'STATE_UNSPECIFIED') : enumName(v, STATES, 'STATE_UNSPECIFIED');
}

/**
 * `targetResources` is in the REST answer but not in the client's v1 proto, which drops it: the resources the
 * operations act on say the same (`test` operations only check a precondition on them).
 */
function targetsOf(raw: Obj): string[] {
  if (Array.isArray(raw.targetResources) && raw.targetResources.length) return raw.targetResources.map(String);
  const content = obj(raw.content);
  const fromOps = list(content.operationGroups).flatMap((g) => list(g.operations).map((op) => String(op.resource ?? '')));
  const overview = structToJson(content.overview).resourceName;
  const all = [...fromOps, typeof overview === 'string' ? overview : ''].filter(Boolean);
  return [...new Set(all)];
}

function toRecommendation(target: ScanTarget, raw: Obj): Recommendation {
  const impact = obj(raw.primaryImpact);
  const projection = obj(impact.costProjection);
  const money = projection.cost ? obj(projection.cost) : null;
  const name = String(raw.name ?? '');
  return {
    name,
    etag: String(raw.etag ?? ''),
    state: stateOf(obj(raw.stateInfo).state),
    recommender: target.parent.split('/recommenders/')[1]!,
    recommender_subtype: String(raw.recommenderSubtype ?? ''),
    primary_impact_category: enumName(impact.category, CATEGORIES, 'CATEGORY_UNSPECIFIED') as ImpactCategory,
    cost: money ? moneyToDecimal(money.units, money.nanos) : null,
    currency: money ? String(money.currencyCode ?? '') || null : null,
    cost_duration: money ? durationToString(projection.duration) : null,
    description: String(raw.description ?? ''),
    priority: typeof raw.priority === 'number' ? (PRIORITIES[raw.priority] ?? 'PRIORITY_UNSPECIFIED') : String(raw.priority ?? 'PRIORITY_UNSPECIFIED'),
    target_resources: targetsOf(raw),
    location: /\/locations\/([^/]+)\//.exec(name)?.[1] ?? target.parent.split('/')[3]!,
    project_id: target.projectId,
    last_refresh_time: timestampToIso(raw.lastRefreshTime),
    content: contentToJson(raw.content),
  };
}

export interface RecommenderClientLike {
  list(target: ScanTarget): Promise<Recommendation[]>;
  markClaimed(name: string, etag: string, stateMetadata: Record<string, string>): Promise<MarkedRecommendation>;
  markSucceeded(name: string, etag: string, stateMetadata: Record<string, string>): Promise<MarkedRecommendation>;
  markFailed(name: string, etag: string, stateMetadata: Record<string, string>): Promise<MarkedRecommendation>;
  close(): Promise<void>;
}

type Verb = 'markClaimed' | 'markSucceeded' | 'markFailed';
const TARGET_STATE: Record<Verb, RecommendationState> = { markClaimed: 'CLAIMED', markSucceeded: 'SUCCEEDED', markFailed: 'FAILED' };

/**
 * A state change refused because the etag is stale (someone, or Google's own refresh, changed the recommendation
 * since it was read). Google answers FAILED_PRECONDITION (gRPC 9; over REST a 400 or 412 naming that status);
 * the document does not say more.
 */
function isStaleEtag(err: unknown): boolean {
  const e = (err ?? {}) as { code?: unknown; message?: unknown };
  return e.code === 9 || e.code === 412 || (typeof e.message === 'string' && /FAILED_PRECONDITION/.test(e.message));
}

export function recommenderReader(authClient: GoogleAuthClient, opts: { endpoint?: GoogleEndpoint; backoff: Backoff }): RecommenderClientLike {
  const client = new RecommenderClient(clientOptions(authClient, opts.endpoint));
  const marked = (r: Obj): MarkedRecommendation => ({ name: String(r.name ?? ''), etag: String(r.etag ?? ''), state: stateOf(obj(r.stateInfo).state) });

  const send = async (verb: Verb, name: string, etag: string, stateMetadata: Record<string, string>) => {
    const request = { name, etag, stateMetadata };
    const [r] = await withBackoff(`Recommender ${verb} ${name}`, { ...opts.backoff, retries: 0 }, () =>
      verb === 'markClaimed'
        ? client.markRecommendationClaimed(request)
        : verb === 'markSucceeded'
          ? client.markRecommendationSucceeded(request)
          : client.markRecommendationFailed(request),
    );
    return marked(r as Obj);
  };

  /**
   * A stale etag is re-read (recommendations.get) and the change sent once more with the fresh one; a
   * recommendation already in the wanted state (our own earlier change whose answer was lost) needs no second one.
   */
  const mark = async (verb: Verb, name: string, etag: string, stateMetadata: Record<string, string>) => {
    try {
      return await send(verb, name, etag, stateMetadata);
    } catch (err) {
      if (!isStaleEtag(err) && !isStaleEtag((err as { cause?: unknown }).cause)) throw err;
      const [fresh] = await withBackoff(`Recommender get ${name}`, opts.backoff, () => client.getRecommendation({ name }));
      const now = marked(fresh as Obj);
      if (now.state === TARGET_STATE[verb]) return now;
      return send(verb, name, now.etag, stateMetadata);
    }
  };

  return {
    async list(target) {
      const what = `Recommender list ${target.parent}`;
      return allPages(what, MAX_PAGES, async (pageToken) => {
        const [items, , raw] = await withBackoff(what, opts.backoff, () =>
          client.listRecommendations({ parent: target.parent, pageSize: PAGE_SIZE, pageToken }, { autoPaginate: false }),
        );
        return { items: (items as Obj[]).map((r) => toRecommendation(target, r)), nextPageToken: raw?.nextPageToken };
      });
    },
    // State changes are not retried on quota: a lost answer must not send the change twice.
    markClaimed: (name, etag, stateMetadata) => mark('markClaimed', name, etag, stateMetadata),
    markSucceeded: (name, etag, stateMetadata) => mark('markSucceeded', name, etag, stateMetadata),
    markFailed: (name, etag, stateMetadata) => mark('markFailed', name, etag, stateMetadata),
    close: () => client.close(),
  };
}
