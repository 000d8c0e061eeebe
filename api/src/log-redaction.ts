/**
 * Secrets that travel in URLs are kept out of log lines, which many can read: the invitation token is the path's last
 * segment (`/v1/invitations/{token}`, the web's `/invitation/{token}`), and the social sign-in callback carries the
 * provider's one-time `code` and the flow's `state` in its query.
 */
const TOKEN_PATHS = /^(\/v1\/invitations\/|\/invitation\/)[^/?#]+/;
const SECRET_QUERY = /([?&](?:code|state|token)=)[^&#]*/g;

export function redactUrl(url: string): string {
  return url.replace(TOKEN_PATHS, '$1[redacted]').replace(SECRET_QUERY, '$1[redacted]');
}

/** Route params with the invitation token masked, for an error line. */
export function redactParams(params: unknown): unknown {
  if (!params || typeof params !== 'object' || !('token' in params)) return params;
  return { ...(params as Record<string, unknown>), token: '[redacted]' };
}
