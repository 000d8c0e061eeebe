import { Cluster, Redis, type RedisOptions } from 'ioredis';
import { createLogger } from './logger.ts';

/** One Redis server, a Sentinel group's current primary, or a Cluster: what every connection of ours is. */
export type RedisClient = Redis | Cluster;

/**
 * Where Redis is, read from REDIS_URL (config.ts folds REDIS_SENTINELS / REDIS_CLUSTER_NODES into it):
 * - `redis://` or `rediss://`: one server, as before;
 * - `redis+sentinel://[:password@]host:port,host:port/<master name>[/<db>]`: the primary a Sentinel group names, found
 *   again after a failover;
 * - `redis+cluster://[:password@]host:port,host:port`: a Cluster, seeded by any of its nodes.
 */
/** One server of a Sentinel group or a Cluster. */
export interface HostPort {
  host: string;
  port: number;
}

export type RedisTarget =
  | { shape: 'single'; url: string }
  | { shape: 'sentinel'; sentinels: HostPort[]; name: string; password?: string; db?: number }
  | { shape: 'cluster'; nodes: HostPort[]; password?: string };

const MULTI_HOST = /^redis\+(sentinel|cluster):\/\/(?:(?:[^:@/]*):([^@/]*)@)?([^/]+)(?:\/([^/]*))?(?:\/(\d+))?\/?$/;

/** `host:port,host:port` as ioredis's node list; throws on anything else. */
export function parseHostList(text: string): HostPort[] {
  const nodes = text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((hp) => {
      const m = /^(\[[^\]]+\]|[^:\s]+):(\d{1,5})$/.exec(hp);
      if (!m || Number(m[2]) > 65535) throw new Error(`'${hp}' is not host:port`);
      return { host: m[1]!.replace(/^\[|\]$/g, ''), port: Number(m[2]) };
    });
  if (nodes.length === 0) throw new Error('no host:port given');
  return nodes;
}

/** Reads REDIS_URL's shape; throws with the reason when a Sentinel or Cluster address is malformed. */
export function parseRedisTarget(url: string): RedisTarget {
  if (!url.startsWith('redis+')) return { shape: 'single', url };
  const m = MULTI_HOST.exec(url);
  if (!m) throw new Error('must look like redis+sentinel://host:port,host:port/<master name> or redis+cluster://host:port,host:port');
  const [, shape, password, hosts, name, db] = m;
  const pw = password ? decodeURIComponent(password) : undefined;
  const nodes = parseHostList(hosts!);
  if (shape === 'cluster') {
    if (name || db) throw new Error('a redis+cluster:// address has no path (a Cluster has no databases)');
    return { shape: 'cluster', nodes, ...(pw ? { password: pw } : {}) };
  }
  if (!name) throw new Error('a redis+sentinel:// address names its master group: redis+sentinel://host:port,host:port/<master name>');
  return { shape: 'sentinel', sentinels: nodes, name: decodeURIComponent(name), ...(pw ? { password: pw } : {}), ...(db ? { db: Number(db) } : {}) };
}

/**
 * After a failover the old primary comes back as a replica; a connection still on it gets READONLY for every write.
 * Reconnecting (Sentinel asked again) and resending the command (2) moves it to the new primary instead.
 */
const toPrimaryOnReadonly = (err: Error): 2 | false => (err.message.startsWith('READONLY') ? 2 : false);

/**
 * A connection of the given options to REDIS_URL's Redis, whatever its shape. One server: exactly `new Redis(url,
 * options)`. A Sentinel group: its current primary, found again after a failover. A Cluster: the options apply to
 * every node's connection; commands go to the node owning their slot, so every multi-key command and script must keep
 * its keys in one slot (hash tags: `queuePrefix` and config.ts's `{prefix}`).
 */
export function createRedis(url: string, options: RedisOptions = {}): RedisClient {
  const target = parseRedisTarget(url);
  if (target.shape === 'single') return new Redis(url, options);
  if (target.shape === 'sentinel') {
    const { sentinels, name, password, db } = target;
    return new Redis({
      ...options,
      sentinels,
      name,
      ...(password ? { password, sentinelPassword: password } : {}),
      ...(db !== undefined ? { db } : {}),
      reconnectOnError: toPrimaryOnReadonly,
      // A sentinel that is itself down is skipped: the next one in the list answers.
      sentinelRetryStrategy: (attempt) => Math.min(attempt * 100, 1000),
    });
  }
  const { enableOfflineQueue, enableAutoPipelining, lazyConnect, ...nodeOptions } = options;
  return new Cluster(target.nodes, {
    redisOptions: { ...nodeOptions, ...(target.password ? { password: target.password } : {}) },
    ...(enableOfflineQueue !== undefined ? { enableOfflineQueue } : {}),
    ...(enableAutoPipelining !== undefined ? { enableAutoPipelining } : {}),
    ...(lazyConnect !== undefined ? { lazyConnect } : {}),
    // Reads go to primaries: a replica may not have the write a request just made (the access epoch, a revocation).
    scaleReads: 'master',
    // A primary killed: its replica is promoted within the Cluster's node timeout; commands wait and follow MOVED.
    retryDelayOnFailover: 200,
    retryDelayOnClusterDown: 200,
    retryDelayOnTryAgain: 200,
    maxRedirections: 32,
    clusterRetryStrategy: (attempt) => Math.min(100 + attempt * 100, 2000),
  });
}

