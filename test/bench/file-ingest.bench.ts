/**
 * FOCUS file ingest end to end through the `cc ingest` CLI (its own process: read, parse, check, COPY, replace,
 * rollups), beside a raw COPY of the same rows into an unindexed all-text table measured in the same run, for a wide
 * CSV (every FOCUS column, Tags JSON), a narrow one (17 columns), the wide one gzipped and as Parquet (snappy, written
 * directly in row groups of 100,000 rows); then the same file through the api's drop-folder route and a worker process.
 * Both processes start with the production V8 flags (infra/scripts/node-flags.ts; BENCH_NODE_FLAGS, space-separated,
 * replaces them to try others). The CLI's peak RSS and CPU are its own as the kernel counted them at its exit
 * (/usr/bin/time: ru_maxrss, user + system); the worker's are read from /proc/<pid> around each file, its peak
 * (VmHWM) reset before each through /proc/<pid>/clear_refs, so each case shows its own peak, not the bench's.
 * BENCH_FILE_ROWS sets the rows (default 5,000,000); BENCH_FILE_CASES (default wide,narrow,gzip,parquet) which files;
 * BENCH_PARQUET_GROUP_ROWS the Parquet file's row-group size (default 100,000); BENCH_CPU_PROF_DIR a directory for a
 * CPU profile of each CLI run.
 */
import { spawn } from 'node:child_process';
import { createReadStream } from 'node:fs';
import { mkdtemp, open, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGzip, createGunzip } from 'node:zlib';
import { createWriteStream } from 'node:fs';
import { from as copyFrom } from 'pg-copy-streams';
import { parse } from 'csv-parse';
import { buildApp } from '../../api/src/app.ts';
import { DEMO_PASSWORD } from '../../infra/scripts/seed.ts';
import { startWorkerProcess } from '../faults.ts';
import { BENCH_ACCOUNT } from './rows.ts';
import { fmt, type BenchContext } from './context.ts';
import { NARROW_COLUMNS, writeFocusCsv, writeFocusParquet, writeParquetRows } from './focus-files.ts';
import { WORKER_NODE_FLAGS } from '../../infra/scripts/node-flags.ts';

const ROOT = new URL('../../', import.meta.url).pathname;
// The api loads each file into another account than the CLI: the same file again into the same account would be
// found already loaded and skipped.
const API_ACCOUNT = { customerId: 'globex', billingAccountId: '02B3C4-D5E6F7-A8B9C0' };

/** The V8 flags the CLI and the worker run with: production's unless BENCH_NODE_FLAGS says others ('' for none). */
export const benchNodeFlags = (): string[] =>
  process.env.BENCH_NODE_FLAGS === undefined ? WORKER_NODE_FLAGS : process.env.BENCH_NODE_FLAGS.split(' ').filter(Boolean);

const TICKS = 100;

/** CPU seconds (user + system) a process has used so far. */
async function cpuOf(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / TICKS;
}

/** The CSV rewritten as Parquet, row group by row group (every column a string, NULL as null). */
export function csvToParquet(csv: string, parquet: string): Promise<void> {
  const parser = createReadStream(csv).pipe(parse({ cast: (v, ctx) => (!ctx.quoting && v === 'NULL' ? null : v) }));
  return writeParquetRows(parquet, parser as AsyncIterable<(string | null)[]>, 100_000);
}

