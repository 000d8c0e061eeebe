/** Every failed api call, normalised by the api slice: the HTTP status (or a fetch failure kind) and the server's `detail`. */
export interface ApiError {
  status: number | string;
  detail: string;
}

/** The `detail` of an RTK Query error, or undefined. */
export function errorDetail(error: unknown): string | undefined {
  if (error && typeof error === 'object' && 'detail' in error && typeof (error as ApiError).detail === 'string') {
    return (error as ApiError).detail;
  }
  return undefined;
}

/**
 * The api's own `detail` for a failed save, or undefined when there is none worth showing, so the screen
 * falls back to its spec message ('Error saving Entity', 'Error saving customer', …; spec 001 §8, 000 §8).
 * 4xx details are sentences for the user; an internal 5xx says nothing useful; a network failure or a body
 * without `detail` only has the client's stand-in text ('Request failed (500)').
 */
export function serverDetail(error: unknown): string | undefined {
  if (!error || typeof error !== 'object') return undefined;
  const { status, detail } = error as Partial<ApiError>;
  if (typeof status !== 'number' || typeof detail !== 'string' || detail.trim() === '') return undefined;
  if (detail === `Request failed (${status})`) return undefined;
  // 502: an upstream system refused, and the api passes its reason on (api/src/errors.ts).
  if (status >= 500 && status !== 502) return undefined;
  return detail;
}
