/**
 * Gathers the operations inbox: the open items of every customer (shared/src/db/operations.ts), the license
 * syncs that failed in the queue (the only kind no table records), and the admin's own "last looked" time.
 */
import type { FastifyInstance } from 'fastify';
import { billingToday } from '@cc/shared/time.ts';
import { countByKind, listInbox, type FailedLicenseSync } from '@cc/shared/db/operations.ts';
import type { InboxItem, InboxKind } from '@cc/shared/schemas/operations.ts';

/** A billing account whose latest usage day is more than this many days old is listed as stale. */
export const STALE_BILLING_DAYS = 2;
/** Failed license syncs read from the queue: the newest; older ones are long superseded by a later sync. */
const LICENSE_FAILURES_READ = 200;

async function failedLicenseSyncs(app: FastifyInstance): Promise<FailedLicenseSync[]> {
  const jobs = await app.producers.queues.license.getFailed(0, LICENSE_FAILURES_READ - 1);
  return jobs
    .filter((j) => j && j.finishedOn)
    .map((j) => ({
      customer_id: (j.data as { customer_id?: string }).customer_id ?? null,
      failed_at: new Date(j.finishedOn!).toISOString(),
      reason: (j.failedReason ?? '').slice(0, 500),
    }));
}

/** Every open item across customers, most urgent first, then newest. `seenAt`: the admin's last look at anomalies. */
export async function readInbox(app: FastifyInstance, seenAt: string | null): Promise<InboxItem[]> {
  return listInbox(app.pg, {
    today: billingToday(),
    anomaliesSeenAt: seenAt,
    targets: app.config.FIRST_RESPONSE_TARGETS,
    staleDays: STALE_BILLING_DAYS,
    licenseSyncFailures: await failedLicenseSyncs(app),
  });
}

export interface InboxPage {
  items: InboxItem[];
  total: number;
  counts: Record<InboxKind, number>;
}

/** One page of the items of a kind and customer; counts per kind over the customer filter alone (the filter's badges). */
export function pageOf(all: readonly InboxItem[], q: { kind?: InboxKind; for_customer?: string; offset: number; limit: number }): InboxPage {
  const ofCustomer = q.for_customer === undefined ? all : all.filter((i) => i.customer_id === q.for_customer);
  const matching = q.kind === undefined ? ofCustomer : ofCustomer.filter((i) => i.kind === q.kind);
  return { items: matching.slice(q.offset, q.offset + q.limit), total: matching.length, counts: countByKind(ofCustomer) };
}
