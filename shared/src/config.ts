/**
 * The one place that reads process.env (and `.env`). Every setting is validated once at start-up; a bad
 * value stops the process with a message naming the variable, so misconfiguration never surfaces later
 * as a confusing runtime error.
 *
 * Longer than 300 lines on purpose: it is the list of every setting with its parser, default and production rule,
 * which README's settings table and .env.example are generated from (infra/scripts/config-table.ts); split by area,
 * the list would lose the one-look review that the production refusals rely on.
 */
import { readFileSync } from 'node:fs';
import { parseEnv } from 'node:util';
import { MIN_KEY_LENGTH } from './secret-box.ts';
import { parseHostList, parseRedisTarget } from './redis.ts';

export class ConfigError extends Error {}

type Parser<T> = (raw: string, name: string) => T;

const str: Parser<string> = (raw) => raw;
const int =
  (min: number, max: number): Parser<number> =>
  (raw, name) => {
    const n = Number(raw);
    if (!/^\d+$/.test(raw) || n < min || n > max) {
      throw new ConfigError(`${name} must be an integer between ${min} and ${max}, got '${raw}'`);
    }
    return n;
  };
const oneOf =
  <T extends string>(...values: T[]): Parser<T> =>
  (raw, name) => {
    if (!(values as string[]).includes(raw)) {
      throw new ConfigError(`${name} must be one of ${values.join(', ')}, got '${raw}'`);
    }
    return raw as T;
  };
const url =
  (...protocols: string[]): Parser<string> =>
  (raw, name) => {
    let parsed: URL;
    try {
      parsed = new URL(raw);
    } catch {
      throw new ConfigError(`${name} must be a URL, got '${raw}'`);
    }
    if (!protocols.includes(parsed.protocol)) {
      throw new ConfigError(`${name} must use ${protocols.join(' or ')}, got '${parsed.protocol}'`);
    }
    return raw.replace(/\/$/, '');
  };
/** REDIS_URL: one server (redis:, rediss:), a Sentinel group (redis+sentinel:) or a Cluster (redis+cluster:). */
const redisUrl: Parser<string> = (raw, name) => {
  if (!raw.startsWith('redis+')) return url('redis:', 'rediss:')(raw, name);
  try {
    parseRedisTarget(raw);
  } catch (err) {
    throw new ConfigError(`${name} ${(err as Error).message}, got '${raw}'`);
  }
  return raw;
};
/** A comma-separated host:port list that may stay empty. */
const hostList: Parser<string> = (raw, name) => {
  if (raw === '') return '';
  try {
    parseHostList(raw);
  } catch (err) {
    throw new ConfigError(`${name}: ${(err as Error).message}`);
  }
  return raw;
};
/** 'P1=1h,P2=4h,P3=24h,P4=48h': hours per ticket priority, every priority named once; minutes out. */
const firstResponseTargets: Parser<Record<'P1' | 'P2' | 'P3' | 'P4', number>> = (raw, name) => {
  const out: Record<string, number> = {};
  for (const part of raw.split(',').map((p) => p.trim())) {
    const m = /^(P[1-4])=(\d{1,4})h$/.exec(part);
    if (!m || m[1] in out || Number(m[2]) < 1) throw new ConfigError(`${name} must be like P1=1h,P2=4h,P3=24h,P4=48h (whole hours, at least 1), got '${raw}'`);
    out[m[1]] = Number(m[2]) * 60;
  }
  if (Object.keys(out).length !== 4) throw new ConfigError(`${name} must name P1, P2, P3 and P4, got '${raw}'`);
  return out as Record<'P1' | 'P2' | 'P3' | 'P4', number>;
};
/** A URL setting that may stay empty (the feature using it is off). */
const optionalUrl =
  (...protocols: string[]): Parser<string> =>
  (raw, name) =>
    raw === '' ? '' : url(...protocols)(raw, name);
const list: Parser<string[]> = (raw) =>
  raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

interface Setting<T> {
  parse: Parser<T>;
  default: string;
  doc: string;
}
const setting = <T>(parse: Parser<T>, def: string, doc: string): Setting<T> => ({ parse, default: def, doc });

