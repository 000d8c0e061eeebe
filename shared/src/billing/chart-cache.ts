/**
 * The chart-answer cache in Redis (spec 000 §4: cached per customer + billing account + settings): the api reads and
 * fills it, an ingest of an account invalidates it. Each billing account has a version counter; a cached answer's
 * key embeds the version it was computed at, so incrementing the counter orphans every answer of the account at once
 * (old entries then simply expire). Keys carry the queue prefix so parallel test runs sharing one Redis never see
 * each other. The cache holds the answer's JSON text: a hit is sent as that text, byte for byte the computed answer,
 * with no parse and re-serialisation. Redis trouble never fails a request: the answer is computed and served uncached.
 */
import { createHash } from 'node:crypto';
import type { RedisClient } from '../redis.ts';
import type { AccessCheck } from '../access-check.ts';

/** Cached answers live this long at most (a new day changes "yesterday", but the key also carries today's date). */
export const CHART_CACHE_TTL_SECONDS = 3600;

export const billingVersionKey = (prefix: string, billingAccountId: string) => `${prefix}:billing-cache:ver:${billingAccountId}`;
/** One counter for every account: loading rates can change any converted figure of any account. */
export const fxRatesVersionKey = (prefix: string) => `${prefix}:billing-cache:fx-ver`;

/** The settings' part of a key: a digest, since settings can be long. */
const digests = new Map<string, string>();
const digestOf = (settings: unknown) => {
  // the same few settings arrive again and again: each is hashed once (a bound, not an eviction policy)
  const text = JSON.stringify(settings);
  let digest = digests.get(text);
  if (digest === undefined) {
    digest = createHash('sha256').update(text).digest('hex').slice(0, 32);
    if (digests.size >= 10_000) digests.clear();
    digests.set(text, digest);
  }
  return digest;
};

export function chartCacheKey(prefix: string, customerId: string, billingAccountId: string, version: string, settings: unknown): string {
  return `${prefix}:billing-cache:chart:${customerId}:${billingAccountId}:v${version}:${digestOf(settings)}`;
}

export interface CachedJson {
  /** The answer as JSON text, or its UTF-8 bytes as the cache holds them (a hit). */
  json: string | Buffer;
  hit: boolean;
}

export interface ChartCache {
  /** The cached answer for the settings, or `compute`'s (then stored). */
  cachedJson(target: { customerId: string; billingAccountId: string }, settings: unknown, compute: () => Promise<unknown>, access?: AccessCheck): Promise<CachedJson>;
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
async function whenReady(redis: RedisClient, ms = 3000): Promise<void> {
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
/**
 * One round trip for a lookup: KEYS[1] the account's counter, KEYS[2] the rates counter; ARGV[1] the key up to its
 * version, ARGV[2] the committed data version ('' when none), ARGV[3] the settings digest. Returns the key (so a miss
 * stores under exactly the key looked up) and the answer or nil. The key is built as chartCacheKey builds it.
 * With KEYS[3] (access epoch) and KEYS[4] (session-ended marker) it also returns their values: the api's hot path
 * confirms the caller's access in this same round trip (AccessCheck).
 */
const LOOKUP = `
local version = (redis.call('GET', KEYS[1]) or '0') .. '.' .. (redis.call('GET', KEYS[2]) or '0')
if ARGV[2] ~= '' then version = ARGV[2] .. '.' .. version end
local key = ARGV[1] .. ':v' .. version .. ':' .. ARGV[3]
local found = redis.call('GET', key)
-- false, not nil: a nil would end the array early; Redis answers false as a nil element.
if KEYS[3] then return {key, found or false, redis.call('GET', KEYS[3]) or false, redis.call('EXISTS', KEYS[4])} end
return {key, found}`;
const LOOKUP_SHA = createHash('sha1').update(LOOKUP).digest('hex');

/** The key looked up, the answer's bytes (sent as they are), and the access epoch and session-ended flag when asked. */
type Found = [string, Buffer | null, (string | null)?, number?];
type RawFound = [Buffer, Buffer | null, (Buffer | null)?, number?];

/**
 * EVALSHA (the script's 40-character digest instead of its text on every hit), EVAL once Redis has not seen it. The
 * reply is read as bytes: a hit is sent as Redis holds it, not decoded into a string and encoded again.
 */
async function lookup(redis: RedisClient, keys: string[], args: string[]): Promise<Found> {
  // ioredis makes a `…Buffer` twin of every command at run time; its types declare only some of them
  const bytes = redis as unknown as Record<'evalshaBuffer' | 'evalBuffer', (script: string, numkeys: number, ...rest: string[]) => Promise<RawFound>>;
  let raw: RawFound;
  try {
    raw = await bytes.evalshaBuffer(LOOKUP_SHA, keys.length, ...keys, ...args);
  } catch (err) {
    if (!String((err as Error).message).startsWith('NOSCRIPT')) throw err;
    raw = await bytes.evalBuffer(LOOKUP, keys.length, ...keys, ...args);
  }
  const found: Found = [raw[0].toString(), raw[1]];
  if (raw.length > 2) found.push(raw[2] ? raw[2].toString() : null, raw[3]);
  return found;
}

export function chartCache(redis: RedisClient, prefix: string, log: WarnLog, dataVersion?: (billingAccountId: string) => Promise<string>): ChartCache {
  return {
    async cachedJson(target, settings, compute, access) {
      let key: string | null = null;
      const committed = dataVersion ? await dataVersion(target.billingAccountId) : null;
      const keys = [billingVersionKey(prefix, target.billingAccountId), fxRatesVersionKey(prefix)];
      if (access) keys.push(access.epochKey, access.sessionEndedKey);
      let found: Found;
      try {
        // The committed data version (PostgreSQL) keeps a crash between COMMIT and the counter bump from serving stale bars.
        found = await lookup(redis, keys, [`${prefix}:billing-cache:chart:${target.customerId}:${target.billingAccountId}`, committed ?? '', digestOf(settings)]);
      } catch (err) {
        // Access not confirmed: the caller must check it another way, nothing is served.
        if (access) throw err;
        log.warn({ err }, 'billing cache unavailable');
        found = ['', null];
      }
      if (access) access.check({ epoch: found[2] ?? null, ended: found[3] === 1 });
      key = found[0] || null;
      if (found[1] !== null) return { json: found[1], hit: true };
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
