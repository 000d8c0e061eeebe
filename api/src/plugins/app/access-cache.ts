import fp from 'fastify-plugin';
import { randomInt } from 'node:crypto';
import { createRedis, watchRedis, type RedisClient } from '@cc/shared/redis.ts';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteHandlerMethod } from 'fastify';
import type { AccessCheck } from '@cc/shared/access-check.ts';
import { listenForSignals, readAccessVersion } from '@cc/shared/db/access.ts';
import { billingDataVersion } from '@cc/shared/db/outbox.ts';
import { isSessionEnded } from '@cc/shared/db/sessions.ts';
import { sessionEndedKey } from './session-store.ts';

/**
 * The hot path's memory (decisions.md "Hot path"): users and tenant admissions are kept in process,
 * each tagged with the access epoch it was read at, and served only while Redis still holds that epoch. The epoch
 * and "has this session ended" are one MGET, so an authenticated request needs one Redis round trip and no query.
 *
 * The epoch moves whenever the committed `access_version` (migration 060: a trigger on users, grants, viewer
 * filters, entity admins and customers) moves:
 * - at once, by the api process that wrote: after any request that may write (not GET, not a route marked
 *   `readOnly`), before its answer is sent, it reads the version and publishes it;
 * - within milliseconds for any other writer (worker, CLI, psql): PostgreSQL announces the version at commit
 *   (NOTIFY) and every api process publishes it and drops its own entries.
 * Anything read is read after the epoch it is tagged with, so an entry can only be older than its epoch's writes
 * never: a change committed after the read moves the epoch. Without Redis nothing is cached (the database answers).
 */
export interface AccessCache {
  /** The access epoch (null: not known, cache nothing) and whether the session ended: one Redis round trip. */
  state(sid: string): Promise<{ epoch: string | null; ended: boolean }>;
  /** The value kept under `key` for this epoch, or `load`'s (kept when the epoch is known). */
  remember<T>(key: string, epoch: string | null, load: () => Promise<T>): Promise<T>;
  /** Reads the committed access version and moves the epoch if it changed since last published. */
  publish(): Promise<void>;
  /** The committed data version of a billing account (for chart cache keys), from memory while PostgreSQL announces it. */
  dataVersion(billingAccountId: string): Promise<string>;
  /**
   * The hot path's own Redis connection (the auth MGET, the chart lookup): auto-pipelined, so the commands of all
   * requests in flight leave in one write per event-loop turn instead of one system call each. Fails fast like the
   * producer's (no offline queue): Redis trouble falls back to the database, never hangs a request.
   */
  redis: RedisClient;
  /**
   * On a route marked `accessInLookup`: the request is admitted against the last epoch this process saw, without
   * its own MGET, and is *deferred* until its handler's one Redis round trip (the chart lookup) reads the epoch and
   * the session marker with the answer. Null: no epoch known, read the state now.
   */
  deferredEpoch(req: FastifyRequest): string | null;
  /** Whether the request's access is still unconfirmed (see deferredEpoch). */
  isDeferred(req: FastifyRequest): boolean;
  /**
   * For a deferred request, the keys its handler's lookup reads and what to do with their values: confirm, or throw
   * (the plugin then re-checks strictly and runs the handler again). Undefined when the access is confirmed already.
   */
  lookupCheck(req: FastifyRequest): AccessCheck | undefined;
  /** Forgets the deferral before a strict re-check; the request is not deferred again. */
  settle(req: FastifyRequest): void;
}

declare module 'fastify' {
  interface FastifyInstance {
    access: AccessCache;
  }
  interface FastifyContextConfig {
    /** A POST that only reads (charts, exports): no access change to publish after it. */
    readOnly?: boolean;
    /**
     * The handler confirms the caller's access in its own Redis lookup (the cached charts): one round trip, not two.
     * Its handler passes `access.lookupCheck(req)` to that lookup; should anything fail before the access is
     * confirmed, this plugin re-checks it strictly (`confirmAccess`, the tenant again) and runs the handler once more.
     */
    accessInLookup?: boolean;
  }
}

