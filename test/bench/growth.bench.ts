/**
 * Growth: how the billing pipeline's costs grow with the account's cost lines. At each size of BENCH_GROWTH (default
 * 10,000, 100,000, 1,000,000, 5,000,000 lines; e.g. BENCH_GROWTH=10000,100000 to shorten, or 5000000,50000000 for the
 * 50-million step: ~6 minutes and ~18 GB of disk), in a fresh database:
 * - the ingest of that many lines (rows/s end to end, as the ingest benchmark measures it);
 * - a daily refresh: re-ingesting the last day of the account into the full table (the nightly job's shape), which
 *   shows whether the size of cost_line slows the ingest of a fixed amount of data;
 * - the computed 12-month service chart (cache version bumped before every request), p50 and p99 of 30 requests;
 * - one anomaly pass over the account (detect + store, as the nightly job runs it).
 * Printed as a table, with the growth factor of each figure per ×10 lines (1.0 per ×10 for a figure that stays flat,
 * 10 for one that grows linearly; for the ingest and the refresh, time per row: a day holds more lines as the
 * account grows).
 */
import { billingVersionKey } from '@cc/shared/billing/chart-cache.ts';
import { withTransaction } from '@cc/shared/db/pool.ts';
import { detectAnomalies } from '@cc/shared/db/anomalies.ts';
import { ANOMALY_CANDIDATE_RETENTION_DAYS, ANOMALY_MIN_HISTORY_DAYS, ANOMALY_WINDOW_DAYS } from '@cc/shared/insights/anomaly-rule.ts';
import type { BillingSource, CostRow, SourceItem } from '@cc/shared/ports/billing-source.ts';
import { buildApp } from '../../api/src/app.ts';
import { DEMO_PASSWORD } from '../../infra/scripts/seed.ts';
import { runIngest } from '../../workers/src/billing-ingest/ingest.ts';
import { BENCH_ACCOUNT, benchRows, benchSource } from './rows.ts';
import { benchContext, fmt, type BenchContext } from './context.ts';

const CHART_SAMPLES = 30;

interface Figures {
  lines: number;
  ingestRowsPerSecond: number;
  ingestMicrosPerRow: number;
  refreshMs: number;
  refreshRows: number;
  chartP50: number;
  chartP99: number;
  anomalyMs: number;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/** The last generated day of `n` bench rows, as a windowed source of that one day (it replaces that day). */
function lastDaySource(n: number): { source: BillingSource; rows: number } {
  let last = '';
  for (const r of benchRows(n)) last = r.usage_date;
  // kept while generating: a spread of all n rows first held 50 million row objects (out of memory)
  const rows: CostRow[] = [];
  for (const r of benchRows(n)) if (r.usage_date === last) rows.push(r);
  return {
    rows: rows.length,
    source: {
      label: `bench last day ${last}`,
      window: { from: last, to: last },
      providers: ['gcp'],
      async *rows(): AsyncGenerator<SourceItem> {
        let line = 0;
        for (const row of rows) yield { line: ++line, row };
      },
    },
  };
}

async function chartTimes(ctx: BenchContext): Promise<number[]> {
  const app = await buildApp(ctx.config, { logger: false });
  try {
    const base = await app.listen({ port: 0, host: '127.0.0.1' });
    const login = await app.inject({ method: 'POST', url: '/v1/auth/login', payload: { email: 'alice@acme.example', password: DEMO_PASSWORD } });
    const headers = { authorization: `Bearer ${login.json().token}`, 'content-type': 'application/json' };
    const url = `${base}/v2/billing/aggregated/by_service/chart/acme-corp?billing_account_id=${BENCH_ACCOUNT.billingAccountId}&provider=gcp&period=12months`;
    const times: number[] = [];
    // two untimed first (new pool connections, chart.bench.ts says why)
    for (let i = -2; i < CHART_SAMPLES; i++) {
      await app.producers.redis.incr(billingVersionKey(ctx.config.QUEUE_PREFIX, BENCH_ACCOUNT.billingAccountId));
      const t0 = performance.now();
      const res = await fetch(url, { method: 'POST', headers, body: JSON.stringify({ services: [] }) });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`chart answered ${res.status}`);
      if (i >= 0) times.push(performance.now() - t0);
    }
    return times.sort((a, b) => a - b);
  } finally {
    await app.close();
  }
}

