/**
 * Where a FOCUS file ingest's wall clock goes, in-process: the ingest (runIngest on focusCsvSource, as the worker runs
 * it) beside a raw COPY of the same rows, with the worker's CPU (process.cpuUsage) and its PostgreSQL backend's CPU
 * (/proc/<pid>/stat of the connection's backend) per phase: reading (parse, check, sums, COPY into cost_line) and
 * replacing (the deletes, rollups and commit after it). Their sum against the wall says how much the two overlapped
 * (> 1: worker and backend ran at once) and how much was neither (idle: waiting, or the machine busy elsewhere).
 *
 *   /work/helpers/run-bench npx tsx test/bench/file-ingest-split.ts <rows> <wide|narrow|gzip|parquet> [--twice]
 *
 * `--twice` loads the file again (a replacement of its billing period). `--profile <file.cpuprofile>`: a CPU profile
 * of the first load alone (not of making the file), with the top self times printed.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createReadStream, createWriteStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { tmpdir } from 'node:os';
import { Session } from 'node:inspector/promises';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createPool } from '@cc/shared/db/pool.ts';
import { runIngest, type IngestProgress } from '../../workers/src/billing-ingest/ingest.ts';
import { focusCsvSource } from '../../workers/src/billing-ingest/formats/focus-csv.ts';
import { benchContext, fmt } from './context.ts';
import { BENCH_ACCOUNT } from './rows.ts';
import { csvToParquet, rawCopy } from './file-ingest.bench.ts';
import { NARROW_COLUMNS, writeFocusCsv } from './focus-files.ts';

const TICKS = 100;

/** CPU seconds (user + system) of a process. */
async function cpuOf(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / TICKS;
}

const selfCpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};

const rows = Number(process.argv[2] ?? 200_000);
const kind = process.argv[3] ?? 'narrow';
const twice = process.argv.includes('--twice');
const profileAt = process.argv.indexOf('--profile');
const profilePath = profileAt > 0 ? process.argv[profileAt + 1] : null;

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

/** The functions with the most self time in a profile, as shares of its samples. */
function topSelf(profile: { nodes: ProfileNode[]; samples: number[] }, n = 25): string[] {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const counts = new Map<string, number>();
  for (const id of profile.samples) {
    const f = byId.get(id)!.callFrame;
    const name = `${f.functionName || '(anonymous)'} ${f.url.split('/').slice(-2).join('/')}:${f.lineNumber + 1}`;
    counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  const total = profile.samples.length;
  return [...counts.entries()].sort((a, b) => b[1] - a[1]).slice(0, n).map(([name, c]) => `  ${fmt((100 * c) / total, 1).padStart(5)} %  ${name}`);
}
const ctx = await benchContext();
const dir = await mkdtemp(join(tmpdir(), 'cc-split-'));
try {
  const csv = join(dir, `focus-${kind}.csv`);
  await writeFocusCsv(csv, rows, kind === 'narrow' ? NARROW_COLUMNS : null);
  let file = csv;
  if (kind === 'gzip') {
    file = `${csv}.gz`;
    await pipeline(createReadStream(csv), createGzip(), createWriteStream(file));
  } else if (kind === 'parquet') {
    file = join(dir, 'focus.parquet');
    await csvToParquet(csv, file);
  }
  const raw = await rawCopy(ctx, csv, kind === 'gzip');
  console.log(`${fmt(rows)} rows ${kind}: raw COPY ${fmt(raw, 2)} s (${fmt((raw * 1e6) / rows, 2)} µs/row); load ${(await readFile('/proc/loadavg', 'utf8')).split(' ').slice(0, 3).join(' ')}`);
  const pool = createPool(ctx.config.DATABASE_URL, 2);
  // both connections of the pool opened before the clock starts, so every backend the ingest uses is known
  const warm = await Promise.all([pool.connect(), pool.connect()]);
  warm.forEach((c) => c.release());
  const { rows: activity } = await pool.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE datname = current_database()');
  const backends = activity.map((r) => r.pid);
  // a backend whose connection the pool closed (idle) keeps the CPU last read of it
  const lastCpu = new Map<number, number>();
  const backendCpu = async () => {
    for (const p of backends) lastCpu.set(p, await cpuOf(p).catch(() => lastCpu.get(p) ?? 0));
    return [...lastCpu.values()].reduce((a, b) => a + b, 0);
  };
  for (let run = 1; run <= (twice ? 2 : 1); run++) {
    const session = profilePath && run === 1 ? new Session() : null;
    if (session) {
      session.connect();
      await session.post('Profiler.enable');
      await session.post('Profiler.setSamplingInterval', { interval: 500 });
      await session.post('Profiler.start');
    }
    const at = async () => ({ wall: performance.now() / 1000, worker: selfCpu(), backend: await backendCpu() });
    const start = await at();
    let replacing: Awaited<ReturnType<typeof at>> | null = null;
    let peak = 0;
    let peakHeap = 0;
    let peakExternal = 0;
    const poll = setInterval(() => {
      void backendCpu();
      const m = process.memoryUsage();
      peak = Math.max(peak, m.rss);
      peakHeap = Math.max(peakHeap, m.heapTotal);
      peakExternal = Math.max(peakExternal, m.external + m.arrayBuffers);
    }, 100);
    const summary = await runIngest({
      pool,
      customerId: BENCH_ACCOUNT.customerId,
      billingAccountId: BENCH_ACCOUNT.billingAccountId,
      sourceKind: 'focus-file',
      source: focusCsvSource(file),
      fileName: `bench-${run}`,
      onProgress: async (p: IngestProgress) => {
        if (p.phase === 'replacing' && !replacing) replacing = await at();
      },
    });
    const end = await at();
    clearInterval(poll);
    if (session && profilePath) {
      const { profile } = await session.post('Profiler.stop');
      session.disconnect();
      await writeFile(profilePath, JSON.stringify(profile));
      console.log(`profile of run 1 (${profilePath}), self time:`);
      console.log(topSelf(profile as unknown as { nodes: ProfileNode[]; samples: number[] }).join('\n'));
    }
    const mid = replacing ?? end;
    const line = (name: string, a: typeof start, b: typeof start) => {
      const wall = b.wall - a.wall;
      const w = b.worker - a.worker;
      const be = b.backend - a.backend;
      return `  ${name.padEnd(10)} wall ${fmt(wall, 2)} s   worker CPU ${fmt(w, 2)} s   backend CPU ${fmt(be, 2)} s   (worker+backend)/wall ${fmt((w + be) / wall, 2)}`;
    };
    console.log(`run ${run}: ${fmt(summary.rows)} rows, ${fmt(end.wall - start.wall, 2)} s, ${fmt(raw / (end.wall - start.wall), 2)} × raw COPY, peak RSS ${fmt(peak / 2 ** 20)} MB (V8 heap ${fmt(peakHeap / 2 ** 20)} MB, external ${fmt(peakExternal / 2 ** 20)} MB; heap used after ${fmt(process.memoryUsage().heapUsed / 2 ** 20)} MB)`);
    console.log(line('reading', start, mid));
    console.log(line('replacing', mid, end));
    console.log(line('all', start, end));
  }
  await pool.end();
} finally {
  await rm(dir, { recursive: true, force: true });
  await ctx.close();
}