/** The deferred access did not hold: the handler re-checks it strictly. */
export class AccessChanged extends Error {
  constructor() {
    super('access changed since the request was admitted');
  }
}

// A bound, not an eviction policy: past it the memory is simply dropped and refilled.
const MAX_ENTRIES = 50_000;
const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * KEYS[1] epoch, KEYS[2] the access version last published. ARGV[1] the version read, ARGV[2] a random start.
 * The epoch moves whenever the version differs from the last published (an older one too: an extra move only
 * costs a reload). A lost epoch restarts at a random value, so no entry from before can match it again.
 */
const PUBLISH = `
local seen = redis.call('GET', KEYS[2])
local epoch = redis.call('GET', KEYS[1])
if epoch and seen == ARGV[1] then return epoch end
redis.call('SET', KEYS[2], ARGV[1])
if epoch then return tostring(redis.call('INCR', KEYS[1])) end
redis.call('SET', KEYS[1], ARGV[2])
return ARGV[2]`;

function accessCache(app: FastifyInstance): { cache: AccessCache; close: () => Promise<void>; ready: Promise<void> } {
  const prefix = app.config.QUEUE_PREFIX;
  const epochKey = `${prefix}:access:epoch`;
  const seenKey = `${prefix}:access:published`;
  const hot = createRedis(app.config.REDIS_URL, { maxRetriesPerRequest: 1, enableOfflineQueue: false, enableAutoPipelining: true });
  // Connection failures are logged once per outage (shared/src/redis.ts); other errors here.
  watchRedis(hot, 'access cache').on('error', (err: unknown) => app.log.warn({ err }, 'hot-path redis error'));
  const redis = () => hot;
  const entries = new Map<string, { epoch: string; value: unknown }>();
  const dataVersions = new Map<string, bigint>();
  let listening = false;
  let generation = 0;
  // The last epoch Redis answered (a deferred request is admitted against it and confirmed in its handler's lookup).
  let lastEpoch: string | null = null;
  const deferred = new WeakSet<FastifyRequest>();
  // Requests being re-checked strictly: never deferred again (else the re-check would defer itself in a loop).
  const strict = new WeakSet<FastifyRequest>();

  async function publishVersion(version: string): Promise<string> {
    return (await redis().eval(PUBLISH, 2, epochKey, seenKey, version, String(randomInt(1, 2 ** 47)))) as string;
  }

  const closeSignals = listenForSignals(app.config.DATABASE_URL, {
    onAccess(version) {
      entries.clear();
      publishVersion(version).catch((err: unknown) => app.log.warn({ err }, 'access change not published to Redis'));
    },
    onBillingData(account, version) {
      const v = BigInt(version);
      if ((dataVersions.get(account) ?? 0n) < v) dataVersions.set(account, v);
    },
    onListening() {
      // Announcements may have been missed while not listening: forget everything read before.
      entries.clear();
      dataVersions.clear();
      generation++;
      listening = true;
      readAccessVersion(app.pg)
        .then(publishVersion)
        .catch((err: unknown) => app.log.warn({ err }, 'access version not published to Redis'));
    },
    onLost(err) {
      listening = false;
      generation++;
      dataVersions.clear();
      app.log.warn({ err }, 'lost the database signals connection; reading versions from the database');
    },
  });

  const cache: AccessCache = {
    redis: hot,
    async state(sid) {
      try {
        const [epoch, ended] = await redis().mget(epochKey, sessionEndedKey(prefix, sid));
        if (ended !== null) return { epoch, ended: true };
        // No epoch (a fresh or flushed Redis): publish one from the database, then cache against it.
        lastEpoch = epoch ?? (await publishVersion(await readAccessVersion(app.pg)));
        return { epoch: lastEpoch, ended: false };
      } catch (err) {
        lastEpoch = null;
        app.log.warn({ err }, 'session and access checks fell back to the database (Redis unavailable)');
        return { epoch: null, ended: await isSessionEnded(app.pg, sid) };
      }
    },
    async remember(key, epoch, load) {
      if (epoch !== null) {
        const kept = entries.get(key);
        if (kept && kept.epoch === epoch) return kept.value as Awaited<ReturnType<typeof load>>;
      }
      const value = await load();
      if (epoch !== null) {
        if (entries.size >= MAX_ENTRIES) entries.clear();
        entries.set(key, { epoch, value });
      }
      return value;
    },
    async publish() {
      await publishVersion(await readAccessVersion(app.pg));
    },
    deferredEpoch(req) {
      if (!req.routeOptions.config?.accessInLookup || lastEpoch === null || strict.has(req)) return null;
      deferred.add(req);
      return lastEpoch;
    },
    isDeferred: (req) => deferred.has(req),
    settle(req) {
      deferred.delete(req);
      strict.add(req);
    },
    lookupCheck(req) {
      const auth = req.auth;
      if (!auth || !deferred.has(req)) return undefined;
      const { sid, epoch } = auth;
      return {
        epochKey,
        sessionEndedKey: sessionEndedKey(prefix, sid),
        check(state) {
          if (state.epoch !== null && !state.ended) lastEpoch = state.epoch;
          // An ended session or a moved epoch: the handler re-checks strictly (and refuses or re-admits).
          if (state.ended || state.epoch === null || state.epoch !== epoch) throw new AccessChanged();
          deferred.delete(req);
        },
      };
    },
    async dataVersion(account) {
      const known = listening ? dataVersions.get(account) : undefined;
      if (known !== undefined) return known.toString();
      const at = generation;
      const read = await billingDataVersion(app.pg, account);
      // Kept only if no announcement can have been missed since the read began.
      if (listening && at === generation) {
        const v = BigInt(read);
        const cur = dataVersions.get(account);
        if (cur === undefined || cur < v) dataVersions.set(account, v);
      }
      return read;
    },
  };
  const close = async () => {
    await closeSignals();
    hot.disconnect();
  };
  return { cache, close, ready: whenReady(hot) };
}

