/**
 * Chart route latency on the big account (from the ingest benchmark), beside a bare Fastify JSON route in the same
 * process and run (measured before and after, throughput averaged): the 12-month service chart served from the Redis
 * cache (autocannon, same connections and duration), and every chart route and both exports computed (the cache
 * version bumped before every request), over 12 months and, for the charts, over 30 days.
 */
import Fastify from 'fastify';
import autocannon from 'autocannon';
import { billingVersionKey } from '@cc/shared/billing/chart-cache.ts';
import { buildApp } from '../../api/src/app.ts';
import { DEMO_PASSWORD } from '../../infra/scripts/seed.ts';
import { BENCH_ACCOUNT } from './rows.ts';
import { fmt, type BenchContext } from './context.ts';

const COMPUTED_SAMPLES = Number(process.env.BENCH_CHART_SAMPLES ?? 30);
const WARM_UP = 2;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/** Every chart route of spec 000 §7 and both exports, with the body each needs (12 months, all providers for labels). */
const COMPUTED_ROUTES: { name: string; path: string; body: object; cached: boolean }[] = [
  { name: 'by service (12 months)', path: '/v2/billing/aggregated/by_service/chart/acme-corp', body: { services: [] }, cached: true },
  { name: 'project with service', path: '/v2/billing/details/chart/acme-corp', body: { services: [] }, cached: true },
  { name: 'by project label', path: '/v2/billing/project/labels/chart/acme-corp', body: { project_label: 'team' }, cached: true },
  { name: 'project label by project', path: '/v2/billing/project/labels/details/chart/acme-corp', body: { project_label: 'team' }, cached: true },
  { name: 'by resource label', path: '/v2/billing/resource/labels/chart/acme-corp', body: { resource_label: 'shard' }, cached: true },
  { name: 'resource label by project', path: '/v2/billing/resource/labels/details/chart/acme-corp', body: { resource_label: 'shard' }, cached: true },
  { name: 'export: project with service', path: '/v2/billing/details/chart/acme-corp/export', body: { services: [] }, cached: false },
  { name: 'export: project label', path: '/v2/billing/project/labels/details/chart/acme-corp/export', body: { project_label: 'team' }, cached: false },
];

export async function chartBench(ctx: BenchContext): Promise<void> {
  const app = await buildApp(ctx.config, { logger: false });
  const bare = Fastify({ logger: false });
  bare.get('/bare', async () => ({ hello: 'world' }));
  try {
    const base = await app.listen({ port: 0, host: '127.0.0.1' });
    const bareBase = await bare.listen({ port: 0, host: '127.0.0.1' });
    const login = await app.inject({ method: 'POST', url: '/v1/auth/login', payload: { email: 'alice@acme.example', password: DEMO_PASSWORD } });
    // An API client's Bearer header (the browser sends the httpOnly `token` cookie instead; both reach the same checks).
    const headers = { authorization: `Bearer ${login.json().token}`, 'content-type': 'application/json' };
    const query = `billing_account_id=${BENCH_ACCOUNT.billingAccountId}&period=12months`;
    const url = `${base}/v2/billing/aggregated/by_service/chart/acme-corp?${query}&provider=gcp`;
    const body = JSON.stringify({ services: [] });
    const lines = (await ctx.pool.query(`SELECT count(*)::bigint AS n FROM cost_line WHERE billing_account_id = $1`, [BENCH_ACCOUNT.billingAccountId])).rows[0].n;
    console.log(`account cost lines        ${fmt(Number(lines))}`);

    const duration = ctx.seconds;
    const bareRun = await autocannon({ url: `${bareBase}/bare`, connections: 10, duration });
    console.log(`bare Fastify JSON route, autocannon 10 conn ${duration}s:   p50 ${bareRun.latency.p50} ms  p99 ${bareRun.latency.p99} ms  mean ${fmt(bareRun.latency.average, 2)} ms  ${fmt(bareRun.requests.average)} req/s`);

    // Cached right after the bare route, in the same conditions (the computed runs below load the database). One
    // request first fills the cache: otherwise all 10 connections miss together and the run measures that stampede.
    const warm = await fetch(url, { method: 'POST', headers, body });
    if (warm.status !== 200) throw new Error(`chart answered ${warm.status}`);
    await warm.arrayBuffer();
    const cached = await autocannon({ url, method: 'POST', headers, body, connections: 10, duration });
    console.log(`cached chart, autocannon 10 conn ${duration}s:  p50 ${cached.latency.p50} ms  p99 ${cached.latency.p99} ms  mean ${fmt(cached.latency.average, 2)} ms  ${fmt(cached.requests.average)} req/s  non2xx ${cached.non2xx}`);
    // Computed: the account's cache version is bumped before every request, so each answer is computed afresh.
    console.log(`computed (no cache), ${COMPUTED_SAMPLES} sequential each after ${WARM_UP} untimed, beside the bare route's p99 ${bareRun.latency.p99} ms:`);
    // Every route over 12 months, then the chart routes over 30 days (days instead of months: the daily rollups).
    const runs = [
      ...COMPUTED_ROUTES.map((r) => ({ ...r, period: '12months' })),
      ...COMPUTED_ROUTES.filter((r) => !r.path.endsWith('/export')).map((r) => ({ ...r, name: `${r.name.replace(' (12 months)', '')} (30 days)`, period: '30days' })),
    ];
    for (const r of runs) {
      const provider = r.path.includes('/labels/') ? '' : '&provider=gcp';
      const query = `billing_account_id=${BENCH_ACCOUNT.billingAccountId}&period=${r.period}`;
      const times: number[] = [];
      let failed = '';
      // Two untimed requests first: the first answers of a route open the pool's connections (five queries run side
      // by side) and fill their catalog caches, a one-time cost the steady-state figure should not carry.
      for (let i = -WARM_UP; i < COMPUTED_SAMPLES && !failed; i++) {
        if (r.cached) await app.producers.redis.incr(billingVersionKey(ctx.config.QUEUE_PREFIX, BENCH_ACCOUNT.billingAccountId));
        const t0 = performance.now();
        const res = await fetch(`${base}${r.path}?${query}${provider}`, { method: 'POST', headers, body: JSON.stringify(r.body) });
        await res.arrayBuffer();
        if (res.status !== 200) failed = `answered ${res.status} after ${fmt(performance.now() - t0)} ms`;
        else if (i >= 0) times.push(performance.now() - t0);
      }
      times.sort((a, b) => a - b);
      if (failed) console.log(`  ${r.name.padEnd(36)} ${failed}`);
      else console.log(`  ${r.name.padEnd(36)} p50 ${fmt(percentile(times, 50), 1).padStart(7)} ms  p99 ${fmt(percentile(times, 99), 1).padStart(7)} ms`);
    }

    const bareAgain = await autocannon({ url: `${bareBase}/bare`, connections: 10, duration });
    const bareRate = (bareRun.requests.average + bareAgain.requests.average) / 2;
    console.log(`bare route again (after):            p50 ${bareAgain.latency.p50} ms  p99 ${bareAgain.latency.p99} ms  ${fmt(bareAgain.requests.average)} req/s`);
    // autocannon reports whole milliseconds, so a bare route's p50 is often 0: ratios use mean latency and req/s.
    console.log(
      `ratio cached / bare       throughput ${fmt(cached.requests.average / Math.max(bareRate, 1), 2)}× (target ≥ 0.25×)  mean latency ${fmt(cached.latency.average / bareRun.latency.average, 1)}×  cached p99 ${cached.latency.p99} ms (target ≤ 5 ms)`,
    );
  } finally {
    await app.close();
    await bare.close();
  }
}
