/**
 * Values derived from a customer's inventory snapshot (the graph, the asset list's totals), kept per key and
 * snapshot version. A sync's replaceSnapshot is the only writer of the snapshot, and the version
 * (`snapshotVersion`) changes with each one, so a kept value is exact while its version is current: a request
 * costs one index probe of the version. A new version is made once, however many requests ask for it at the same
 * moment; a failed make is not kept. Each api process keeps its own; the least recently asked for goes first.
 */
import type { Pool } from '@cc/shared/db/pool.ts';
import { snapshotVersion } from '@cc/shared/db/inventory/snapshot-read.ts';

interface Entry<T> {
  version: string;
  /** A promise while it is being made. */
  value: Promise<T>;
}

export class SnapshotCache<T> {
  private readonly entries = new Map<string, Entry<T>>();

  /** `version`: what the kept values follow; the snapshot's by default. */
  constructor(
    private readonly pool: Pool,
    private readonly maxEntries: number,
    private readonly version: (db: Pool, customerId: string) => Promise<string> = snapshotVersion,
  ) {}

  /**
   * The value under `key` as of the customer's current snapshot. `make` reads it together with the version it
   * belongs to, in one read snapshot, so the pair always agrees. `current`: the version this request already probed
   * (one probe serves every kept value a request reads).
   */
  async get(customerId: string, key: string, make: () => Promise<{ version: string; value: T }>, current?: string): Promise<T> {
    const version = current ?? (await this.version(this.pool, customerId));
    const known = this.entries.get(key);
    if (known && known.version === version) {
      this.touch(key, known);
      return known.value;
    }
    const entry: Entry<T> = { version, value: this.make(key, version, make) };
    this.touch(key, entry);
    return entry.value;
  }

  private async make(key: string, asked: string, make: () => Promise<{ version: string; value: T }>): Promise<T> {
    try {
      const { version, value } = await make();
      // a sync committed in between: the newer pair is kept as such
      if (version !== asked && this.entries.get(key)?.version === asked) this.entries.set(key, { version, value: Promise.resolve(value) });
      return value;
    } catch (err) {
      // the next request tries again
      if (this.entries.get(key)?.version === asked) this.entries.delete(key);
      throw err;
    }
  }

  private touch(key: string, entry: Entry<T>): void {
    this.entries.delete(key);
    this.entries.set(key, entry);
    while (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
  }
}
