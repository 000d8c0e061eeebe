export {};
/**
 * Benchmark runner: each benchmark prints its figures beside a baseline measured in the same run.
 * Later issues add files to BENCHMARKS (ingest throughput, chart latency, forecast backtest, anomaly detection).
 */
const BENCHMARKS: { name: string; run: () => Promise<void> }[] = [];

if (BENCHMARKS.length === 0) console.log('no benchmarks yet');
for (const b of BENCHMARKS) {
  console.log(`# ${b.name}`);
  await b.run();
}
