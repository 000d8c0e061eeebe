/**
 * Errors that mean "a service we depend on is away for now" (Redis restarting, a PostgreSQL connection cut or
 * refused, a database that accepts no connections or no writes for now): a request answers 503 with `{detail}`
 * and a job is put back for later without spending an attempt, instead of a 500 or work given up.
 */
export class ServiceUnavailable extends Error {
  readonly statusCode = 503;
  readonly expose = true;
  constructor(message = 'The service is temporarily unavailable; try again shortly') {
    super(message);
    this.name = 'ServiceUnavailable';
  }
}

export const DATABASE_UNAVAILABLE = 'The database is temporarily unavailable; try again shortly';
export const DATABASE_READ_ONLY = 'The database accepts no changes for now (maintenance or failover); try again shortly';
export const SERVICE_UNAVAILABLE = 'The service is temporarily unavailable; try again shortly';

/**
 * SQLSTATEs of a server that refuses for now, whatever the statement: class 08 (connection exception), 57P01–57P05
 * (administrator or crash shutdown, cannot connect now — starting up, shutting down, in recovery —, database dropped,
 * idle session ended), class 53 (too many connections, out of memory, disk full).
 */
const PG_REFUSED = /^(08...|57P0[1-5]|53...)$/;
/** A read-only or recovering server (a hot standby after a failover, default_transaction_read_only). */
const PG_READ_ONLY = new Set(['25006']);
/**
 * 55000 (object not in prerequisite state) is mostly a bug of ours; it means "away for now" only with these texts:
 * `ALTER DATABASE … ALLOW_CONNECTIONS false` and functions refused while the server recovers.
 */
const PG_55000_UNAVAILABLE = /is not currently accepting connections|recovery is in progress/i;
/** 57014: a statement cancelled (statement_timeout, an operator's pg_cancel_backend): the request's answer only. */
const PG_CANCELLED = '57014';
const NET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN']);
const DATABASE_MESSAGES = [
  /Connection terminated/i,
  /Client has encountered a connection error/i,
  /Client was closed and is not queryable/i,
  /terminating connection/i,
  /timeout exceeded when trying to connect/i,
  /is not currently accepting connections/i,
  /the database system is (starting up|shutting down|in recovery mode|not yet accepting connections|not accepting connections)/i,
  /too many (clients|connections)/i,
];
const REDIS_MESSAGES = [
  /Connection is closed/i,
  /enableOfflineQueue options? is false/i,
  /Reached the max retries per request limit/i,
  /redis not reachable/i,
  /LOADING Redis is loading/i,
];

type Cause = 'database' | 'read-only' | 'redis' | 'network' | 'unknown-host' | 'cancelled' | 'service';

interface ErrorShape {
  code?: unknown;
  message?: unknown;
  name?: unknown;
  cause?: unknown;
  errors?: unknown;
}

function own(err: unknown): Cause | null {
  if (err instanceof ServiceUnavailable) return 'service';
  if (!err || typeof err !== 'object') return null;
  const e = err as ErrorShape;
  const code = typeof e.code === 'string' ? e.code : '';
  const message = typeof e.message === 'string' ? e.message : '';
  if (PG_REFUSED.test(code)) return 'database';
  if (PG_READ_ONLY.has(code)) return 'read-only';
  if (code === '55000') return PG_55000_UNAVAILABLE.test(message) ? 'database' : null;
  if (code === PG_CANCELLED) return 'cancelled';
  if (e.name === 'MaxRetriesPerRequestError') return 'redis';
  if (DATABASE_MESSAGES.some((m) => m.test(message))) return 'database';
  if (REDIS_MESSAGES.some((m) => m.test(message))) return 'redis';
  if (code === 'ENOTFOUND') return 'unknown-host';
  if (NET_CODES.has(code)) return 'network';
  return null;
}

/** The first reason found on the error, its `cause` chain or an AggregateError's parts (Node's dual-stack connect). */
function unavailableCause(err: unknown, depth = 0): Cause | null {
  if (depth > 4 || !err || typeof err !== 'object') return null;
  const found = own(err);
  if (found) return found;
  const e = err as ErrorShape;
  if (Array.isArray(e.errors)) {
    for (const part of e.errors) {
      const c = unavailableCause(part, depth + 1);
      if (c) return c;
    }
  }
  return unavailableCause(e.cause, depth + 1);
}

/** A request failing with this error answers 503: the client may retry, it is not a bug here. */
export function isUnavailableError(err: unknown): boolean {
  return unavailableCause(err) !== null;
}

/** The 503's detail: says which dependency is away when the error tells. */
export function unavailableDetail(err: unknown): string {
  if (err instanceof ServiceUnavailable) return err.message;
  switch (unavailableCause(err)) {
    case 'database':
      return DATABASE_UNAVAILABLE;
    case 'read-only':
      return DATABASE_READ_ONLY;
    default:
      return SERVICE_UNAVAILABLE;
  }
}

/**
 * A job failing with this error did not fail at its own work: the database or Redis (or the network to them) was
 * away. The worker puts it back for later without counting the attempt. Not one of these: a cancelled statement (one
 * that runs into its timeout every time is the job's own problem) and a host name that does not resolve (a wrong
 * address in the settings would otherwise be retried for ever, unseen).
 */
export function isInfrastructureError(err: unknown): boolean {
  const c = unavailableCause(err);
  return c !== null && c !== 'cancelled' && c !== 'unknown-host';
}

/**
 * The same decision from a failed job's stored reason (BullMQ keeps only the message): the outbox re-queues a job that
 * was given up for a reason of this kind.
 */
export function isInfrastructureMessage(message: string | null | undefined): boolean {
  if (!message) return false;
  if ([...DATABASE_MESSAGES, ...REDIS_MESSAGES].some((m) => m.test(message))) return true;
  return /\b(ECONNREFUSED|ECONNRESET|EHOSTUNREACH|ENETUNREACH|EAI_AGAIN)\b/.test(message) || /read-only transaction|recovery is in progress/i.test(message);
}
