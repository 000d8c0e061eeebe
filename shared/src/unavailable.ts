/**
 * Errors that mean "a service we depend on is away for now" (Redis restarting, a PostgreSQL connection cut or
 * refused): a request answers 503 with `{detail}` and a job retries, instead of a 500 or a crashed process.
 */
export class ServiceUnavailable extends Error {
  readonly statusCode = 503;
  readonly expose = true;
  constructor(message = 'The service is temporarily unavailable; try again shortly') {
    super(message);
    this.name = 'ServiceUnavailable';
  }
}

// SQLSTATE classes 08 (connection exception) and 57P0x (admin shutdown, crash shutdown, cannot connect now), and
// 57014 (statement timeout, query cancelled: the statement's client was cut or took too long).
const PG_UNAVAILABLE = /^(08...|57P0[1-4]|57014|53300)$/;
const NET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'ENOTFOUND', 'EHOSTUNREACH', 'EAI_AGAIN']);
const MESSAGES = [
  /Connection terminated/i,
  /Connection is closed/i,
  /Client has encountered a connection error/i,
  /enableOfflineQueue options? is false/i,
  /Reached the max retries per request limit/i,
  /redis not reachable/i,
  /Client was closed and is not queryable/i,
  /terminating connection/i,
  /timeout exceeded when trying to connect/i,
];

export function isUnavailableError(err: unknown): boolean {
  if (err instanceof ServiceUnavailable) return true;
  if (!err || typeof err !== 'object') return false;
  const e = err as { code?: unknown; message?: unknown; name?: unknown };
  if (typeof e.code === 'string' && (PG_UNAVAILABLE.test(e.code) || NET_CODES.has(e.code))) return true;
  if (e.name === 'MaxRetriesPerRequestError') return true;
  return typeof e.message === 'string' && MESSAGES.some((m) => m.test(e.message as string));
}
