/**
 * Redis keys of the chart-answer cache (spec 000 §4: cached per customer + billing account + settings).
 * Each billing account has a version counter; a cached answer's key embeds the version it was computed at, so
 * the ingest of that account invalidates every answer at once by incrementing the counter (old entries then
 * simply expire). Keys carry the queue prefix so parallel test runs sharing one Redis never see each other.
 */
import { createHash } from 'node:crypto';

/** Cached answers live this long at most (a new day changes "yesterday", but the key also carries today's date). */
export const CHART_CACHE_TTL_SECONDS = 3600;

export const billingVersionKey = (prefix: string, billingAccountId: string) => `${prefix}:billing-cache:ver:${billingAccountId}`;

export function chartCacheKey(prefix: string, customerId: string, billingAccountId: string, version: string, settings: unknown): string {
  const digest = createHash('sha256').update(JSON.stringify(settings)).digest('hex').slice(0, 32);
  return `${prefix}:billing-cache:chart:${customerId}:${billingAccountId}:v${version}:${digest}`;
}
