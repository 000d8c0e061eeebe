import { Redis } from 'ioredis';
import { createLogger } from './logger.ts';

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
export function watchRedis<C extends Redis>(conn: C, name: string): C {
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
  const duplicate = conn.duplicate.bind(conn);
  conn.duplicate = ((...args: Parameters<Redis['duplicate']>) => watchRedis(duplicate(...args), `${name} (duplicate)`)) as C['duplicate'];
  return conn;
}

/**
 * Connections for BullMQ. Workers need `maxRetriesPerRequest: null` (blocking commands);
 * producers fail fast so an API request never hangs on a Redis outage.
 */
export function redisConnection(url: string, role: 'producer' | 'worker'): Redis {
  const conn = new Redis(url, {
    maxRetriesPerRequest: role === 'worker' ? null : 1,
    enableOfflineQueue: role === 'worker',
    lazyConnect: false,
  });
  return watchRedis(conn, role);
}
