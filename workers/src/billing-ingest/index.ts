/**
 * The billing-ingest module's front door for code outside workers/ (the seed scripts): the one ingest path, the
 * cc CLI and the demo data generators. Inside workers/, import the files directly.
 */
export { runIngest, IngestRejected, type IngestSummary } from './ingest.ts';
export { main as runCli } from './cli.ts';
export { replayFocusSample } from './formats/focus-replay.ts';
export { generatedRowsForDay, microsToDecimal } from '@cc/shared/adapters/bigquery/from-config.ts';
