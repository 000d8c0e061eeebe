/**
 * The chart-answer cache in Redis (spec 000 §4: cached per customer + billing account + settings): the api reads and
 * fills it, an ingest of an account invalidates it. Each billing account has a version counter; a cached answer's
 * key embeds the version it was computed at, so incrementing the counter orphans every answer of the account at once
 * (old entries then simply expire). Keys carry the queue prefix so parallel test runs sharing one Redis never see
 * each other. The cache holds the answer's JSON text: a hit is sent as that text, byte for byte the computed answer,
 * with no parse and re-serialisation. Redis trouble never fails a request: the answer is computed and served uncached.
 */
import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';

/** Cached answers live this long at most (a new day changes "yesterday", but the key also carries today's date). */
export const CHART_CACHE_TTL_SECONDS = 3600;

export const billingVersionKey = (prefix: string, billingAccountId: string) => `${prefix}:billing-cache:ver:${billingAccountId}`;
/** One counter for every account: loading rates can change any converted figure of any account. */
export const fxRatesVersionKey = (prefix: string) => `${prefix}:billing-cache:fx-ver`;

export function chartCacheKey(prefix: string, customerId: string, billingAccountId: string, version: string, settings: unknown): string {
  const digest = createHash('sha256').update(JSON.stringify(settings)).digest('hex').slice(0, 32);
  return `${prefix}:billing-cache:chart:${customerId}:${billingAccountId}:v${version}:${digest}`;
}

export interface CachedJson {
  /** The answer as JSON text. */
  json: string;
  hit: boolean;
}

export interface ChartCache {
  /** The cached answer for the settings, or `compute`'s (then stored). */
  cachedJson(target: { customerId: string; billingAccountId: string }, settings: unknown, compute: () => Promise<unknown>): Promise<CachedJson>;
  /** Drops every cached answer of the account; call once its new data is committed. */
  invalidate(billingAccountId: string): Promise<void>;
  /** Drops every cached answer of every account; call once newly loaded exchange rates are committed. */
  invalidateRates(): Promise<void>;
}

/** Pino's and Fastify's `log.warn(obj, msg)`. */
export interface WarnLog {
  warn(obj: object, msg: string): void;
}

/** Producer connections refuse commands until connected (no offline queue): wait briefly for a fresh one. */
async function whenReady(redis: Redis, ms = 3000): Promise<void> {
  if (redis.status === 'ready') return;
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('redis not reachable')), ms);
    redis.once('ready', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

/**
 * The cache on a connection its caller owns (the api's or the producer's). `dataVersion` reads the account's data
 * version from PostgreSQL (bumped by the ingest's own commit, migration 040): with it in the key, no cached answer
 * outlives a commit even if the process that committed died before it could touch Redis.
 */
export function chartCache(redis: Redis, prefix: string, log: WarnLog, dataVersion?: (billingAccountId: string) => Promise<string>): ChartCache {
  return {
    async cachedJson(target, settings, compute) {
      let key: string | null = null;
      const committed = dataVersion ? await dataVersion(target.billingAccountId) : null;
      try {
        const [account, rates] = await redis.mget(billingVersionKey(prefix, target.billingAccountId), fxRatesVersionKey(prefix));
        // The committed data version (PostgreSQL) keeps a crash between COMMIT and the counter bump from serving stale bars.
        const counters = `${account ?? '0'}.${rates ?? '0'}`;
        const version = committed === null ? counters : `${committed}.${counters}`;
        key = chartCacheKey(prefix, target.customerId, target.billingAccountId, version, settings);
        const hit = await redis.get(key);
        if (hit !== null) return { json: hit, hit: true };
      } catch (err) {
        log.warn({ err }, 'billing cache unavailable');
        key = null;
      }
      const json = JSON.stringify(await compute());
      if (key) {
        await redis.set(key, json, 'EX', CHART_CACHE_TTL_SECONDS).catch((err: unknown) => log.warn({ err }, 'billing cache write failed'));
      }
      return { json, hit: false };
    },
    async invalidate(billingAccountId) {
      await whenReady(redis);
      await redis.incr(billingVersionKey(prefix, billingAccountId));
    },
    async invalidateRates() {
      await whenReady(redis);
      await redis.incr(fxRatesVersionKey(prefix));
    },
  };
}
