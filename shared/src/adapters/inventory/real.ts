/**
 * Real inventory source: Cloud Asset Inventory and Recommender, read as the customer's service account, over the
 * projects that account was granted (the CloudProjects port). Each Recommender list answer is kept in a scan cache
 * for `maxScanAgeMs`, so a sync inside that window costs no Recommender read, and a sync that failed half-way
 * re-reads only what it had not got yet.
 */
import type { CloudProjects } from '../../ports/cloud-projects.ts';
import type { InventoryAsset, InventoryScope, InventorySource, MarkRecommendation, Recommendation } from '../../ports/inventory.ts';
import type { Queryable } from '../../db/pool.ts';
import { forgetRecommenderScan, freshRecommenderScans, saveRecommenderScan } from '../../db/inventory/claims.ts';
import { cloudAssetReader } from './cloud-asset.ts';
import { recommenderReader, scanPlan } from './recommender.ts';
import { DEFAULT_BACKOFF, type Backoff, type GoogleAuthClient, type GoogleEndpoint } from './google.ts';

/** What Recommender answered per list call (`parent`), kept between syncs. */
export interface RecommenderScanCache {
  fresh(customerId: string, parents: string[]): Promise<Map<string, Recommendation[]>>;
  save(customerId: string, parent: string, recommendations: Recommendation[]): Promise<void>;
  /** After a state change the cached answer holding it is stale. */
  forget(customerId: string, recommendationName: string): Promise<void>;
}

/** Recommender refreshes once a day: a daily sync reads afresh, anything more often reuses the answer. */
export const DEFAULT_MAX_SCAN_AGE_MS = 23 * 3600_000;

export function dbScanCache(db: Queryable, maxScanAgeMs = DEFAULT_MAX_SCAN_AGE_MS): RecommenderScanCache {
  return {
    fresh: (customerId, parents) => freshRecommenderScans(db, customerId, parents, maxScanAgeMs),
    save: (customerId, parent, recs) => saveRecommenderScan(db, customerId, parent, recs),
    forget: (customerId, name) => forgetRecommenderScan(db, customerId, name),
  };
}

export interface RealInventoryOptions {
  projects: CloudProjects;
  /** Credentials acting as the customer's service account. */
  authFor: (serviceAccountEmail: string) => GoogleAuthClient;
  cache: RecommenderScanCache;
  assetEndpoint?: GoogleEndpoint;
  recommenderEndpoint?: GoogleEndpoint;
  backoff?: Backoff;
  /** Page size of assets.list (≤ 1000). */
  assetPageSize?: number;
}

export function realInventorySource(opts: RealInventoryOptions): InventorySource {
  const backoff = opts.backoff ?? DEFAULT_BACKOFF;
  const projectsOf = async (scope: InventoryScope) =>
    (await opts.projects.grantedProjects({ customer_id: scope.customerId, service_account_email: scope.serviceAccountEmail })).map((p) => p.project_id);

  async function withRecommender<T>(serviceAccountEmail: string, fn: (r: ReturnType<typeof recommenderReader>) => Promise<T>): Promise<T> {
    const reader = recommenderReader(opts.authFor(serviceAccountEmail), { endpoint: opts.recommenderEndpoint, backoff });
    try {
      return await fn(reader);
    } finally {
      await reader.close();
    }
  }

  async function mark(req: MarkRecommendation, how: 'markClaimed' | 'markSucceeded' | 'markFailed') {
    const result = await withRecommender(req.serviceAccountEmail, (r) => r[how](req.name, req.etag, req.stateMetadata));
    await opts.cache.forget(req.customerId, req.name);
    return result;
  }

  return {
    kind: 'real',
    async listAssets(scope) {
      const reader = cloudAssetReader(opts.authFor(scope.serviceAccountEmail), { endpoint: opts.assetEndpoint, backoff, pageSize: opts.assetPageSize });
      try {
        const assets: InventoryAsset[] = [];
        // One project after the other: assets.list allows 100 calls a minute per consumer project.
        for (const projectId of await projectsOf(scope)) assets.push(...(await reader.listProjectAssets(projectId)));
        return assets;
      } finally {
        await reader.close();
      }
    },
    async listRecommendations(scope, assets) {
      const plan = scanPlan(await projectsOf(scope), assets);
      const cached = await opts.cache.fresh(scope.customerId, plan.map((t) => t.parent));
      const missing = plan.filter((t) => !cached.has(t.parent));
      if (missing.length) {
        await withRecommender(scope.serviceAccountEmail, async (r) => {
          for (const target of missing) {
            const recs = await r.list(target);
            // Saved at once: if a later call runs out of quota, the next sync starts where this one stopped.
            await opts.cache.save(scope.customerId, target.parent, recs);
            cached.set(target.parent, recs);
          }
        });
      }
      return plan.flatMap((t) => cached.get(t.parent) ?? []);
    },
    markClaimed: (req) => mark(req, 'markClaimed'),
    markSucceeded: (req) => mark(req, 'markSucceeded'),
    markFailed: (req) => mark(req, 'markFailed'),
  };
}
