/**
 * Benchmark runner: each benchmark prints its figures beside a baseline measured in the same run (not asserted).
 * BENCH_ROWS (default 5,000,000) sets the generated cost lines; BENCH_FILE_ROWS (default 5,000,000) the rows of each FOCUS file, BENCH_FILE_CASES (default wide,narrow,gzip,parquet) which files and BENCH_NODE_FLAGS (default the production worker's, infra/scripts/node-flags.ts) the V8 flags of the CLI and worker it starts; BENCH_SECONDS (default 10) each autocannon run;
 * ANOMALY_SERIES (default 100,000) the project x service series of the anomaly benchmark; BENCH_ASSETS (default
 * 100,000), BENCH_GRAPH_NODES (default 5,000), BENCH_GRAPH_LARGE (default 50,000; 0 leaves it out), BENCH_PROJECTS (default 500) and BENCH_LICENSES (default 50) the inventory,
 * provisioning and license lists.
 * BENCH_GROWTH (default 10000,100000,1000000,5000000) the cost-line counts of the growth table (5000000,50000000
 * measures the 50-million step: ~6 minutes, ~18 GB of disk).
 * The web app's weight per route is read from the last `make build` (web/dist).
 * BENCH_ONLY (default: all) runs only the named parts, comma-separated: web, ingest, file-ingest, chart, areas,
 * forecast, anomaly, growth, browser (Chromium over four screens; needs web/dist), operations (the provider's inbox,
 * spend overview and customer picker with BENCH_CUSTOMERS generated customers, default 500). The chart benchmark reads the ingest benchmark's rows, so `chart` runs `ingest` too.
 */
import { benchContext } from './context.ts';
import { ingestBench } from './ingest.bench.ts';
import { fileIngestBench } from './file-ingest.bench.ts';
import { chartBench } from './chart.bench.ts';
import { forecastBench } from './forecast.bench.ts';
import { anomalyDetectBench } from './anomaly-detect.bench.ts';
import { areasBench } from './areas.bench.ts';
import { printRouteWeights } from './web-bundle.ts';
import { growthBench } from './growth.bench.ts';
import { browserBench } from './browser.bench.ts';
import { operationsBench } from './operations.bench.ts';

const only = process.env.BENCH_ONLY ? new Set(process.env.BENCH_ONLY.split(',').map((s) => s.trim())) : null;
const runs = (name: string) => only === null || only.has(name) || (name === 'ingest' && only.has('chart'));

if (runs('web')) {
  console.log('# web: gzipped JavaScript each route loads (entry + page chunk + what it draws on arrival)');
  printRouteWeights();
}
if (['ingest', 'file-ingest', 'chart', 'areas', 'forecast', 'browser', 'operations'].some(runs)) {
  const ctx = await benchContext();
  try {
    if (runs('ingest')) {
      console.log(`# billing ingest: ${ctx.rows.toLocaleString('en-US')} generated rows`);
      await ingestBench(ctx);
    }
    if (runs('file-ingest')) {
      console.log(`# FOCUS file ingest through the cc CLI and the api's drop folder beside raw COPY of the same rows, with each process's peak RSS and CPU (BENCH_FILE_ROWS, default 5,000,000)`);
      await fileIngestBench(ctx);
    }
    if (runs('chart')) {
      console.log('# billing chart route latency (12-month service chart)');
      await chartBench(ctx);
    }
    if (runs('areas')) {
      console.log('# inventory, license and provisioning routes beside a bare route');
      await areasBench(ctx);
    }
    if (runs('browser')) {
      console.log('# browser: time to the first drawn chart or table and Largest Contentful Paint, cold and warm, beside a blank page');
      await browserBench(ctx);
    }
    if (runs('forecast')) {
      console.log('# forecast backtest vs naive baseline');
      await forecastBench();
    }
    if (runs('operations')) {
      // Last of the shared database's parts: the customers it generates would change the admin's lists above.
      console.log('# operations: the provider\'s console beside a bare route');
      await operationsBench(ctx);
    }
  } finally {
    await ctx.close();
  }
}
if (runs('anomaly')) {
  // Its own database: the anomaly benchmark rewrites the seeded customer's billing accounts.
  console.log('# anomaly detection: time and precision/recall vs the plain mean rule');
  await anomalyDetectBench();
}
if (runs('growth')) {
  // Each size in a database of its own.
  console.log('# growth: ingest, computed chart and anomaly pass at each cost-line count (growth per ×10 lines)');
  await growthBench();
}
