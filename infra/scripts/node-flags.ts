/**
 * The V8 flags every worker and `cc` process starts with (package.json, infra/scripts/start.sh, the systemd unit,
 * scale.ts, the tests' worker processes and the file-ingest bench): the old space capped at 384 MB so a worker's RSS
 * stays under 512 MB whatever the size of the CSV file it ingests (docs/decisions-billing.md, "Memory bound"). Without
 * a cap V8 lets its heap grow toward its default limit (4 GB on a 24 GB machine) before collecting hard; one ingest
 * of 1,000,000 rows peaked at 573 MB RSS. A Parquet file is bounded by its largest row group, not by the cap (same
 * section).
 * The shell and unit files cannot import this: node-flags.test.ts checks they say the same.
 */
export const WORKER_NODE_FLAGS = ['--max-old-space-size=384'];