/** Waits (briefly) for the hot connection at start-up, so the first requests need not fall back to the database. */
function whenReady(redis: RedisClient, ms = 3000): Promise<void> {
  if (redis.status === 'ready') return Promise.resolve();
  return new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    redis.once('ready', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

/**
 * A deferred route's handler, run again after a strict re-check when it fails before its access was confirmed: it was
 * admitted against the last epoch seen, so anything but a confirmed answer (a session ended, access changed, Redis
 * unavailable, a refusal) is decided again on the current epoch, where the guards refuse or admit the caller anew.
 */
function deferredHandler(app: FastifyInstance, handler: RouteHandlerMethod): RouteHandlerMethod {
  return async function (this: FastifyInstance, req: FastifyRequest, reply: FastifyReply) {
    try {
      return await handler.call(this, req, reply);
    } catch (err) {
      if (!app.access.isDeferred(req)) throw err;
      await app.confirmAccess(req);
      if (req.customerId !== null) await app.readmitTenant(req);
      return handler.call(this, req, reply);
    }
  } as RouteHandlerMethod;
}

export default fp(
  async (app) => {
    const { cache, close, ready } = accessCache(app);
    app.decorate('access', cache);
    // Routes are registered after this plugin; the guards' re-checks (permission-guard, tenant-guard) exist by the
    // time a request runs.
    app.addHook('onRoute', (route) => {
      if (route.config?.accessInLookup) route.handler = deferredHandler(app, route.handler);
    });
    app.addHook('onClose', close);
    await ready;
    // The writer's own process moves the epoch before its answer leaves, so the caller's next request, to any
    // api process, sees the change. A failed publish is logged; the database's announcement still follows.
    app.addHook('onSend', async (req, reply) => {
      // The net under deferral: an answer whose access was never confirmed does not leave (a handler bug, not a caller's).
      if (cache.isDeferred(req) && reply.statusCode < 400) throw new Error(`${req.method} ${req.routeOptions.url} answered without confirming access`);
      if (!WRITES.has(req.method) || req.routeOptions.config?.readOnly) return;
      await cache.publish().catch((err: unknown) => app.log.warn({ err }, 'access change not published to Redis'));
    });
  },
  { name: 'access-cache', dependencies: ['config', 'pg', 'queues'] },
);