async function measure(lines: number): Promise<Figures> {
  const ctx = await benchContext();
  try {
    const account = { pool: ctx.pool, ...BENCH_ACCOUNT, sourceKind: 'gcp-generated' as const };
    let t0 = performance.now();
    const summary = await runIngest({ ...account, source: benchSource(lines) });
    const ingestSeconds = (performance.now() - t0) / 1000;
    const day = lastDaySource(lines);
    t0 = performance.now();
    await runIngest({ ...account, source: day.source });
    const refreshMs = performance.now() - t0;
    // the steady state autovacuum reaches after an ingest (ingest.bench.ts says why)
    await ctx.pool.query('VACUUM (ANALYZE) cost_line, cost_daily, cost_monthly, cost_daily_label, cost_monthly_label');
    const chart = await chartTimes(ctx);
    await ctx.pool.query('UPDATE customer SET anomaly_detection = true WHERE customer_id = $1', [BENCH_ACCOUNT.customerId]);
    const last = (await ctx.pool.query<{ d: string }>('SELECT max(usage_date)::text AS d FROM cost_daily WHERE billing_account_id = $1', [BENCH_ACCOUNT.billingAccountId])).rows[0].d;
    t0 = performance.now();
    await withTransaction(ctx.pool, (tx) =>
      detectAnomalies(tx, {
        date: last,
        customerId: BENCH_ACCOUNT.customerId,
        windowDays: ANOMALY_WINDOW_DAYS,
        minHistoryDays: ANOMALY_MIN_HISTORY_DAYS,
        candidateRetentionDays: ANOMALY_CANDIDATE_RETENTION_DAYS,
      }),
    );
    const anomalyMs = performance.now() - t0;
    return {
      lines: summary.rows,
      ingestRowsPerSecond: summary.rows / ingestSeconds,
      ingestMicrosPerRow: (ingestSeconds * 1e6) / summary.rows,
      refreshMs,
      refreshRows: day.rows,
      chartP50: percentile(chart, 50),
      chartP99: percentile(chart, 99),
      anomalyMs,
    };
  } finally {
    await ctx.close();
  }
}

/** Growth of `b` over `a` per ×10 lines: (b/a)^(1 / log10(lines ratio)). */
function perTenfold(a: number, b: number, linesA: number, linesB: number): string {
  const decades = Math.log10(linesB / linesA);
  return decades > 0 && a > 0 ? `×${fmt((b / a) ** (1 / decades), 2)}` : '';
}

export async function growthBench(sizes = (process.env.BENCH_GROWTH ?? '10000,100000,1000000,5000000').split(',').map(Number)): Promise<void> {
  const all: Figures[] = [];
  for (const n of sizes) all.push(await measure(n));
  const cols = ['cost lines', 'ingest rows/s', 'µs/row', 'daily refresh', 'chart p50', 'chart p99', 'anomaly pass'];
  const cell = (s: string, i: number) => (i === 0 ? s.padEnd(12) : s.padStart(i === 3 ? 19 : 15));
  console.log(cols.map(cell).join(''));
  all.forEach((f, i) => {
    console.log(
      [
        fmt(f.lines),
        fmt(f.ingestRowsPerSecond),
        fmt(f.ingestMicrosPerRow, 1),
        `${fmt(f.refreshMs)} ms/${fmt(f.refreshRows)}`,
        `${fmt(f.chartP50, 1)} ms`,
        `${fmt(f.chartP99, 1)} ms`,
        `${fmt(f.anomalyMs)} ms`,
      ]
        .map(cell)
        .join(''),
    );
    if (i === 0) return;
    const p = all[i - 1];
    const g = (a: number, b: number) => perTenfold(a, b, p.lines, f.lines);
    console.log(
      ['  per ×10', '', g(p.ingestMicrosPerRow, f.ingestMicrosPerRow), g(p.refreshMs / p.refreshRows, f.refreshMs / f.refreshRows), g(p.chartP50, f.chartP50), g(p.chartP99, f.chartP99), g(p.anomalyMs, f.anomalyMs)]
        .map(cell)
        .join(''),
    );
  });
}
