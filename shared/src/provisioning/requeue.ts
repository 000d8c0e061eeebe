/**
 * Re-queues the project requests whose job was lost (docs/decisions-provisioning.md, Lost jobs): an approval
 * saved while Redis refused the job, a crash between the commit and the enqueue, a Redis that lost its data.
 * Run at worker start and by the maintenance job. Each request gets its own deterministic job id, so a request
 * whose job is still queued or running is not queued twice.
 */
import { listStalledRequests } from '../db/provisioning.ts';
import type { Queryable } from '../db/pool.ts';
import type { Enqueue } from '../producer.ts';
import { enqueueProvisioning } from './jobs.ts';

/**
 * An Approved request is looked at after a minute (the approve route enqueues right after its commit); a Creating
 * one after half an hour without a change (a running chain records every step, and its retries back off for
 * well under that).
 */
export const STALLED = { approvedSeconds: 60, creatingSeconds: 30 * 60 };

/** Adds the provisioning job of every stalled request; returns the request ids it enqueued for. */
export async function requeueStalledProvisioning(db: Queryable, enqueue: Enqueue, stalled = STALLED): Promise<string[]> {
  const rows = await listStalledRequests(db, stalled);
  for (const r of rows) await enqueueProvisioning(enqueue, r);
  return rows.map((r) => r.id);
}
