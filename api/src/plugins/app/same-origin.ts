import type { FastifyRequest } from 'fastify';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Cross-site request forgery guard for cookie-authenticated writes. The browser attaches the session
 * cookie by itself, so a write must prove it comes from our own pages: `Sec-Fetch-Site` (every current browser sends
 * it) must say same-origin, or, from an older browser, `Origin` must be ours. A request carrying neither is refused:
 * API clients send the token as a Bearer header instead, which no other site can make a browser add.
 * Returns why the request is refused, or null.
 */
export function crossSiteRefusal(req: FastifyRequest, publicUrl: string): string | null {
  if (SAFE_METHODS.has(req.method)) return null;
  const site = req.headers['sec-fetch-site'];
  if (typeof site === 'string') return site === 'same-origin' || site === 'none' ? null : `Cross-site request refused (Sec-Fetch-Site: ${site})`;
  const origin = req.headers.origin;
  if (typeof origin !== 'string') return 'Cross-site request refused (no Origin): send the token as a Bearer header';
  if (origin === new URL(publicUrl).origin) return null;
  try {
    if (new URL(origin).host === req.headers.host) return null;
  } catch {
    /* "null" or garbage: refused below */
  }
  return 'Cross-site request refused (foreign Origin)';
}
