/**
 * Ingest throughput end to end (validation, COPY into staging, slice replacement, rollups) beside a raw COPY of the
 * same rows into an unindexed table, in the same run.
 */
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { from as copyFrom } from 'pg-copy-streams';
import { copyFromStdin, copyTableDdl, toCopyLine } from '@cc/shared/db/billing-ingest/copy.ts';
import { runIngest } from '../../workers/src/billing-ingest/ingest.ts';
import { BENCH_ACCOUNT, benchRows, benchSource } from './rows.ts';
import { fmt, type BenchContext } from './context.ts';

async function rawCopy(ctx: BenchContext): Promise<number> {
  const client = await ctx.pool.connect();
  try {
    // the same columns the ingest COPYs, so the raw baseline cannot drift from toCopyLine
    await client.query(copyTableDdl('bench_raw'));
    const started = performance.now();
    async function* lines() {
      let chunk = '';
      for (const r of benchRows(ctx.rows)) {
        chunk += toCopyLine(r);
        if (chunk.length >= 256 * 1024) {
          yield chunk;
          chunk = '';
        }
      }
      if (chunk) yield chunk;
    }
    await pipeline(Readable.from(lines(), { objectMode: false }), client.query(copyFrom(copyFromStdin('bench_raw'))));
    const seconds = (performance.now() - started) / 1000;
    await client.query('DROP TABLE bench_raw');
    return seconds;
  } finally {
    client.release();
  }
}

export async function ingestBench(ctx: BenchContext): Promise<void> {
  const raw = await rawCopy(ctx);
  const started = performance.now();
  const summary = await runIngest({ pool: ctx.pool, ...BENCH_ACCOUNT, sourceKind: 'gcp-generated', source: benchSource(ctx.rows) });
  const ingest = (performance.now() - started) / 1000;
  console.log(`rows                      ${fmt(summary.rows)} (${summary.days} days)`);
  console.log(`raw COPY, unindexed       ${fmt(raw, 2)} s   ${fmt(ctx.rows / raw)} rows/s`);
  console.log(`ingest end to end         ${fmt(ingest, 2)} s   ${fmt(summary.rows / ingest)} rows/s`);
  console.log(`ingest / raw COPY         ${fmt(raw / ingest, 2)} × the raw rate (${fmt(ingest / raw, 2)} × the time)`);
  // What autovacuum would do in the minutes after a big ingest, done now and outside the figures: otherwise it runs
  // beside the chart benchmark that follows, on the same two cores, and that measures the vacuum instead.
  const t0 = performance.now();
  await ctx.pool.query('VACUUM (ANALYZE) cost_line, cost_daily, cost_monthly, cost_daily_label, cost_monthly_label');
  console.log(`vacuum + analyze after   ${fmt((performance.now() - t0) / 1000, 2)} s (not in the figures above)`);
}
