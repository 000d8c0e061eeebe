/**
 * The asset list's totals, kept per customer, filter and snapshot version. Counting the matches
 * read every one of a customer's assets on every page (100,000 assets: ~80 ms p50 under 10 connections for the first
 * page), though the assets only change when a sync replaces the snapshot. A page now costs one index probe (the
 * version) besides its own rows, and a filter's count is made once per snapshot (snapshot-cache.ts).
 * Recommendations are not kept: taking one on changes its state outside a sync.
 */
import type { Pool, ReadPools } from '@cc/shared/db/pool.ts';
import { assetFilterKey, countInventoryAssets, type AssetQuery } from '@cc/shared/db/inventory/asset-read.ts';
import { countInSnapshot } from '@cc/shared/db/inventory/snapshot-read.ts';
import { SnapshotCache } from './snapshot-cache.ts';

/** Filters kept across all customers (an entry is a few dozen bytes). */
const MAX_ENTRIES = 2000;

export class AssetTotals {
  private readonly cache: SnapshotCache<number>;

  /** `read`: where a count is made (the replica once it has the version just probed on `pool`, pool.ts). */
  constructor(
    pool: Pool,
    private readonly read: Pick<ReadPools, 'fresh'> = { fresh: (fn) => fn(pool) },
  ) {
    this.cache = new SnapshotCache(pool, MAX_ENTRIES);
  }

  /** How many of the customer's assets match the filters of `q`, as of the current snapshot (`version`, if probed already). */
  total(customerId: string, q: AssetQuery, version?: string): Promise<number> {
    return this.cache.get(
      customerId,
      `${customerId}\u0000${assetFilterKey(q)}`,
      async () => {
        const counted = await this.read.fresh((db) => countInSnapshot(db, customerId, (tx) => countInventoryAssets(tx, customerId, q)));
        return { version: counted.version, value: counted.total };
      },
      version,
    );
  }
}