/** Every environment variable the product reads, its default and meaning (README's table is generated from this). */
export const SETTINGS = {
  NODE_ENV: setting(oneOf('development', 'production', 'test'), 'development', 'development, production or test'),
  HOST: setting(str, '127.0.0.1', 'address the api listens on (0.0.0.0 publishes it on every interface)'),
  PORT: setting(int(0, 65535), '8080', 'port the api (and the built web app) listens on'),
  PUBLIC_URL: setting(url('http:', 'https:'), 'http://localhost:8080', 'address users reach the product at (links in e-mails, OIDC redirect)'),
  DATABASE_URL: setting(url('postgres:', 'postgresql:'), 'postgres://postgres@127.0.0.1:5432/commandcenter', 'PostgreSQL connection'),
  DATABASE_READ_URL: setting(optionalUrl('postgres:', 'postgresql:'), '', 'PostgreSQL read replica (streaming standby) the read-only routes (charts, exports, lists, System Health figures) read from once it has replayed every write acknowledged before the request; empty: everything on DATABASE_URL (docs/scaling.md)'),
  DATABASE_READ_WAIT_MS: setting(int(0, 60000), '250', 'how long a read waits for the replica to replay a write it must show before it is answered by the primary instead'),
  REDIS_URL: setting(redisUrl, 'redis://127.0.0.1:6379', 'Redis connection (queues and caches only): redis:// one server, redis+sentinel://host:port,host:port/<master name> a Sentinel group, redis+cluster://host:port,host:port a Cluster (docs/scaling.md)'),
  REDIS_SENTINELS: setting(hostList, '', 'Sentinel group as host:port,host:port (with REDIS_SENTINEL_NAME); replaces REDIS_URL’s host'),
  REDIS_SENTINEL_NAME: setting(str, '', 'name of the Sentinel-monitored primary (REDIS_SENTINELS)'),
  REDIS_CLUSTER_NODES: setting(hostList, '', 'Redis Cluster seed nodes as host:port,host:port; replaces REDIS_URL, and QUEUE_PREFIX gets hash tags (one per queue)'),
  QUEUE_PREFIX: setting(str, 'cc', 'BullMQ key prefix; tests use a unique one per run'),
  WORKER_QUEUES: setting(list, '', 'comma-separated queues this worker takes; empty = all'),
  WORKER_METRICS_PORT: setting(int(0, 65535), '9464', 'port of the worker’s Prometheus /metrics'),
  INGEST_DROP_DIR: setting(str, 'var/ingest', 'directory the admin ingest route may read billing files from (paths outside it are refused)'),
  FX_RATES: setting(oneOf('local', 'ecb'), 'local', 'exchange rates for converting spend into a customer’s billing currency: local (FX_RATES_FILE, default the demo rates) or ecb (the ECB’s reference-rate files, nightly fx-rates job)'),
  FX_RATES_FILE: setting(str, '', 'rates CSV (layout of the ECB’s eurofxref-hist.csv) read by FX_RATES=local; empty: infra/data/fx/demo-rates.csv, shown as demo rates'),
  ECB_RATES_URL: setting(str, 'https://www.ecb.europa.eu/stats/eurofxref', 'where FX_RATES=ecb reads eurofxref-daily.xml and eurofxref-hist.zip (a test server in tests)'),
  BILLING_BIGQUERY_PROJECT: setting(str, '', 'GCP project the worker runs BigQuery billing-export queries in (empty: BigQuery source off)'),
  BILLING_BIGQUERY_DATASET: setting(str, '', 'project.dataset holding the gcp_billing_export_v1_<ACCOUNT> tables (empty: BigQuery source off)'),
  BILLING_BIGQUERY_LOCATION: setting(str, '', 'BigQuery location of the billing export dataset (e.g. EU; empty: default)'),
  BILLING_EXPORTS: setting(oneOf('local', 'real'), 'local', 'where the AWS Data Exports and Azure Cost Management exports configured per billing account are read: local (BILLING_EXPORTS_DIR, laid out as the bucket or container would be; the demo) or real (S3 and Blob Storage)'),
  BILLING_EXPORTS_DIR: setting(str, 'var/billing-exports', 'folder holding one subfolder per S3 bucket or Azure container (BILLING_EXPORTS=local); the seed writes the demo exports there'),
  NIGHTLY_INGEST_DAYS: setting(int(1, 60), '3', 'days before today the nightly billing ingest reads again (exports settle late)'),
  NIGHTLY_INGEST_CLOSE_DAY: setting(int(0, 28), '5', 'up to this day of the month the nightly ingest also reads the whole previous month (invoice close; 0: never)'),
  JWT_SECRET: setting(str, '', 'HMAC key for access tokens (at least 32 characters); empty: generated at first start and kept in JWT_SECRET_FILE (required in production)'),
  JWT_SECRET_FILE: setting(str, 'var/jwt-secret', 'file (mode 600) keeping the generated JWT_SECRET when none is set'),
  TOKEN_TTL_SECONDS: setting(int(60, 86400), '3600', 'access token lifetime; the web refreshes every 3,540,000 ms'),
  SESSION_MAX_HOURS: setting(int(1, 8760), '12', 'absolute lifetime of a sign-in session: refreshing never extends it past this'),
  LOGIN_MAX_FAILURES: setting(int(1, 10000), '10', 'failed sign-ins per account before it is locked for LOGIN_LOCKOUT_MINUTES (answered 429 with Retry-After)'),
  LOGIN_MAX_FAILURES_PER_ADDRESS: setting(int(1, 100000), '50', 'failed sign-ins per client address before that address is locked for LOGIN_LOCKOUT_MINUTES'),
  LOGIN_LOCKOUT_MINUTES: setting(int(1, 1440), '15', 'window of the sign-in failure counts and length of a lockout'),
  ERROR_LOG_RETENTION_DAYS: setting(int(1, 3650), '30', 'days the screen crash log (POST /v1/logs) is kept; the maintenance job deletes older entries'),
  TRUST_PROXY: setting(list, '', 'comma-separated addresses or subnets of the reverse proxies whose X-Forwarded-For is believed (empty: none, the socket address is the client)'),
  METRICS_TOKEN: setting(str, '', 'bearer token Prometheus sends to read the api’s /metrics (admins may read it too); empty: /metrics open outside production, admins only in production'),
  DOCS: setting(oneOf('auto', 'on', 'off'), 'auto', 'API docs at /docs: auto (on, except in production), on or off'),
  OIDC: setting(oneOf('local', 'real'), 'local', 'social sign-in provider: local (in-process OpenID provider for development, checks the stored passwords; refused in production) or real'),
  OIDC_ISSUER: setting(str, '', 'issuer URL of the real OpenID provider (default: the local one at PUBLIC_URL/oidc)'),
  OIDC_CLIENT_ID: setting(str, 'commandcenter', 'OpenID client id'),
  OIDC_CLIENT_SECRET: setting(str, '', 'OpenID client secret (required when OIDC=real; with OIDC=local a random one per process)'),
  TICKETS: setting(oneOf('local', 'jira'), 'local', 'ticket system of record: local (tickets kept in PostgreSQL) or jira (Jira Cloud REST v3)'),
  JIRA_SITE: setting(str, '', 'Jira Cloud site, e.g. https://example.atlassian.net (TICKETS=jira)'),
  JIRA_EMAIL: setting(str, '', 'e-mail of the Jira account the portal acts as (Basic auth with JIRA_API_TOKEN)'),
  JIRA_API_TOKEN: setting(str, '', 'API token of that Jira account'),
  JIRA_PROJECT: setting(str, 'MSP', 'key of the Jira project tickets are created in (also the local ticket keys)'),
  JIRA_ISSUE_TYPE: setting(str, 'Task', 'issue type of new tickets'),
  JIRA_PRIORITIES: setting(str, 'P1=Highest,P2=High,P3=Medium,P4=Low', 'Jira priority name of each portal priority'),
  JIRA_SATISFACTION_FIELD: setting(str, '', 'id of the Jira number custom field holding customer satisfaction (e.g. customfield_10050); empty = not written'),
  JIRA_WEBHOOK_SECRET: setting(str, '', 'secret of the Jira webhook (X-Hub-Signature HMAC); empty = webhook refused'),
  ATTACHMENT_STORE: setting(oneOf('local', 'gcs'), 'local', 'where ticket attachments are kept: local disk (ATTACHMENT_DIR) or Google Cloud Storage'),
  ATTACHMENT_DIR: setting(str, 'var/attachments', 'directory of ticket attachments (ATTACHMENT_STORE=local)'),
  ATTACHMENT_BUCKET: setting(str, '', 'Google Cloud Storage bucket of ticket attachments (ATTACHMENT_STORE=gcs)'),
  ATTACHMENT_GCS_KEY_FILE: setting(str, '', 'service account JSON key file that signs Cloud Storage URLs (ATTACHMENT_STORE=gcs)'),
  ATTACHMENT_GCS_ENDPOINT: setting(url('https:', 'http:'), 'https://storage.googleapis.com', 'Cloud Storage endpoint (a test server in tests)'),
  UPLOAD_URL_TTL_SECONDS: setting(int(30, 86400), '900', 'how long a signed attachment upload URL stays valid'),
  MAIL: setting(oneOf('local', 'real'), 'local', 'local: in-process SMTP server storing mail in PostgreSQL; real: SMTP_URL'),
  SMTP_URL: setting(url('smtp:', 'smtps:'), 'smtp://127.0.0.1:2525', 'SMTP server the notify queue sends through'),
  LOCAL_SMTP_PORT: setting(int(0, 65535), '2525', 'port of the local SMTP server (MAIL=local)'),
  MAIL_FROM: setting(str, 'CommandCenter <no-reply@commandcenter.local>', 'sender of notification e-mails'),
  MAIL_RESEND_UNCERTAIN: setting(oneOf('false', 'true'), 'false', 'an e-mail whose sender died after handing the whole message to the SMTP relay and before recording its answer: false = counted as sent (at most once), true = sent again under the same Message-ID (at least once); docs/operations.md'),
  LOG_LEVEL: setting(oneOf('fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'), 'info', 'pino log level'),
  WEB_DIST: setting(str, 'web/dist', 'built web app served by the api'),
  INVITATION_TTL_HOURS: setting(int(1, 8760), '168', 'how long an invitation link (set password, verify e-mail) stays valid'),
  CLOUD_PROJECTS: setting(oneOf('local', 'real'), 'local', 'granted GCP projects of a customer: local (from its billing data) or real (Cloud Resource Manager as its service account)'),
  MONITORING: setting(oneOf('local', 'grafana'), 'local', 'System Health dashboards: local (built-in page) or grafana (provisioned through GRAFANA_URL)'),
  GRAFANA_URL: setting(optionalUrl('http:', 'https:'), '', 'Grafana root URL the worker provisions through (MONITORING=grafana)'),
  GRAFANA_PUBLIC_URL: setting(optionalUrl('http:', 'https:'), '', 'Grafana address users’ browsers reach (dashboard links); empty = GRAFANA_URL'),
  GRAFANA_ADMIN_USER: setting(str, 'admin', 'Grafana server admin the worker acts as (Basic auth)'),
  GRAFANA_ADMIN_PASSWORD: setting(str, '', 'that admin’s password (MONITORING=grafana)'),
  GRAFANA_GCM_KEY_DIR: setting(str, '', 'directory of {customer_id}.json service-account keys for the Cloud Monitoring data source; empty = impersonation'),
  SECRETS_KEY: setting(str, '', 'key sealing stored secrets (monitoring passwords, AES-256-GCM; at least 32 characters); empty: generated at first start and kept in SECRETS_KEY_FILE (required in production)'),
  SECRETS_KEY_FILE: setting(str, 'var/secrets-key', 'file (mode 600) keeping the generated SECRETS_KEY when none is set; api and worker read the same one'),
  SECRETS_KEY_PREVIOUS: setting(list, '', 'comma-separated earlier SECRETS_KEY values, still opened (key rotation)'),
  PROVISIONING: setting(oneOf('local', 'google'), 'local', 'where requested GCP projects are created: local (a small cloud kept in PostgreSQL) or google (the real APIs, application default credentials)'),
  PROVISIONING_LOCAL_DELAY_MS: setting(int(0, 600000), '2000', 'how long a local project creation operation runs before it is done (PROVISIONING=local)'),
  PROVISIONING_LOCAL_GRANTED_CPUS: setting(int(0, 100000), '24', 'Compute Engine CPUs the local cloud grants at once; more stay requested (PROVISIONING=local)'),
  PROVISIONING_CPU_REGION: setting(str, 'europe-west1', 'region of the Compute Engine CPU quota preference a provisioned project gets'),
  PROVISIONING_POLL_INTERVAL_MS: setting(int(1, 600000), '5000', 'pause between two looks at a project creation operation'),
  PROVISIONING_MAX_POLLS: setting(int(1, 1000), '12', 'looks at a creation operation per job attempt; then the attempt ends and the queue retries later'),
  INVENTORY: setting(oneOf('local', 'real'), 'local', 'asset inventory source: local (an estate built from the customer’s billing projects) or real (Cloud Asset Inventory and Recommender as its service account)'),
  // Workspace licenses and Playbook
  WORKSPACE: setting(oneOf('local', 'real'), 'local', 'Google Workspace seats: local (a tenant per domain kept in PostgreSQL) or real (Reseller and License Manager APIs)'),
  GOOGLE_WORKSPACE_KEY_FILE: setting(str, '', 'service account JSON key with domain-wide delegation (WORKSPACE=real, PLAYBOOK=real)'),
  WORKSPACE_ADMIN: setting(str, '', 'reseller admin the service account acts as (WORKSPACE=real)'),
  WORKSPACE_ROOT_URL: setting(str, '', 'root URL of the Reseller and License Manager APIs (empty: Google; a test server in tests)'),
  PLAYBOOK: setting(oneOf('local', 'real'), 'local', 'playbook documents: local (folders on disk) or real (Google Drive)'),
  PLAYBOOK_DIR: setting(str, 'var/playbooks', 'directory with one folder of documents per drive_id (PLAYBOOK=local)'),
  PLAYBOOK_BUILTIN_FOLDER: setting(str, 'builtin', 'folder listed for customers without a drive_id: a Drive folder id (PLAYBOOK=real); locally, builtin = the runbooks in infra/playbooks'),
  PLAYBOOK_SUBJECT: setting(str, '', 'user the service account acts as on Drive (PLAYBOOK=real; empty: the service account itself)'),
  PLAYBOOK_ROOT_URL: setting(str, '', 'root URL of the Drive API (empty: Google; a test server in tests)'),
  // The provider's own console (docs/decisions-operations.md)
  PROVIDER_CURRENCY: setting(oneOf('EUR', 'GBP', 'USD', 'DKK'), 'EUR', 'the provider’s reporting currency: the all-customers spend overview converts each customer’s daily spend into it at that day’s rate'),
  FIRST_RESPONSE_TARGETS: setting(firstResponseTargets, 'P1=1h,P2=4h,P3=24h,P4=48h', 'how long an open ticket of each priority may wait for its first response before the operations inbox lists it'),
  // Faults: stalled jobs, the outbox reconciler, orphaned statements (docs/operations.md)
  WORKER_LOCK_MS: setting(int(1000, 3600000), '30000', 'how long a job lock lasts without renewal (renewed every half of it while the job runs); a killed worker’s job is taken again after at most this plus WORKER_STALLED_CHECK_MS'),
  WORKER_STALLED_CHECK_MS: setting(int(500, 3600000), '15000', 'how often a worker looks for jobs whose lock expired (their worker died) and puts them back'),
  WORKER_MAX_STALLED: setting(int(1, 100), '5', 'how many times one job may be taken back from a dead worker before it fails (the handlers are idempotent)'),
  OUTBOX_RECONCILE_MS: setting(int(100, 3600000), '2000', 'how often a worker publishes pending outbox rows to the queues and re-queues jobs Redis lost'),
  OUTBOX_LOST_AFTER_MS: setting(int(100, 86400000), '60000', 'a published outbox job missing from Redis this long after publishing is queued again'),
  SCHEDULE_RECONCILE_MS: setting(int(1000, 86400000), '60000', 'how often a worker re-installs the nightly schedules (a Redis that lost them gets them back)'),
  INGEST_STALE_SECONDS: setting(int(1, 604800), '7200', 'an ingest batch still running after this long belongs to a dead worker and is marked failed'),
  DB_STATEMENT_TIMEOUT_MS: setting(int(0, 86400000), '60000', 'statement_timeout of the api’s database connections (0: none; workers run long rollups and have none)'),
  DB_IDLE_IN_TRANSACTION_MS: setting(int(0, 86400000), '300000', 'idle_in_transaction_session_timeout of every database connection: a transaction its process forgot releases its locks'),
  DB_CONNECTION_CHECK_MS: setting(int(0, 3600000), '5000', 'client_connection_check_interval: PostgreSQL stops a running statement this soon after its client died'),
};

