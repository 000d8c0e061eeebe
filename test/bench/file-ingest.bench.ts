/**
 * FOCUS file ingest end to end through the `cc ingest` CLI (its own process: read, parse, check, COPY, replace,
 * rollups), beside a raw COPY of the same rows into an unindexed all-text table measured in the same run, for a wide
 * CSV (every FOCUS column, Tags JSON), a narrow one (17 columns), the wide one gzipped and as Parquet (snappy); then the
 * same file through the api's drop-folder route and a worker process. Peak RSS is VmHWM in /proc/<pid>/status.
 * BENCH_FILE_ROWS sets the rows (default 5,000,000); BENCH_FILE_CASES (default wide,narrow,gzip,parquet) which files.
 */
import { spawn } from 'node:child_process';
import { createReadStream } from 'node:fs';
import { mkdtemp, open, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGzip, createGunzip } from 'node:zlib';
import { createWriteStream } from 'node:fs';
import { from as copyFrom } from 'pg-copy-streams';
import { parse } from 'csv-parse';
import { ParquetWriter, schemaFromColumnData } from 'hyparquet-writer';
import { fileWriter } from 'hyparquet-writer';
import { buildApp } from '../../api/src/app.ts';
import { DEMO_PASSWORD } from '../../infra/scripts/seed.ts';
import { startWorkerProcess } from '../faults.ts';
import { BENCH_ACCOUNT } from './rows.ts';
import { fmt, type BenchContext } from './context.ts';
import { NARROW_COLUMNS, writeFocusCsv } from './focus-files.ts';

const ROOT = new URL('../../', import.meta.url).pathname;
// The api loads each file into another account than the CLI: the same file again into the same account would be
// found already loaded and skipped.
const API_ACCOUNT = { customerId: 'globex', billingAccountId: '02B3C4-D5E6F7-A8B9C0' };

/** The CSV rewritten as Parquet, row group by row group (every column a string, NULL as null). */
export async function csvToParquet(csv: string, parquet: string): Promise<void> {
  const parser = createReadStream(csv).pipe(parse({ cast: (v, ctx) => (!ctx.quoting && v === 'NULL' ? null : v) }));
  let header: string[] | null = null;
  let writer: ParquetWriter | null = null;
  let batch: (string | null)[][] = [];
  const flush = () => {
    if (!header || !batch.length) return;
    const columnData = header.map((name, i) => ({ name, data: batch.map((r) => r[i]), type: 'STRING' as const, nullable: true }));
    writer ??= new ParquetWriter({ writer: fileWriter(parquet), schema: schemaFromColumnData({ columnData }) });
    writer.write({ columnData, rowGroupSize: batch.length });
    batch = [];
  };
  for await (const record of parser as AsyncIterable<(string | null)[]>) {
    if (!header) header = record as string[];
    else batch.push(record);
    if (batch.length === 100_000) flush();
  }
  flush();
  (writer as ParquetWriter | null)?.finish();
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

/** `cc ingest --file` in a process of its own: seconds, peak RSS (MB) and its last stdout line. */
async function cliIngest(ctx: BenchContext, file: string): Promise<{ seconds: number; rssMb: number; said: string }> {
  const started = performance.now();
  const child = spawn(process.execPath, ['--import', 'tsx', 'workers/src/billing-ingest/cli.ts', 'ingest', '--customer', BENCH_ACCOUNT.customerId, '--billing-account', BENCH_ACCOUNT.billingAccountId, '--file', file], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: ctx.config.DATABASE_URL, REDIS_URL: ctx.config.REDIS_URL, QUEUE_PREFIX: ctx.config.QUEUE_PREFIX },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (c) => (out += c));
  child.stderr.on('data', (c) => (err = (err + c).slice(-4000)));
  let peakKb = 0;
  const poll = setInterval(() => {
    readFile(`/proc/${child.pid}/status`, 'utf8')
      .then((s) => (peakKb = Math.max(peakKb, Number(/VmHWM:\s+(\d+)/.exec(s)?.[1] ?? 0))))
      .catch(() => undefined);
  }, 50);
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  clearInterval(poll);
  if (code !== 0) throw new Error(`cc ingest ${file} exited ${code}: ${err}`);
  return { seconds: (performance.now() - started) / 1000, rssMb: peakKb / 1024, said: out.split('\n')[0] };
}

/** Peak RSS (VmHWM, MB) of a process so far. */
async function peakMb(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  return Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

/**
 * The api's drop-folder route (POST /v2/billing/ingest) and a worker process of its own (workers/src/main.ts, the
 * billing-ingest queue only): seconds from the request to the batch's success, and the worker's peak RSS so far.
 */
async function apiDropFolder(ctx: BenchContext, dropDir: string): Promise<{ ingest(name: string): Promise<{ seconds: number; rssMb: number }>; close(): Promise<void> }> {
  const teardowns: (() => unknown)[] = [];
  const config = { ...ctx.config, INGEST_DROP_DIR: dropDir };
  const app = await buildApp(config, { logger: false });
  await app.ready();
  teardowns.push(() => app.close());
  const worker = await startWorkerProcess({ teardown: (fn: () => unknown) => teardowns.push(fn) }, config, ctx.config.REDIS_URL, {
    INGEST_DROP_DIR: dropDir,
    WORKER_QUEUES: 'billing-ingest',
  });
  const login = await app.inject({ method: 'POST', url: '/v1/auth/login', payload: { email: 'admin@commandcenter.local', password: DEMO_PASSWORD } });
  const headers = { authorization: `Bearer ${login.json().token as string}` };
  return {
    async ingest(name) {
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
        await new Promise((r) => setTimeout(r, 200));
      }
      return { seconds: (performance.now() - started) / 1000, rssMb: await peakMb(worker.pid) };
    },
    async close() {
      for (const fn of teardowns.reverse()) await fn();
    },
  };
}

export async function fileIngestBench(ctx: BenchContext): Promise<void> {
  const rows = Number(process.env.BENCH_FILE_ROWS ?? 5_000_000);
  const dir = await mkdtemp(join(tmpdir(), 'cc-bench-files-'));
  try {
    const wanted = new Set((process.env.BENCH_FILE_CASES ?? 'wide,narrow,gzip,parquet').split(',').map((c) => c.trim()));
    const wide = join(dir, 'focus-wide.csv');
    const narrow = join(dir, 'focus-narrow.csv');
    if (['wide', 'gzip', 'parquet'].some((c) => wanted.has(c))) await writeFocusCsv(wide, rows, null);
    if (wanted.has('narrow')) await writeFocusCsv(narrow, rows, NARROW_COLUMNS);
    if (wanted.has('gzip')) await pipeline(createReadStream(wide), createGzip(), createWriteStream(`${wide}.gz`));
    if (wanted.has('parquet')) await csvToParquet(wide, join(dir, 'focus-wide.parquet'));
    console.log(`rows per file             ${fmt(rows)}`);
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
        console.log(`  cc ingest (CLI)         ${fmt(cli.seconds, 2)} s   ${fmt(rows / cli.seconds)} rows/s   ${fmt(raw / cli.seconds, 2)} × raw COPY   peak RSS ${fmt(cli.rssMb)} MB`);
        console.log(`  api drop folder         ${fmt(viaApi.seconds, 2)} s   ${fmt(rows / viaApi.seconds)} rows/s   ${fmt(raw / viaApi.seconds, 2)} × raw COPY   worker peak RSS ${fmt(viaApi.rssMb)} MB (so far)`);
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
