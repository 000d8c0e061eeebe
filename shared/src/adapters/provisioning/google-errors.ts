/**
 * Reading the errors of Google's clients over their REST fallback. They arrive in two shapes: a GaxiosError when
 * the HTTP answer was not 2xx (the auth client's fetch throws; `status` is the HTTP code, the message is the
 * body `{"error":{code,message,status}}`), or a GoogleError / rpc Status with a numeric gRPC `code` (an
 * operation's error, or an answer gax decoded itself).
 */
import { ProvisioningError } from '../../ports/cloud-provisioning.ts';

const GRPC_STATUS = [
  'OK', 'CANCELLED', 'UNKNOWN', 'INVALID_ARGUMENT', 'DEADLINE_EXCEEDED', 'NOT_FOUND', 'ALREADY_EXISTS', 'PERMISSION_DENIED',
  'RESOURCE_EXHAUSTED', 'FAILED_PRECONDITION', 'ABORTED', 'OUT_OF_RANGE', 'UNIMPLEMENTED', 'INTERNAL', 'UNAVAILABLE', 'DATA_LOSS',
  'UNAUTHENTICATED',
] as const;

/** Worth retrying as is: rate limits, overload, a concurrent change of an etag-guarded policy. */
const TRANSIENT_STATUS = new Set(['RESOURCE_EXHAUSTED', 'UNAVAILABLE', 'DEADLINE_EXCEEDED', 'ABORTED', 'INTERNAL', 'UNKNOWN']);
const TRANSIENT_HTTP = new Set([429, 500, 502, 503, 504]);

export interface GoogleFailure {
  http: number | null;
  /** The canonical status name (ALREADY_EXISTS, PERMISSION_DENIED…), when the answer said one. */
  status: string | null;
  message: string;
}

function bodyError(text: string): { status?: string; message?: string; code?: number } | null {
  try {
    const body = JSON.parse(text) as { error?: { status?: string; message?: string; code?: number } };
    return body.error ?? null;
  } catch {
    return null;
  }
}

export function readGoogleError(err: unknown): GoogleFailure {
  const e = (err ?? {}) as { status?: unknown; code?: unknown; message?: unknown; response?: { status?: unknown; data?: unknown } };
  const message = typeof e.message === 'string' ? e.message : String(err);
  const http = typeof e.status === 'number' ? e.status : typeof e.response?.status === 'number' ? e.response.status : null;
  if (http !== null) {
    const data = typeof e.response?.data === 'string' ? e.response.data : message;
    const body = bodyError(data);
    return { http, status: body?.status ?? null, message: body?.message ?? message };
  }
  // A gRPC status code (0..16) on a GoogleError or an operation's rpc Status.
  if (typeof e.code === 'number' && e.code >= 0 && e.code < GRPC_STATUS.length) return { http: null, status: GRPC_STATUS[e.code], message };
  return { http: null, status: null, message };
}

export const isAlreadyExists = (err: unknown): boolean => {
  const f = readGoogleError(err);
  return f.status === 'ALREADY_EXISTS' || (f.status === null && f.http === 409);
};

export const isNotVisible = (err: unknown): boolean => {
  const f = readGoogleError(err);
  return f.status === 'PERMISSION_DENIED' || f.status === 'NOT_FOUND' || f.http === 403 || f.http === 404;
};

/** `{what} failed: 403 PERMISSION_DENIED: …`, transient for rate limits, overload and network failures. */
export function toProvisioningError(what: string, err: unknown): ProvisioningError {
  if (err instanceof ProvisioningError) return err;
  const f = readGoogleError(err);
  const transient =
    (f.status !== null && TRANSIENT_STATUS.has(f.status)) ||
    (f.http !== null && TRANSIENT_HTTP.has(f.http)) ||
    // No HTTP answer at all (connection reset, refused, timed out): the request may or may not have arrived.
    (f.http === null && f.status === null);
  const code = [f.http, f.status].filter((x) => x !== null).join(' ');
  return new ProvisioningError(`${what} failed: ${code ? `${code}: ` : ''}${f.message}`, transient);
}
