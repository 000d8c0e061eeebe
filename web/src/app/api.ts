import { createApi, fetchBaseQuery, type BaseQueryFn, type FetchArgs } from '@reduxjs/toolkit/query/react';
import type { ApiError } from '../common/api-error.ts';
import { sessionEnded } from '../features/session/sessionSlice.ts';

/** Endpoints whose 401 means "wrong credentials", not "session over". */
const CREDENTIAL_ENDPOINTS = new Set(['login']);

/** Mutations that run in the background: they never show the saving indicator. */
export const BACKGROUND_ENDPOINTS: ReadonlySet<string> = new Set(['refreshToken', 'setClaims', 'logout', 'logError']);

const rawBaseQuery = fetchBaseQuery({
  // Same origin: the api serves the built app, and the dev server proxies /v1 and /v2. The session is the
  // httpOnly `token` cookie the browser sends by itself; no script ever holds the token (nor can steal it).
  baseUrl: '',
  credentials: 'same-origin',
});

/**
 * Turns any error body into `{status, detail}` (the api always answers `{detail}`), the job
 * `transformErrorResponse` does per endpoint, done once here so injected endpoints get it too.
 */
export function transformErrorResponse(error: { status: number | string; data?: unknown; error?: string }): ApiError {
  const data = error.data as { detail?: unknown } | undefined;
  if (data && typeof data.detail === 'string') return { status: error.status, detail: data.detail };
  if (typeof error.error === 'string') return { status: error.status, detail: error.error };
  return { status: error.status, detail: typeof error.status === 'number' ? `Request failed (${error.status})` : 'Request failed' };
}

/** Fetches, ends the session on a 401 (the login page then shows) and normalises errors. */
const baseQuery: BaseQueryFn<string | FetchArgs, unknown, ApiError> = async (args, api, extra) => {
  const result = await rawBaseQuery(args, api, extra);
  if (!result.error) return { data: result.data, meta: result.meta };
  if (result.error.status === 401 && !CREDENTIAL_ENDPOINTS.has(api.endpoint)) {
    api.dispatch(sessionEnded({ notice: null }));
  }
  return { error: transformErrorResponse(result.error as { status: number | string; data?: unknown; error?: string }), meta: result.meta };
};

/** The one API slice; features add endpoints with `api.injectEndpoints` in `features/<f>/<f>Api.ts`. */
export const api = createApi({
  reducerPath: 'api',
  baseQuery,
  tagTypes: ['Session', 'Customer', 'Billing', 'Anomaly', 'Alert', 'Viewer', 'Ticket', 'Entity', 'User', 'Monitoring', 'ProjectRequest', 'Inventory', 'License'],
  endpoints: () => ({}),
});

