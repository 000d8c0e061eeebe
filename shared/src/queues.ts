/**
 * The queue registry: the contract between api (producers) and workers (consumers).
 * Names, typed payloads (TypeBox, checked by the worker before acting), default job options and
 * job-id rules live here once. A new queue is a new entry with a doc comment saying what it does (the queue
 * table of docs/ARCHITECTURE.md is generated from it by `make docs-config`; workers/README.md: handler, deps,
 * producer call); producers enqueue through producer.ts, workers receive `JobFor<Q>` in their `Handler<Q>`.
 */
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { EMAIL_PATTERN } from './constants.ts';
import { Value } from '@sinclair/typebox/value';
import type { Job, JobsOptions } from 'bullmq';
import { TicketSyncCommand, ticketSyncJobId } from './commands/ticket-sync.ts';
import { BillingIngestCommand } from './commands/billing-ingest.ts';
import { MonitoringCommand, monitoringJobId } from './commands/monitoring.ts';
import { ProvisioningCreateCommand, provisioningJobId } from './commands/provisioning.ts';
import { INVENTORY_SYNC_OPTIONS, InventoryClaimsCommand, InventorySyncCommand, inventoryClaimsJobId, inventorySyncJobId } from './commands/inventory.ts';

export const NotifyCommand = Type.Object({
  to: Type.Array(Type.String({ pattern: EMAIL_PATTERN }), { minItems: 1 }),
  subject: Type.String({ minLength: 1 }),
  text: Type.String(),
  html: Type.Optional(Type.String()),
  /** Idempotency key: the same key never sends twice (e.g. `alert-{id}-{month}`). */
  key: Type.String({ minLength: 1, pattern: '^[^:]+$' }),
});
export type NotifyCommand = Static<typeof NotifyCommand>;

/** One attempt of one delivery of a notice to a notification channel (a row of channel_delivery). */
export const NotifyChannelCommand = Type.Object({
  delivery_id: Type.String({ pattern: '^[0-9a-f-]{36}$' }),
  /** The attempt this job makes; a job of an attempt the row has left behind ends without sending. */
  attempt: Type.Integer({ minimum: 1, maximum: 1000 }),
});
export type NotifyChannelCommand = Static<typeof NotifyChannelCommand>;

interface QueueDefinition<S extends TSchema, N extends string> {
  /** The one job name within the queue (dotted verb). */
  job: N;
  payload: S;
  /** Deterministic id: the same command never runs as two jobs. */
  jobId: (data: Static<S>) => string;
  options?: JobsOptions;
}

const define = <S extends TSchema, const N extends string>(d: QueueDefinition<S, N>) => d;