type Settings = typeof SETTINGS;
export type Config = { [K in keyof Settings]: Settings[K] extends Setting<infer T> ? T : never };

/**
 * The variables the process sees: its environment over the `.env` file of the working directory (if there is
 * one). The environment wins so a one-off `PORT=9090 make start` or a deployment's settings are never
 * shadowed by a forgotten file. Node's own parser (`util.parseEnv`) reads it: same syntax as `node --env-file`.
 */
export function readEnvironment(file = '.env', env: NodeJS.ProcessEnv = process.env): Record<string, string | undefined> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { ...env };
    throw new ConfigError(`cannot read ${file}: ${(err as Error).message}`);
  }
  const fromFile = parseEnv(text);
  const merged: Record<string, string | undefined> = { ...fromFile };
  for (const [name, value] of Object.entries(env)) if (value !== undefined) merged[name] = value;
  return merged;
}

/** Reads and validates the configuration; throws ConfigError naming the first bad variable. */
export function loadConfig(env: Record<string, string | undefined> = readEnvironment(), overrides: Partial<Config> = {}): Config {
  const out: Record<string, unknown> = {};
  for (const [name, s] of Object.entries(SETTINGS) as [string, Setting<unknown>][]) {
    const raw = env[name];
    out[name] = s.parse(raw === undefined || raw === '' ? s.default : raw, name);
  }
  const config = { ...(out as Config), ...overrides };
  checkRedisShape(config);
  checkIdentity(config);
  if (config.TICKETS === 'jira') {
    for (const name of ['JIRA_SITE', 'JIRA_EMAIL', 'JIRA_API_TOKEN'] as const) {
      if (!config[name]) throw new ConfigError(`${name} is required when TICKETS=jira`);
    }
  }
  if (config.ATTACHMENT_STORE === 'gcs' && (!config.ATTACHMENT_BUCKET || !config.ATTACHMENT_GCS_KEY_FILE)) {
    throw new ConfigError('ATTACHMENT_BUCKET and ATTACHMENT_GCS_KEY_FILE are required when ATTACHMENT_STORE=gcs');
  }
  checkMonitoring(config);
  if (config.WORKSPACE === 'real' && (!config.GOOGLE_WORKSPACE_KEY_FILE || !config.WORKSPACE_ADMIN)) {
    throw new ConfigError('GOOGLE_WORKSPACE_KEY_FILE and WORKSPACE_ADMIN are required when WORKSPACE=real');
  }
  if (config.PLAYBOOK === 'real' && !config.GOOGLE_WORKSPACE_KEY_FILE) throw new ConfigError('GOOGLE_WORKSPACE_KEY_FILE is required when PLAYBOOK=real');
  return config;
}