/**
 * The key prefix of one BullMQ queue. On one server or a Sentinel group it is the prefix itself (keys unchanged).
 * On a Cluster config.ts wraps the prefix in a hash tag (`{cc}`), and each queue gets its own tag (`{cc:notify}`):
 * BullMQ's scripts touch many keys of one queue at once, which must share a slot, while different queues land on
 * different slots and so spread over the primaries.
 */
export function queuePrefix(prefix: string, queue: string): string {
  const tagged = /^\{([^{}]+)\}$/.exec(prefix);
  return tagged ? `{${tagged[1]}:${queue}}` : prefix;
}

/** What the outage record needs of a logger (pino's, Fastify's). */
interface OutageLog {
  warn(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
}

/** Error codes and messages that say Redis cannot be reached, as opposed to a command's own failure. */
const CONNECTION_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'ENOTFOUND', 'EHOSTUNREACH', 'ENETUNREACH', 'EPIPE', 'EAI_AGAIN', 'ECONNABORTED']);
const CONNECTION_MESSAGES = /^(Connection is closed|Stream isn't writeable|Socket closed unexpectedly|connect ETIMEDOUT)/;

export function isRedisConnectionError(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  const code = (err as NodeJS.ErrnoException).code;
  return (code !== undefined && CONNECTION_CODES.has(code)) || CONNECTION_MESSAGES.test(err.message);
}

/**
 * A Redis outage as a process sees it: every connection retries (ioredis reconnects on its own) and reports each
 * failed attempt, so a 35 s outage made hundreds of log lines per process, many of them multi-line dumps. Here it is
 * one structured line when the first connection fails and one when any connection is ready again.
 */
class RedisOutage {
  private log: OutageLog = createLogger('info', { component: 'redis' });
  private since: number | null = null;
  private failures = 0;

  /** The process's logger (its level and bindings); before this, a pino logger at info. */
  useLogger(log: OutageLog): void {
    this.log = log;
  }

  get down(): boolean {
    return this.since !== null;
  }

  failed(err: Error, connection: string): void {
    this.failures++;
    if (this.since !== null) return;
    this.since = Date.now();
    this.failures = 1;
    const code = (err as NodeJS.ErrnoException).code;
    this.log.warn({ redis: { connection, code, error: err.message } }, 'redis unreachable; connections retry, and one line follows when it is back');
  }

  recovered(connection: string): void {
    if (this.since === null) return;
    this.log.info({ redis: { connection, down_ms: Date.now() - this.since, failed_attempts: this.failures } }, 'redis reachable again');
    this.since = null;
  }
}

/** The one outage record of this process. */
export const redisOutage = new RedisOutage();

/**
 * Reports `conn`'s connection failures to the process's outage record instead of its 'error' listeners (BullMQ's
 * queues and workers re-emit them, printed as dumps where nobody listens); its other errors reach them as before.
 * Connections it duplicates (BullMQ's blocking connections) are watched too.
 */
export function watchRedis<C extends RedisClient>(conn: C, name: string): C {
  const emit = conn.emit.bind(conn);
  conn.emit = ((event: string | symbol, ...args: unknown[]) => {
    if (event === 'error' && isRedisConnectionError(args[0])) {
      redisOutage.failed(args[0] as Error, name);
      return true;
    }
    if (event === 'ready') redisOutage.recovered(name);
    return emit(event, ...args);
  }) as C['emit'];
  // ioredis prints an error nobody listens to: this listener keeps that from happening; the outage record reports it.
  conn.on('error', () => undefined);
  const duplicate = (conn.duplicate as (...args: unknown[]) => RedisClient).bind(conn);
  conn.duplicate = ((...args: unknown[]) => watchRedis(duplicate(...args), `${name} (duplicate)`)) as C['duplicate'];
  return conn;
}

/**
 * Connections for BullMQ. Workers need `maxRetriesPerRequest: null` (blocking commands);
 * producers fail fast so an API request never hangs on a Redis outage.
 */
export function redisConnection(url: string, role: 'producer' | 'worker'): RedisClient {
  const conn = createRedis(url, {
    maxRetriesPerRequest: role === 'worker' ? null : 1,
    enableOfflineQueue: role === 'worker',
    lazyConnect: false,
  });
  return watchRedis(conn, role);
}
