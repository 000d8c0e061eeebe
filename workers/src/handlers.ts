import type { Job } from 'bullmq';
import type { Pool } from '@cc/shared/db/pool.ts';
import type { Mailer } from '@cc/shared/ports/mailer.ts';
import type { QueueName } from '@cc/shared/queues.ts';
import { notifyHandler } from './jobs/notify.ts';
import { maintenanceHandler } from './jobs/maintenance.ts';
import { billingIngestHandler } from './jobs/billing-ingest.ts';
import { anomalyDetectHandler } from './jobs/anomaly-detect.ts';
import { alertEvaluateHandler } from './jobs/alert-evaluate.ts';
import { ticketSyncHandler } from './jobs/ticket-sync.ts';
import type { BillingSourceDeps } from './adapters/billing/index.ts';
import type { TicketSystem } from '@cc/shared/ports/ticket-system.ts';
import type { AttachmentStore } from '@cc/shared/ports/attachment-store.ts';
import type { Enqueue } from './worker-host.ts';
import type { BillingCache } from './billing/cache.ts';

export interface WorkerDeps {
  pool: Pool;
  mailer: Mailer;
  mailDomain: string;
  /** Billing sources beyond the local ones (the real BigQuery export, when configured). */
  billingSources?: BillingSourceDeps;
  /** Invalidates cached chart answers of a billing account after its ingest (billing/cache.ts). */
  billingCache?: Pick<BillingCache, 'invalidate'>;
  /** Enqueues follow-up jobs (e.g. notify e-mails from anomaly detection and alerts); see createProducer. */
  enqueue?: Enqueue;
  /** PUBLIC_URL: the address links in e-mails point at. */
  publicUrl?: string;
  /** Ticket system of record (Jira Cloud or local; default: the local one). */
  ticketSystem?: TicketSystem;
  /** Where ticket attachment bytes are read from (default: var/attachments). */
  attachmentStore?: AttachmentStore;
}

export type Handler = (job: Job) => Promise<unknown>;

/** One handler per queue of the registry; the Record type makes a missing one a compile error. */
export function buildHandlers(deps: WorkerDeps): Record<QueueName, Handler> {
  return {
    notify: notifyHandler(deps) as Handler,
    maintenance: maintenanceHandler(deps) as Handler,
    'billing-ingest': billingIngestHandler(deps) as Handler,
    'anomaly-detect': anomalyDetectHandler(deps) as Handler,
    'alert-evaluate': alertEvaluateHandler(deps) as Handler,
    'ticket-sync': ticketSyncHandler(deps) as Handler,
  };
}
