import { createServer } from 'node:http';
import { loadConfigOrExit } from '@cc/shared/config.ts';
import { createPool } from '@cc/shared/db/pool.ts';
import { parseQueueList } from '@cc/shared/queues.ts';
import { createProducer } from '@cc/shared/producer.ts';
import { chartCache } from '@cc/shared/billing/chart-cache.ts';
import { createLogger } from '@cc/shared/logger.ts';
import { redisOutage } from '@cc/shared/redis.ts';
import { buildHandlers } from './handlers.ts';
import { startWorkers } from './worker-host.ts';
import { mailerFromConfig } from '@cc/shared/adapters/mail/from-config.ts';
import { ticketSystemFromConfig } from '@cc/shared/adapters/jira/from-config.ts';
import { attachmentStoreFromConfig } from '@cc/shared/adapters/attachment-store/from-config.ts';
import { workspaceFromConfig } from '@cc/shared/adapters/workspace/from-config.ts';
import { gcpBillingExportFromConfig } from '@cc/shared/adapters/bigquery/from-config.ts';
import { secretBoxFromConfig } from '@cc/shared/secrets-key.ts';
import { exportStoresFromConfig } from '@cc/shared/adapters/billing-exports/from-config.ts';
import { monitoringServiceFromConfig } from '@cc/shared/adapters/monitoring/from-config.ts';
import { cloudProjectsFromConfig } from '@cc/shared/adapters/cloud-projects/from-config.ts';
import { cloudProvisioningFromConfig, provisioningSettingsFromConfig } from '@cc/shared/adapters/provisioning/from-config.ts';
import { inventorySourceFromConfig } from '@cc/shared/adapters/inventory/from-config.ts';
import { fxRatesFromConfig } from '@cc/shared/adapters/fx-rates/from-config.ts';
import { requeueStalledProvisioning } from '@cc/shared/provisioning/requeue.ts';
import { durableEnqueue } from '@cc/shared/outbox.ts';
import { markOutboxDone } from '@cc/shared/db/outbox.ts';
import { startReconciler } from './reliability/reconciler.ts';

const config = loadConfigOrExit();

const log = createLogger(config.LOG_LEVEL, { process: 'worker' });
// A Redis outage is logged once when it starts and once when it ends, by every connection's shared record.
redisOutage.useLogger(log);
const queues = parseQueueList(config.WORKER_QUEUES);
// No statement_timeout: the rollup rebuild of a large ingest runs for minutes. A dead worker's statements still stop
// (client_connection_check_interval) and a forgotten transaction ends (idle_in_transaction_session_timeout).
const pool = createPool(config.DATABASE_URL, 10, { idleInTransactionMs: config.DB_IDLE_IN_TRANSACTION_MS, connectionCheckMs: config.DB_CONNECTION_CHECK_MS });
// MAIL=local: the local mail server is served once per machine; a second worker sends to the first one's (or `make
// start`'s mail process) server.
const mail = await mailerFromConfig(config, pool, queues.includes('notify'));
const mailer = mail.mailer;
const producer = createProducer(config.REDIS_URL, config.QUEUE_PREFIX, (err) => log.warn({ err }, 'redis connection error (producer)'));
// Follow-ups (e-mails, detections) are recorded in the outbox before BullMQ sees them: a Redis outage loses none.
const enqueue = durableEnqueue(pool, producer, { onPublishError: (err, row) => log.warn({ err, ...row }, 'enqueue deferred to the reconciler') });

const host = await startWorkers({
  redisUrl: config.REDIS_URL,
  prefix: config.QUEUE_PREFIX,
  queues,
  handlers: buildHandlers(queues, {
    pool,
    mailer,
    mailDomain: new URL(config.PUBLIC_URL).hostname,
    publicUrl: config.PUBLIC_URL,
    enqueue,
    chartCache: chartCache(producer.redis, config.QUEUE_PREFIX, log),
    // drop-dir files are checked again in the worker: the folder may change after the api looked
    billingSources: {
      dropDir: config.INGEST_DROP_DIR,
      bigquery: await gcpBillingExportFromConfig(config),
      exportStores: await exportStoresFromConfig(secretBoxFromConfig(config), { localDir: config.BILLING_EXPORTS === 'local' ? config.BILLING_EXPORTS_DIR : undefined }),
    },
    nightlyIngest: { days: config.NIGHTLY_INGEST_DAYS, closeDay: config.NIGHTLY_INGEST_CLOSE_DAY },
    errorLogRetentionDays: config.ERROR_LOG_RETENTION_DAYS,
    ticketSystem: ticketSystemFromConfig(config, pool),
    attachmentStore: attachmentStoreFromConfig(config),
    monitoringService: monitoringServiceFromConfig(config),
    secretBox: secretBoxFromConfig(config),
    cloudProjects: cloudProjectsFromConfig(config, pool),
    provisioning: { cloud: await cloudProvisioningFromConfig(config, pool), ...provisioningSettingsFromConfig(config) },
    inventorySource: await inventorySourceFromConfig(config, pool),
    workspace: await workspaceFromConfig(config, pool),
    fxRates: { source: fxRatesFromConfig(config), invalidateCharts: () => chartCache(producer.redis, config.QUEUE_PREFIX, log).invalidateRates() },
    channelSendPolicy: { production: config.NODE_ENV === 'production' },
  }),
  installSchedules: true,
  logger: log,
  stalled: { lockDurationMs: config.WORKER_LOCK_MS, stalledIntervalMs: config.WORKER_STALLED_CHECK_MS, maxStalledCount: config.WORKER_MAX_STALLED },
  onJobDone: (queue, jobId, error) => markOutboxDone(pool, queue, jobId, error),
});

const reconciler = startReconciler({
  pool,
  producer,
  queues,
  intervalMs: config.OUTBOX_RECONCILE_MS,
  lostAfterMs: config.OUTBOX_LOST_AFTER_MS,
  scheduleEveryMs: config.SCHEDULE_RECONCILE_MS,
  ingestStaleSeconds: config.INGEST_STALE_SECONDS,
  log,
});

// Approved requests whose job never reached Redis (the maintenance job looks again every 10 minutes).
if (queues.includes('provisioning')) {
  requeueStalledProvisioning(pool, producer.enqueue).then(
    (ids) => ids.length > 0 && log.info({ requests: ids }, 'provisioning jobs re-queued'),
    (err: unknown) => log.warn({ err }, 'provisioning re-queue failed; the maintenance job tries again'),
  );
}

const metricsServer = createServer((req, res) => {
  if (req.url !== '/metrics') {
    res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ detail: 'Not found' }));
    return;
  }
  host.metrics.metrics().then(
    (body) => res.writeHead(200, { 'content-type': host.metrics.contentType }).end(body),
    () => res.writeHead(500).end(),
  );
}).listen(config.WORKER_METRICS_PORT, '127.0.0.1');

let stopping = false;
const shutdown = async (signal: string) => {
  if (stopping) return;
  stopping = true;
  log.info({ signal }, 'shutting down: finishing active jobs');
  await reconciler.stop();
  await host.close();
  await producer.close();
  metricsServer.close();
  await mail.close();
  await pool.end();
  process.exit(0);
};
process.once('SIGINT', () => void shutdown('SIGINT'));
process.once('SIGTERM', () => void shutdown('SIGTERM'));
