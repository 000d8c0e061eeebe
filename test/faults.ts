/**
 * Fault harness: a private Redis and worker processes that a test starts, kills (-9) and restarts
 * itself. Everything listens on 127.0.0.1 at free ports, lives in a temporary directory and is stopped in teardown.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import type { Config } from '@cc/shared/config.ts';
import { WORKER_NODE_FLAGS } from '../infra/scripts/node-flags.ts';

interface Teardown {
  teardown(fn: () => unknown): void;
}

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls `check` until it returns a truthy value (returned) or `ms` pass (throws, naming `what`). */
export async function waitFor<T>(what: string, check: () => Promise<T>, ms = 60_000, every = 100): Promise<NonNullable<T>> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await check().catch(() => null);
    if (v) return v as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await sleep(every);
  }
}

export interface PrivateRedis {
  url: string;
  start(): Promise<void>;
  /** Ends the server (SIGKILL by default: nothing flushed beyond what the append-only file already holds). */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/** `redis-server --port <free> --save '' --appendonly yes --dir <tmp>`, as production runs it (docs/operations.md). */
export async function privateRedis(t: Teardown): Promise<PrivateRedis> {
  const dir = await mkdtemp(join(tmpdir(), 'cc-redis-'));
  const port = await freePort();
  const url = `redis://127.0.0.1:${port}`;
  let proc: ChildProcess | null = null;
  const r: PrivateRedis = {
    url,
    async start() {
      proc = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'yes', '--appendfsync', 'everysec', '--maxmemory-policy', 'noeviction', '--dir', dir], { stdio: 'ignore' });
      await waitFor('private redis', async () => {
        const c = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
        c.on('error', () => undefined);
        try {
          await c.connect();
          return (await c.ping()) === 'PONG';
        } finally {
          c.disconnect();
        }
      }, 10_000, 50);
    },
    async stop(signal = 'SIGKILL') {
      const p = proc;
      proc = null;
      if (!p || p.exitCode !== null) return;
      p.kill(signal);
      await once(p, 'exit');
    },
  };
  await r.start();
  t.teardown(async () => {
    await r.stop();
    await rm(dir, { recursive: true, force: true });
  });
  return r;
}

export interface WorkerProcess {
  pid: number;
  alive(): boolean;
  /** kill -9, and wait until it is gone. */
  kill(): Promise<void>;
  output(): string;
}

/** Short fault-tolerance intervals, so a killed worker's job is taken back within about three seconds. */
export const FAST_FAULTS = {
  WORKER_LOCK_MS: '1500',
  WORKER_STALLED_CHECK_MS: '500',
  WORKER_MAX_STALLED: '5',
  OUTBOX_RECONCILE_MS: '200',
  OUTBOX_LOST_AFTER_MS: '2000',
  SCHEDULE_RECONCILE_MS: '1000',
};

/**
 * Starts `workers/src/main.ts` as its own process, with the V8 flags production starts it with (or `nodeFlags`),
 * and resolves once its queues are started.
 */
export async function startWorkerProcess(t: Teardown, config: Config, redisUrl: string, env: Record<string, string> = {}, nodeFlags: string[] = WORKER_NODE_FLAGS): Promise<WorkerProcess> {
  const workerEnv: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    NODE_ENV: 'test',
    LOG_LEVEL: 'info',
    DATABASE_URL: config.DATABASE_URL,
    REDIS_URL: redisUrl,
    QUEUE_PREFIX: config.QUEUE_PREFIX,
    JWT_SECRET: config.JWT_SECRET,
    SECRETS_KEY: config.SECRETS_KEY,
    WORKER_METRICS_PORT: String(await freePort()),
    LOCAL_SMTP_PORT: '0',
    // The fault tests write their billing files under the system's temporary directory: the worker's drop directory.
    INGEST_DROP_DIR: tmpdir(),
    ...FAST_FAULTS,
    ...env,
  };
  const proc = spawn(process.execPath, [...nodeFlags, '--import', 'tsx', 'workers/src/main.ts'], { env: workerEnv, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  proc.stdout!.on('data', (d: Buffer) => (out = (out + d.toString()).slice(-20_000)));
  proc.stderr!.on('data', (d: Buffer) => (out = (out + d.toString()).slice(-20_000)));
  const w: WorkerProcess = {
    pid: proc.pid!,
    alive: () => proc.exitCode === null && proc.signalCode === null,
    async kill() {
      if (!w.alive()) return;
      proc.kill('SIGKILL');
      await once(proc, 'exit');
    },
    output: () => out,
  };
  t.teardown(() => w.kill());
  await waitFor('worker start', async () => {
    if (!w.alive()) throw new Error(`worker exited: ${out}`);
    return out.includes('workers started');
  }, 120_000, 50).catch((err: Error) => {
    throw new Error(`${err.message}\n${out}`);
  });
  return w;
}

/**
 * A FOCUS 1.0 file of `rows` charges over September 2026 for one account, and the spend it holds, summed here
 * in integer micro-units (independent of the ingest's SQL).
 */
export async function writeFocusFile(dir: string, name: string, rows: number, currency = 'EUR'): Promise<{ file: string; rows: number; micros: bigint }> {
  const header = 'BilledCost,BillingCurrency,BillingPeriodStart,ChargePeriodStart,ChargeCategory,ProviderName,SubAccountId,SubAccountName,ServiceName,SkuId';
  const lines = [header];
  let micros = 0n;
  for (let i = 0; i < rows; i++) {
    const m = BigInt(((i * 7919) % 9_000_000) + 1_000);
    micros += m;
    const day = String((i % 30) + 1).padStart(2, '0');
    const cost = `${m / 1_000_000n}.${String(m % 1_000_000n).padStart(6, '0')}`;
    lines.push(`${cost},${currency},2026-09-01 00:00:00,2026-09-${day} 10:00:00,Usage,Google Cloud,proj-${i % 17},Project ${i % 17},Compute Engine,SKU-${i % 101}`);
  }
  const file = join(dir, name);
  await writeFile(file, lines.join('\n') + '\n');
  return { file, rows, micros };
}

/** A decimal string with up to 12 places as integer micro-units (exact: our files have six places). */
export function toMicros(s: string): bigint {
  const [int, frac = ''] = s.replace(/^-/, '').split('.');
  const v = BigInt(int) * 1_000_000n + BigInt((frac + '000000').slice(0, 6));
  return s.startsWith('-') ? -v : v;
}
