/**
 * Chart route latency: a 12-month service chart of the big account (from the ingest benchmark), served from the
 * Redis cache (autocannon) and computed (cache version bumped before every request), beside a bare Fastify JSON
 * route in the same process and run.
 */
import Fastify from 'fastify';
import autocannon from 'autocannon';
import { billingVersionKey } from '@cc/shared/billing/chart-cache.ts';
import { buildApp } from '../../api/src/app.ts';
import { DEMO_PASSWORD } from '../../infra/scripts/seed.ts';
import { BENCH_ACCOUNT } from './rows.ts';
import { fmt, type BenchContext } from './context.ts';

const COMPUTED_SAMPLES = 30;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

export async function chartBench(ctx: BenchContext): Promise<void> {
  const app = await buildApp(ctx.config, { logger: false });
  const bare = Fastify({ logger: false });
  bare.get('/bare', async () => ({ hello: 'world' }));
  try {
    const base = await app.listen({ port: 0, host: '127.0.0.1' });
    const bareBase = await bare.listen({ port: 0, host: '127.0.0.1' });
    const login = await app.inject({ method: 'POST', url: '/v1/auth/login', payload: { email: 'alice@acme.example', password: DEMO_PASSWORD } });
    const headers = { authorization: `Bearer ${login.json().token}`, 'content-type': 'application/json' };
    const url = `${base}/v2/billing/aggregated/by_service/chart/acme-corp?billing_account_id=${BENCH_ACCOUNT.billingAccountId}&provider=gcp&period=12months`;
    const body = JSON.stringify({ services: [] });

    const times: number[] = [];
    for (let i = 0; i < COMPUTED_SAMPLES; i++) {
      await app.producers.redis.incr(billingVersionKey(ctx.config.QUEUE_PREFIX, BENCH_ACCOUNT.billingAccountId));
      const t0 = performance.now();
      const res = await fetch(url, { method: 'POST', headers, body });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`chart answered ${res.status}`);
      times.push(performance.now() - t0);
    }
    times.sort((a, b) => a - b);

    const duration = ctx.seconds;
    const cached = await autocannon({ url, method: 'POST', headers, body, connections: 10, duration });
    const bareRun = await autocannon({ url: `${bareBase}/bare`, connections: 10, duration });
    const lines = (await ctx.pool.query(`SELECT count(*)::bigint AS n FROM cost_line WHERE billing_account_id = $1`, [BENCH_ACCOUNT.billingAccountId])).rows[0].n;
    console.log(`account cost lines        ${fmt(Number(lines))}`);
    console.log(`computed (no cache), ${COMPUTED_SAMPLES} sequential: p50 ${fmt(percentile(times, 50), 1)} ms  p99 ${fmt(percentile(times, 99), 1)} ms`);
    console.log(`cached chart, autocannon 10 conn ${duration}s: p50 ${cached.latency.p50} ms  p99 ${cached.latency.p99} ms  mean ${fmt(cached.latency.average, 2)} ms  ${fmt(cached.requests.average)} req/s  non2xx ${cached.non2xx}`);
    console.log(`bare Fastify JSON route:          p50 ${bareRun.latency.p50} ms  p99 ${bareRun.latency.p99} ms  mean ${fmt(bareRun.latency.average, 2)} ms  ${fmt(bareRun.requests.average)} req/s`);
    // autocannon reports whole milliseconds, so a bare route's p50 is often 0: ratios use mean latency and req/s.
    console.log(`ratio cached / bare       mean latency ${fmt(cached.latency.average / bareRun.latency.average, 1)}×  throughput ${fmt(bareRun.requests.average / Math.max(cached.requests.average, 1), 1)}× lower`);
  } finally {
    await app.close();
    await bare.close();
  }
}