/** COPY of the file's rows (its CSV text, decompressed for .gz) into an unindexed table of text columns. */
export async function rawCopy(ctx: BenchContext, csv: string, gzip: boolean): Promise<number> {
  // the first 64 KB only: a file of millions of rows does not fit in one string
  const head = Buffer.alloc(64 * 1024);
  const fh = await open(csv);
  const { bytesRead } = await fh.read(head, 0, head.length, 0).finally(() => fh.close());
  const header = head.subarray(0, bytesRead).toString('utf8').split('\n')[0].replace(/"/g, '').split(',');
  const client = await ctx.pool.connect();
  try {
    await client.query(`CREATE UNLOGGED TABLE bench_file_raw (${header.map((h) => `"${h}" text`).join(', ')})`);
    const started = performance.now();
    const copy = client.query(copyFrom(`COPY bench_file_raw FROM STDIN WITH (FORMAT csv, HEADER true, NULL 'NULL')`));
    await (gzip ? pipeline(createReadStream(`${csv}.gz`), createGunzip(), copy) : pipeline(createReadStream(csv), copy));
    const seconds = (performance.now() - started) / 1000;
    await client.query('DROP TABLE bench_file_raw');
    return seconds;
  } finally {
    client.release();
  }
}

/** `cc ingest --file` in a process of its own: seconds, its peak RSS (MB) and CPU seconds, its last stdout line. */
async function cliIngest(ctx: BenchContext, file: string): Promise<{ seconds: number; rssMb: number; cpu: number; said: string }> {
  const started = performance.now();
  // BENCH_CPU_PROF_DIR: a CPU profile of each CLI run written there (where its time goes)
  const profile = process.env.BENCH_CPU_PROF_DIR ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF_DIR}`] : [];
  const args = [...benchNodeFlags(), ...profile, '--import', 'tsx', 'workers/src/billing-ingest/cli.ts', 'ingest', '--customer', BENCH_ACCOUNT.customerId, '--billing-account', BENCH_ACCOUNT.billingAccountId, '--file', file];
  // GNU time reports the kernel's own count for the node process it waits for: its maximum RSS and its CPU
  const child = spawn('/usr/bin/time', ['-f', 'RUSAGE %M %U %S', process.execPath, ...args], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: ctx.config.DATABASE_URL, REDIS_URL: ctx.config.REDIS_URL, QUEUE_PREFIX: ctx.config.QUEUE_PREFIX },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (c) => (out += c));
  child.stderr.on('data', (c) => (err = (err + c).slice(-4000)));
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  if (code !== 0) throw new Error(`cc ingest ${file} exited ${code}: ${err}`);
  const usage = /RUSAGE (\d+) ([\d.]+) ([\d.]+)/.exec(err);
  if (!usage) throw new Error(`cc ingest ${file}: no resource usage in ${err}`);
  return { seconds: (performance.now() - started) / 1000, rssMb: Number(usage[1]) / 1024, cpu: Number(usage[2]) + Number(usage[3]), said: out.split('\n')[0] };
}

/** Peak RSS (VmHWM, MB) of a process since it started or since its peak was last reset. */
async function peakMb(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

/** Resets a process's peak RSS to its RSS now (Linux: 5 to /proc/<pid>/clear_refs). */
const resetPeak = (pid: number) => writeFile(`/proc/${pid}/clear_refs`, '5');

/**
 * The api's drop-folder route (POST /v2/billing/ingest) and a worker process of its own (workers/src/main.ts, the
 * billing-ingest queue only): seconds from the request to the batch's success, the worker's peak RSS during it and
 * the CPU seconds it used.
 */
async function apiDropFolder(ctx: BenchContext, dropDir: string): Promise<{ ingest(name: string): Promise<{ seconds: number; rssMb: number; cpu: number }>; close(): Promise<void> }> {
  const teardowns: (() => unknown)[] = [];
  const config = { ...ctx.config, INGEST_DROP_DIR: dropDir };
  const app = await buildApp(config, { logger: false });
  await app.ready();
  teardowns.push(() => app.close());
  const worker = await startWorkerProcess({ teardown: (fn: () => unknown) => teardowns.push(fn) }, config, ctx.config.REDIS_URL, {
    INGEST_DROP_DIR: dropDir,
    WORKER_QUEUES: 'billing-ingest',
  }, benchNodeFlags());
  const login = await app.inject({ method: 'POST', url: '/v1/auth/login', payload: { email: 'admin@commandcenter.local', password: DEMO_PASSWORD } });
  const headers = { authorization: `Bearer ${login.json().token as string}` };
  return {
    async ingest(name) {
      await resetPeak(worker.pid);
      const cpuBefore = await cpuOf(worker.pid);
      const started = performance.now();
      const res = await app.inject({
        method: 'POST',
        url: '/v2/billing/ingest',
        headers,
        payload: { customer_id: API_ACCOUNT.customerId, billing_account_id: API_ACCOUNT.billingAccountId, source: 'focus-file', file: name },
      });
      if (res.statusCode !== 202) throw new Error(`POST /v2/billing/ingest ${name}: ${res.statusCode} ${res.body}`);
      for (;;) {
        const { rows } = await ctx.pool.query<{ status: string }>(`SELECT status FROM ingest_batch WHERE billing_account_id = $1 AND file_name = $2 ORDER BY id DESC LIMIT 1`,
          [API_ACCOUNT.billingAccountId, name],);
        if (rows[0]?.status === 'succeeded') break;
        if (rows[0] && rows[0].status !== 'running') throw new Error(`${name}: batch ${rows[0].status}\n${worker.output().slice(-2000)}`);
        // a worker out of heap leaves its batch running: said at once instead of waiting for a batch nobody works on
        if (!worker.alive()) throw new Error(`${name}: the worker exited\n${worker.output().slice(-2000)}`);
        await new Promise((r) => setTimeout(r, 200));
      }
      const seconds = (performance.now() - started) / 1000;
      return { seconds, rssMb: await peakMb(worker.pid), cpu: (await cpuOf(worker.pid)) - cpuBefore };
    },
    async close() {
      for (const fn of teardowns.reverse()) await fn();
    },
  };
}

export async function fileIngestBench(ctx: BenchContext): Promise<void> {
  const rows = Number(process.env.BENCH_FILE_ROWS ?? 5_000_000);
  const parquetGroupRows = Number(process.env.BENCH_PARQUET_GROUP_ROWS ?? 100_000);
  const dir = await mkdtemp(join(tmpdir(), 'cc-bench-files-'));
  try {
    const wanted = new Set((process.env.BENCH_FILE_CASES ?? 'wide,narrow,gzip,parquet').split(',').map((c) => c.trim()));
    const wide = join(dir, 'focus-wide.csv');
    const narrow = join(dir, 'focus-narrow.csv');
    if (['wide', 'gzip', 'parquet'].some((c) => wanted.has(c))) await writeFocusCsv(wide, rows, null);
    if (wanted.has('narrow')) await writeFocusCsv(narrow, rows, NARROW_COLUMNS);
    if (wanted.has('gzip')) await pipeline(createReadStream(wide), createGzip(), createWriteStream(`${wide}.gz`));
    if (wanted.has('parquet')) await writeFocusParquet(join(dir, 'focus-wide.parquet'), rows, null, parquetGroupRows);
    console.log(`rows per file             ${fmt(rows)}   node flags: ${benchNodeFlags().join(' ') || '(none)'}${wanted.has('parquet') ? `   Parquet row groups of ${fmt(parquetGroupRows)} rows` : ''}`);
    const cases = (
      [
        ['wide', 'CSV wide (44 columns)', wide, wide, false],
        ['narrow', 'CSV narrow (17 columns)', narrow, narrow, false],
        ['gzip', 'gzip CSV wide', `${wide}.gz`, wide, true],
        ['parquet', 'Parquet wide (snappy)', join(dir, 'focus-wide.parquet'), wide, false],
      ] as const
    ).filter(([key]) => wanted.has(key));
    const api = await apiDropFolder(ctx, dir);
    try {
      for (const [, name, file, csv, gzip] of cases) {
        const raw = await rawCopy(ctx, csv, gzip);
        const cli = await cliIngest(ctx, file);
        const viaApi = await api.ingest(file.slice(dir.length + 1));
        console.log(`${name}`);
        console.log(`  raw COPY, unindexed     ${fmt(raw, 2)} s   ${fmt(rows / raw)} rows/s`);
        console.log(`  cc ingest (CLI)         ${fmt(cli.seconds, 2)} s   ${fmt(rows / cli.seconds)} rows/s   ${fmt(raw / cli.seconds, 2)} × raw COPY   peak RSS ${fmt(cli.rssMb)} MB   CPU ${fmt(cli.cpu, 2)} s`);
        console.log(`  api drop folder         ${fmt(viaApi.seconds, 2)} s   ${fmt(rows / viaApi.seconds)} rows/s   ${fmt(raw / viaApi.seconds, 2)} × raw COPY   worker peak RSS ${fmt(viaApi.rssMb)} MB   worker CPU ${fmt(viaApi.cpu, 2)} s`);
      }
    } finally {
      await api.close();
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

if (process.argv[1]?.endsWith('file-ingest.bench.ts')) {
  const { benchContext } = await import('./context.ts');
  const ctx = await benchContext();
  try {
    await fileIngestBench(ctx);
  } finally {
    await ctx.close();
  }
}
