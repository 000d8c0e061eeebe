/**
 * What the jobs need from the process that runs them. Every field is required: a job gets exactly its part
 * (JOB_DEPS), so a missing dependency is a compile error, and buildHandlers refuses to boot without it.
 */
import type { Pool } from '@cc/shared/db/pool.ts';
import type { Mailer } from '@cc/shared/ports/mailer.ts';
import type { TicketSystem } from '@cc/shared/ports/ticket-system.ts';
import type { AttachmentStore } from '@cc/shared/ports/attachment-store.ts';
import type { ChartCache } from '@cc/shared/billing/chart-cache.ts';
import type { Enqueue } from '@cc/shared/producer.ts';
import type { QueueName } from '@cc/shared/queues.ts';
import type { BillingSourceDeps } from './billing-ingest/open-source.ts';
import type { MonitoringService } from '@cc/shared/ports/monitoring.ts';
import type { CloudProjects } from '@cc/shared/ports/cloud-projects.ts';
import type { SecretBox } from '@cc/shared/secret-box.ts';
import type { CloudProvisioning } from '@cc/shared/ports/cloud-provisioning.ts';
import type { InventorySource } from '@cc/shared/ports/inventory.ts';
import type { Workspace } from '@cc/shared/ports/workspace.ts';
import type { FxRatesSource } from '@cc/shared/ports/fx-rates.ts';
import type { SendPolicy } from '@cc/shared/notification-channels/send.ts';

export interface WorkerDeps {
  pool: Pool;
  mailer: Mailer;
  /** The Message-ID domain of sent mail. */
  mailDomain: string;
  /** PUBLIC_URL: the address links in e-mails point at. */
  publicUrl: string;
  /** Enqueues follow-up jobs (notify e-mails, the detection and evaluation after an ingest). */
  enqueue: Enqueue;
  /** Invalidates cached chart answers of a billing account after its ingest. */
  chartCache: Pick<ChartCache, 'invalidate'>;
  /** Billing sources beyond the local ones (the real BigQuery export, when configured). */
  billingSources: BillingSourceDeps;
  /** ERROR_LOG_RETENTION_DAYS: screen crashes older than this are deleted by the maintenance job. */
  errorLogRetentionDays: number;
  /** NIGHTLY_INGEST_DAYS and NIGHTLY_INGEST_CLOSE_DAY: the windows the nightly ingest reads again. */
  nightlyIngest: { days: number; closeDay: number };
  /** Ticket system of record (Jira Cloud or the local one). */
  ticketSystem: TicketSystem;
  /** Where ticket attachment bytes are read from. */
  attachmentStore: AttachmentStore;
  /** System Health dashboards (MONITORING=local|grafana). */
  monitoringService: MonitoringService;
  /** Seals stored secrets (the monitoring password) with SECRETS_KEY. */
  secretBox: SecretBox;
  /** A customer's granted GCP projects (CLOUD_PROJECTS=local|real). */
  cloudProjects: CloudProjects;
  /** The cloud requested projects are created in (Google or the local one) and the chain's settings. */
  provisioning: { cloud: CloudProvisioning; cpuRegion: string; pollIntervalMs: number; maxPolls: number };
  /** Cloud inventory of a customer (local estate or Cloud Asset Inventory + Recommender). */
  inventorySource: InventorySource;
  /** Google Workspace seats (the Reseller and License Manager APIs, or the local tenant). */
  workspace: Workspace;
  /** Exchange rates (FX_RATES=local|ecb) and the drop of every cached chart once new rates are stored. */
  fxRates: { source: FxRatesSource; invalidateCharts: () => Promise<void> };
  /** What a notification channel's URL may reach (production: https and public addresses only). */
  channelSendPolicy: SendPolicy;
}

/** The dependencies of each queue's job. */
export const JOB_DEPS = {
  notify: ['pool', 'mailer', 'mailDomain'],
  'notify-channel': ['pool', 'secretBox', 'enqueue', 'channelSendPolicy'],
  maintenance: ['pool', 'enqueue', 'errorLogRetentionDays'],
  'billing-ingest': ['pool', 'billingSources', 'chartCache', 'enqueue'],
  'billing-nightly': ['pool', 'billingSources', 'enqueue', 'nightlyIngest'],
  'anomaly-detect': ['pool', 'enqueue', 'publicUrl'],
  'alert-evaluate': ['pool', 'enqueue', 'publicUrl'],
  'ticket-sync': ['pool', 'ticketSystem', 'attachmentStore', 'enqueue', 'publicUrl'],
  monitoring: ['pool', 'monitoringService', 'secretBox', 'cloudProjects'],
  provisioning: ['pool', 'provisioning', 'enqueue', 'publicUrl'],
  'inventory-sync': ['pool', 'inventorySource', 'enqueue'],
  'inventory-claims': ['pool', 'inventorySource'],
  license: ['pool', 'workspace', 'enqueue', 'publicUrl'],
  'fx-rates': ['pool', 'fxRates'],
} as const satisfies Record<QueueName, readonly (keyof WorkerDeps)[]>;

/** What the jobs of the queues Q need, all of it required. */
export type DepsOf<Q extends QueueName> = Pick<WorkerDeps, (typeof JOB_DEPS)[Q][number]>;

/** The dependencies the queues need but `deps` lacks (a caller outside the type checker, or an `undefined` let through). */
export function missingDeps(queues: readonly QueueName[], deps: Partial<WorkerDeps>): string[] {
  return queues.flatMap((q) => JOB_DEPS[q].filter((d) => deps[d] === undefined).map((d) => `${q} needs ${d}`));
}
