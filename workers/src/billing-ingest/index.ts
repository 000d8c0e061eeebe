/**
 * The billing-ingest module's front door for code outside workers/ (the seed scripts): the one ingest path, the
 * cc CLI and the demo data generators. Inside workers/, import the files directly.
 */
export { runIngest, IngestRejected, type IngestSummary } from './ingest.ts';
export { main as runCli } from './cli.ts';
export { replayFocusSample } from './sources/focus-replay.ts';
export { generatedRowsForDay, microsToDecimal } from './sources/gcp-generator.ts';
