/**
 * Pages of the recommendation list, kept as the UTF-8 bytes of their `items` JSON per customer, filter, order, page
 * and recommendation version. A page's rows change only when the customer's recommendations or their claims (the
 * ticket key on a row) are written, and migrations 125 and 130 bump the version in the writer's transaction for
 * both, whoever writes; so a kept page is exact while its version stands. A viewer's projects are part of the filter
 * (recommendationFilterKey), read at every request as the route reads them: a changed viewer filter asks for another
 * entry. Under 10 connections the first page of 17,000 spent its time building the text in PostgreSQL, decoding it in
 * the driver and encoding it again for the socket (73 KB a page).
 */
import type { Pool, ReadPools } from '@cc/shared/db/pool.ts';
import {
  readAtRecommendationVersion,
  recommendationFilterKey,
  recommendationPageItemsJson,
  recommendationVersion,
  type RecommendationQuery,
} from '@cc/shared/db/inventory/recommendation-read.ts';
import { clampLimit, clampOffset } from '@cc/shared/db/inventory/paging.ts';
import { SnapshotCache } from './snapshot-cache.ts';

/** Pages kept across all customers and viewers: a page of 100 is ~75 KB, so at most ~20 MB. */
const MAX_ENTRIES = 256;

export class RecommendationPages {
  private readonly cache: SnapshotCache<Buffer>;

  /** `read`: where a page is made (the replica once it has the version just probed on `pool`, pool.ts). */
  constructor(
    pool: Pool,
    private readonly read: Pick<ReadPools, 'fresh'> = { fresh: (fn) => fn(pool) },
  ) {
    this.cache = new SnapshotCache(pool, MAX_ENTRIES, recommendationVersion);
  }

  /** The page's `items` as JSON bytes, as of the current version (`version`, if the request probed it already). */
  items(customerId: string, q: RecommendationQuery, version?: string): Promise<Buffer> {
    const page = [q.sort ?? 'project_id', q.desc ? 'desc' : 'asc', clampOffset(q.offset), clampLimit(q.limit)].join('\u0000');
    return this.cache.get(
      customerId,
      `${customerId}\u0000${recommendationFilterKey(q)}\u0000${page}`,
      async () => {
        const { version: at, value } = await this.read.fresh((db) => readAtRecommendationVersion(db, customerId, (tx) => recommendationPageItemsJson(tx, customerId, q)));
        return { version: at, value: Buffer.from(value) };
      },
      version,
    );
  }
}