export const MaintenanceCommand = Type.Object({
  /** The scheduled day (YYYY-MM-DD, US/Pacific), so each night's run has its own id. */
  day: Type.Optional(Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' })),
});

const ISO_DATE = '^\\d{4}-\\d{2}-\\d{2}$';

/** Reads the seats of one customer's licenses (or every customer's) from Workspace, then places the automatic orders due. */
export const LicenseSyncCommand = Type.Object({
  customer_id: Type.Optional(Type.String({ minLength: 1 })),
});
export type LicenseSyncCommand = Static<typeof LicenseSyncCommand>;

/** Detects anomalies for one customer (or every customer with anomaly_detection on) for one day. */
export const AnomalyDetectCommand = Type.Object({
  customer_id: Type.Optional(Type.String({ minLength: 1 })),
  /** The judged US/Pacific day (default: two days before today). */
  date: Type.Optional(Type.String({ pattern: ISO_DATE })),
});
export type AnomalyDetectCommand = Static<typeof AnomalyDetectCommand>;

/** Compares month-to-date spend with the alert quotas of one customer (or all) and sends first-crossing notices. */
export const AlertEvaluateCommand = Type.Object({
  customer_id: Type.Optional(Type.String({ minLength: 1 })),
  billing_account_id: Type.Optional(Type.String({ minLength: 1 })),
  /** The US/Pacific day whose month is evaluated (default: today). */
  day: Type.Optional(Type.String({ pattern: ISO_DATE })),
});
export type AlertEvaluateCommand = Static<typeof AlertEvaluateCommand>;

/** Loads exchange rates from the configured source (FX_RATES) from `since` on (default: a week before the last stored fixing). */
export const FxRatesCommand = Type.Object({
  since: Type.Optional(Type.String({ pattern: ISO_DATE })),
});
export type FxRatesCommand = Static<typeof FxRatesCommand>;

/** Queues the night's billing ingests: every account with a configured source, recent days (and last month early on). */
export const BillingNightlyCommand = Type.Object({
  /** The night's US/Pacific day (default: today when the job runs); the windows end the day before. */
  day: Type.Optional(Type.String({ pattern: ISO_DATE })),
});
export type BillingNightlyCommand = Static<typeof BillingNightlyCommand>;

// Azure billing account ids may contain ':', which BullMQ ids may not; a file is named by its path, readable in bull-board.
const idPart = (s: string) => s.replace(/[^A-Za-z0-9._-]+/g, '_');
const billingIngestJobId = (d: BillingIngestCommand) =>
  d.source === 'focus-file'
    ? `ingest-${idPart(d.billing_account_id)}-file-${idPart(d.file ?? '')}${d.file_version ? `-${d.file_version}` : d.file_sha256 ? `-${d.file_sha256.slice(0, 16)}` : ''}`
    : `ingest-${idPart(d.billing_account_id)}-${d.source}-${d.from ?? 'default'}-${d.to ?? 'default'}`;

export const QUEUES = {
  /**
   * Sends one e-mail through the Mailer port; the only place that sends mail. A key is sent once ever (`mail_sent`).
   */
  notify: define({ job: 'notify.send', payload: NotifyCommand, jobId: (d) => `notify-${d.key}` }),
  /**
   * Delivers one notice to a notification channel (signed webhook, Slack, Microsoft Teams), one attempt per job: a
   * failure worth retrying queues the next attempt (backoff, Retry-After) until a day has passed, then gives up.
   */
  'notify-channel': define({ job: 'notify.channel', payload: NotifyChannelCommand, jobId: (d) => `channel-${d.delivery_id}-${d.attempt}` }),
  /**
   * Housekeeping: drops expired token revocations and sessions past their end; re-queues project requests whose
   * provisioning job was lost.
   */
  maintenance: define({ job: 'maintenance.purge', payload: MaintenanceCommand, jobId: (d) => `maintenance-${d.day ?? 'now'}` }),
  /**
   * Streams a billing source into `cost_line` in one transaction (a windowed source replaces by account, day and
   * provider; a FOCUS export replaces its billing periods, a correction file appends), refreshes the rollups, clears
   * the account's cached charts and queues `anomaly-detect` and `alert-evaluate`.
   */
  'billing-ingest': define({ job: 'billing.ingest', payload: BillingIngestCommand, jobId: billingIngestJobId }),
  /**
   * Queues one `billing-ingest` per account with a configured source: recent days, and last month up to the close
   * day (see workers/src/jobs/billing-nightly.ts).
   */
  'billing-nightly': define({ job: 'billing.nightly', payload: BillingNightlyCommand, jobId: (d) => `billing-nightly-${d.day ?? 'today'}-${Date.now()}` }),
  /**
   * Finds the day's spend anomalies over the rollups and stores them (`anomaly`); new ones are e-mailed through
   * `notify`.
   */
  'anomaly-detect': define({
    job: 'anomaly.detect',
    payload: AnomalyDetectCommand,
    jobId: (d) => `anomaly-${idPart(d.customer_id ?? 'all')}-${d.date ?? 'default'}-${Date.now()}`,
  }),
  /**
   * Month-to-date spend against alert quotas; the first crossing per alert and month is e-mailed through `notify`.
   * Also queued after every ingest.
   */
  'alert-evaluate': define({
    job: 'alert.evaluate',
    payload: AlertEvaluateCommand,
    jobId: (d) => `alert-${idPart(d.customer_id ?? 'all')}-${idPart(d.billing_account_id ?? 'all')}-${d.day ?? 'today'}-${Date.now()}`,
  }),
  /**
   * Exchange rates of FX_RATES (ECB reference-rate files or a rates CSV) into `fx_rate` with their source; then
   * drops every cached chart.
   */
  'fx-rates': define({ job: 'fx.rates', payload: FxRatesCommand, jobId: (d) => `fx-rates-${d.since ?? 'latest'}-${Date.now()}` }),
  /**
   * Writes to the ticket system of record (Jira or the local one): create, comment, push, attachment; `pull` reads
   * what changed there.
   */
  'ticket-sync': define({ job: 'ticket.sync', payload: TicketSyncCommand, jobId: ticketSyncJobId }),
  /**
   * Initialises or rebuilds one customer's System Health dashboard (Grafana organisation, user, folder, data source
   * and dashboards, or the built-in page's password); the api route waits for it.
   */
  monitoring: define({ job: 'monitoring.provision', payload: MonitoringCommand, jobId: monitoringJobId }),
  /**
   * Walks an approved project request through the provisioning chain (Google or the local cloud), resuming at its
   * recorded step; e-mails Active / Failed through `notify`.
   */
  provisioning: define({ job: 'provisioning.create', payload: ProvisioningCreateCommand, jobId: provisioningJobId }),
  /**
   * Reads a customer's cloud inventory (assets, recommendations) and replaces its snapshot atomically; without a
   * customer, fans out.
   */
  'inventory-sync': define({ job: 'inventory.sync', payload: InventorySyncCommand, jobId: inventorySyncJobId, options: INVENTORY_SYNC_OPTIONS }),
  /**
   * Sends markClaimed / markSucceeded to Recommender for recommendations that support tickets took on; also queued
   * after ticket changes.
   */
  'inventory-claims': define({ job: 'inventory.claims', payload: InventoryClaimsCommand, jobId: inventoryClaimsJobId }),
  /**
   * Workspace seats into `license`, then one automatic order per threshold crossing (e-mailed through `notify`);
   * also queued after a license change or approval.
   */
  license: define({ job: 'license.sync', payload: LicenseSyncCommand, jobId: (d) => `license-${idPart(d.customer_id ?? 'all')}-${Date.now()}` }),
} as const;

export type QueueName = keyof typeof QUEUES;
export type JobName<Q extends QueueName> = (typeof QUEUES)[Q]['job'];
export type QueuePayload<Q extends QueueName> = Static<(typeof QUEUES)[Q]['payload']>;
export const QUEUE_NAMES = Object.keys(QUEUES) as QueueName[];

/** Every job of the registry: a queue, its job name and the payload type, discriminated by `queue`. */
export type JobItem = { [Q in QueueName]: { queue: Q; name: JobName<Q>; data: QueuePayload<Q> } }[QueueName];
export type JobOf<Q extends QueueName> = Extract<JobItem, { queue: Q }>;

/** A job of queue Q as its handler receives it: the payload already passed the registry's check. */
export type JobFor<Q extends QueueName> = Job<JobOf<Q>['data'], unknown, JobOf<Q>['name']>;
/** The worker side of one queue. */
export type Handler<Q extends QueueName> = (job: JobFor<Q>) => Promise<unknown>;
/** One handler per queue served. */
export type Handlers<Q extends QueueName = QueueName> = { [K in Q]: Handler<K> };

/** Nightly work, installed by the worker as BullMQ job schedulers (upserted, so restarts never duplicate them). */
export const SCHEDULES: ({ id: string; pattern: string } & JobItem)[] = [
  { id: 'maintenance-nightly', queue: 'maintenance', name: 'maintenance.purge', pattern: '0 3 * * *', data: {} },
  // Before anomaly detection and alert evaluation; each ingest queues them for its account too.
  { id: 'billing-ingest-nightly', queue: 'billing-nightly', name: 'billing.nightly', pattern: '0 2 * * *', data: {} },
  // Yesterday's ECB fixing (published ~16:00 CET) is in before the detection and evaluation convert with it.
  { id: 'fx-rates-nightly', queue: 'fx-rates', name: 'fx.rates', pattern: '0 4 * * *', data: {} },
  // Also re-queues project requests whose provisioning job was lost (an approval saved while Redis was down).
  { id: 'maintenance-requeue', queue: 'maintenance', name: 'maintenance.purge', pattern: '*/10 * * * *', data: {} },
  // After the nightly billing export has landed (the exports settle within a day or two).
  { id: 'anomaly-detect-nightly', queue: 'anomaly-detect', name: 'anomaly.detect', pattern: '30 5 * * *', data: {} },
  { id: 'alert-evaluate-nightly', queue: 'alert-evaluate', name: 'alert.evaluate', pattern: '0 6 * * *', data: {} },
  { id: 'ticket-sync-pull', queue: 'ticket-sync', name: 'ticket.sync', pattern: '*/5 * * * *', data: { op: 'pull' } },
  // Recommender refreshes its recommendations daily; the fan-out enqueues one sync per customer with inventory on.
  { id: 'inventory-sync-nightly', queue: 'inventory-sync', name: 'inventory.sync', pattern: '0 4 * * *', data: {} },
  // Catches ticket keys and statuses the ticket sync pulled in (the api enqueues at once for changes made here).
  { id: 'inventory-claims-sweep', queue: 'inventory-claims', name: 'inventory.claims', pattern: '*/10 * * * *', data: {} },
  { id: 'license-sync-nightly', queue: 'license', name: 'license.sync', pattern: '30 4 * * *', data: {} },
];
export const SCHEDULE_TIME_ZONE = 'America/Los_Angeles';

/**
 * Defaults for every job (STYLE: attempts 5, exponential backoff with jitter, keep failures for inspection). The
 * attempts count failures of the work only: an attempt cut short by a PostgreSQL or Redis outage is deferred without
 * counting (workers/src/reliability/deferral.ts), so an outage of any length does not use them up.
 */
export const DEFAULT_JOB_OPTIONS: JobsOptions = {
  attempts: 5,
  backoff: { type: 'exponential', delay: 1000, jitter: 0.5 },
  removeOnComplete: true,
  removeOnFail: false,
};

export function jobOptions<Q extends QueueName>(queue: Q, data: QueuePayload<Q>): JobsOptions {
  const def = QUEUES[queue] as unknown as QueueDefinition<TSchema, string>;
  const jobId = def.jobId(data);
  if (jobId.includes(':') || /^\d+$/.test(jobId)) throw new Error(`invalid job id '${jobId}' for queue ${queue}`);
  return { ...DEFAULT_JOB_OPTIONS, ...def.options, jobId };
}

/** Checks a job's payload against the registry; returns a message for the first error, or null. */
export function payloadError<Q extends QueueName>(queue: Q, data: unknown): string | null {
  const schema = QUEUES[queue].payload;
  if (Value.Check(schema, data)) return null;
  const first = Value.Errors(schema, data).First();
  return first ? `${first.path || '/'} ${first.message}` : 'invalid payload';
}

export function parseQueueList(names: string[]): QueueName[] {
  if (names.length === 0) return QUEUE_NAMES;
  for (const n of names) {
    if (!(QUEUE_NAMES as string[]).includes(n)) throw new Error(`WORKER_QUEUES names unknown queue '${n}' (known: ${QUEUE_NAMES.join(', ')})`);
  }
  return names as QueueName[];
}