/**
 * REDIS_SENTINELS / REDIS_CLUSTER_NODES folded into REDIS_URL, the one address every connection is made from
 * (shared/src/redis.ts reads its shape). On a Cluster the prefix becomes a hash tag (`cc` → `{cc}`): our caches'
 * scripts and multi-key reads stay in one slot, and each BullMQ queue gets a tag of its own (`queuePrefix`).
 */
function checkRedisShape(config: Config): void {
  if (config.REDIS_SENTINELS && config.REDIS_CLUSTER_NODES) throw new ConfigError('REDIS_SENTINELS and REDIS_CLUSTER_NODES cannot both be set');
  if (config.REDIS_SENTINELS) {
    if (!config.REDIS_SENTINEL_NAME) throw new ConfigError('REDIS_SENTINEL_NAME is required with REDIS_SENTINELS');
    // The password and database of REDIS_URL still apply (redis://:secret@host/2).
    const single = new URL(config.REDIS_URL.startsWith('redis+') ? 'redis://localhost' : config.REDIS_URL);
    const auth = single.password ? `:${single.password}@` : '';
    const db = single.pathname.replace(/^\//, '');
    config.REDIS_URL = `redis+sentinel://${auth}${config.REDIS_SENTINELS}/${encodeURIComponent(config.REDIS_SENTINEL_NAME)}${db ? `/${db}` : ''}`;
  } else if (config.REDIS_SENTINEL_NAME) {
    throw new ConfigError('REDIS_SENTINELS is required with REDIS_SENTINEL_NAME');
  }
  if (config.REDIS_CLUSTER_NODES) {
    const single = new URL(config.REDIS_URL.startsWith('redis+') ? 'redis://localhost' : config.REDIS_URL);
    config.REDIS_URL = `redis+cluster://${single.password ? `:${single.password}@` : ''}${config.REDIS_CLUSTER_NODES}`;
  }
  if (parseRedisTarget(config.REDIS_URL).shape === 'cluster' && !/^\{[^{}]+\}$/.test(config.QUEUE_PREFIX)) {
    if (/[{}]/.test(config.QUEUE_PREFIX)) throw new ConfigError(`QUEUE_PREFIX must be a plain name or one hash tag ({name}) on a Redis Cluster, got '${config.QUEUE_PREFIX}'`);
    config.QUEUE_PREFIX = `{${config.QUEUE_PREFIX}}`;
  }
}

/**
 * Keys that were once published (README, .env.example): a token signed with one of them is forgeable by
 * anyone who read the docs, so they are refused wherever they turn up, development included.
 */
const PUBLISHED_SECRETS = ['dev-only-secret-change-me-dev-only-secret', 'commandcenter-local-secret'];

/** The JWT and OpenID settings: no configuration may hand out a session without a credential. */
function checkIdentity(config: Config): void {
  if (config.JWT_SECRET) {
    if (config.JWT_SECRET.length < 32) throw new ConfigError('JWT_SECRET must be at least 32 characters');
    if (PUBLISHED_SECRETS.includes(config.JWT_SECRET)) throw new ConfigError('JWT_SECRET is a published example value; set a secret of your own or leave it empty to have one generated');
  } else if (config.NODE_ENV === 'production') {
    // Every api instance must sign with the same key; a generated one would differ per instance.
    throw new ConfigError('JWT_SECRET must be set in production');
  }
  if (config.OIDC === 'local' && config.NODE_ENV === 'production') {
    throw new ConfigError('OIDC=local is the development identity provider and cannot run in production; set OIDC=real with OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET');
  }
  if (config.OIDC === 'real') {
    if (!config.OIDC_ISSUER) throw new ConfigError('OIDC_ISSUER is required when OIDC=real');
    if (!config.OIDC_CLIENT_SECRET) throw new ConfigError('OIDC_CLIENT_SECRET is required when OIDC=real');
  }
  if (PUBLISHED_SECRETS.includes(config.OIDC_CLIENT_SECRET)) throw new ConfigError('OIDC_CLIENT_SECRET is a published example value; set the one your provider issued');
}

/** System Health: the sealing key of stored passwords (never a constant in the code) and the Grafana connection. */
function checkMonitoring(config: Config): void {
  if (config.SECRETS_KEY && config.SECRETS_KEY.length < MIN_KEY_LENGTH) throw new ConfigError(`SECRETS_KEY must be at least ${MIN_KEY_LENGTH} characters`);
  // Every api and worker instance must open what the others sealed; a key generated per machine would differ.
  if (!config.SECRETS_KEY && config.NODE_ENV === 'production') throw new ConfigError('SECRETS_KEY must be set in production');
  if (config.SECRETS_KEY_PREVIOUS.some((k) => k.length < MIN_KEY_LENGTH)) {
    throw new ConfigError(`SECRETS_KEY_PREVIOUS: every key must be at least ${MIN_KEY_LENGTH} characters`);
  }
  if (config.MONITORING === 'grafana') {
    for (const name of ['GRAFANA_URL', 'GRAFANA_ADMIN_PASSWORD'] as const) {
      if (!config[name]) throw new ConfigError(`${name} is required when MONITORING=grafana`);
    }
  }
}

/** Issuer of the social sign-in: the configured one, or the local provider served by the api itself. */
export function oidcIssuer(config: Config): string {
  return config.OIDC === 'real' ? config.OIDC_ISSUER : `${config.PUBLIC_URL}/oidc`;
}

/**
 * The settings of a process entry point: a bad value ends the process with exit code 78 (EX_CONFIG) and one line
 * naming the variable, instead of a stack trace. `prepare` runs inside the same guard (the api fills its secrets).
 */
export function loadConfigOrExit(prepare: (config: Config) => Config = (c) => c): Config {
  try {
    return prepare(loadConfig());
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(`configuration error: ${err.message}`);
      process.exit(78);
    }
    throw err;
  }
}
