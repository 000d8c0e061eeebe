/**
 * CommandCenter command line.
 *
 *   npm run cc -- ingest --customer ID --billing-account ID --file PATH          (a FOCUS 1.0 CSV file)
 *   npm run cc -- ingest --customer ID --billing-account ID --generate [--months 13 | --from D --to D]
 *
 * Runs the same ingest as the `billing-ingest` worker job, in this process, with a progress bar on
 * stderr. A file is an export of its billing periods (replaces them) unless every row is a FOCUS correction
 * (ChargeClass 'Correction'), which adds; notes say which, and name providers shown under All only.
 * Exit codes: 0 loaded (or the same correction file already loaded), 1 source rejected (bad lines listed), 2 bad command.
 */
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '@cc/shared/config.ts';
import { createPool } from '@cc/shared/db/pool.ts';
import { redisConnection } from '@cc/shared/redis.ts';
import { chartCache } from '@cc/shared/billing/chart-cache.ts';
import { BadIngestCommand, defaultWindow, type BillingIngestCommand } from '@cc/shared/commands/billing-ingest.ts';
import { billingToday } from '@cc/shared/time.ts';
import { ingestCommand } from './command.ts';
import { IngestRejected } from './ingest.ts';
import { progressBar } from './progress-bar.ts';

const USAGE = `usage:
  cc ingest --customer ID --billing-account ID --file PATH
  cc ingest --customer ID --billing-account ID --generate [--months N | --from YYYY-MM-DD --to YYYY-MM-DD]`;

class UsageError extends Error {}

function parseIngestArgs(argv: string[]): BillingIngestCommand {
  const { values } = parseArgs({
    args: argv,
    options: {
      customer: { type: 'string' },
      'billing-account': { type: 'string' },
      file: { type: 'string' },
      generate: { type: 'boolean', default: false },
      months: { type: 'string' },
      from: { type: 'string' },
      to: { type: 'string' },
    },
    strict: true,
  });
  if (!values.customer || !values['billing-account']) throw new UsageError('--customer and --billing-account are required');
  if (!!values.file === values.generate) throw new UsageError('give exactly one of --file or --generate');
  const base = { customer_id: values.customer, billing_account_id: values['billing-account'] };
  if (values.file) return { ...base, source: 'focus-file', file: values.file };
  if (values.months !== undefined) {
    if (values.from || values.to) throw new UsageError('--months and --from/--to exclude each other');
    const months = Number(values.months);
    if (!Number.isInteger(months) || months < 1 || months > 120) throw new UsageError('--months must be a whole number from 1 to 120');
    return { ...base, source: 'gcp-generated', ...defaultWindow(billingToday(), months) };
  }
  return { ...base, source: 'gcp-generated', from: values.from, to: values.to };
}

/**
 * Cached dashboard charts of the account are stale now; without Redis (an offline backfill) there is nothing to drop.
 * No follow-up jobs: a backfill loads many accounts, and the seed queues one detection and evaluation for all at the end.
 */
async function invalidateCharts(config: { REDIS_URL: string; QUEUE_PREFIX: string }, billingAccountId: string): Promise<void> {
  const redis = redisConnection(config.REDIS_URL, 'producer');
  redis.on('error', () => undefined);
  const noLog = { warn: () => undefined };
  try {
    await chartCache(redis, config.QUEUE_PREFIX, noLog).invalidate(billingAccountId);
  } catch (err) {
    console.error(`warning: cached charts not invalidated (${(err as Error).message}); they expire within an hour`);
  } finally {
    redis.disconnect();
  }
}

export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command !== 'ingest') {
    console.error(USAGE);
    return 2;
  }
  let cmd: BillingIngestCommand;
  try {
    cmd = parseIngestArgs(rest);
  } catch (err) {
    console.error(`${(err as Error).message}\n${USAGE}`);
    return 2;
  }
  const config = loadConfig();
  const pool = createPool(config.DATABASE_URL, 2);
  const bar = progressBar();
  try {
    const summary = await ingestCommand(pool, cmd, {
      // --file and --generate only: no BigQuery client needed.
      sources: {},
      onOpened: (label) => console.error(`ingesting ${label} into ${cmd.customer_id} / ${cmd.billing_account_id}`),
      onProgress: (p) => bar.update(p),
    });
    bar.finish();
    await invalidateCharts(config, cmd.billing_account_id);
    if (summary.alreadyLoaded) {
      console.log(`nothing loaded: this file is already loaded (batch ${summary.batchId}, ${summary.rows} rows) and nothing was loaded into the account since`);
    } else if (summary.duplicateOf !== null) {
      console.log(`nothing loaded: ${summary.rows} rows read, the same file was loaded by batch ${summary.duplicateOf} (this run: batch ${summary.batchId})`);
    } else {
      console.log(`loaded ${summary.rows} rows into ${summary.days} days (${summary.from}..${summary.to}), batch ${summary.batchId}`);
    }
    for (const t of summary.totals) {
      console.log(`  ${t.provider_name} (${t.provider}) ${t.currency}: cost ${t.cost}, credits ${t.credits}, spend ${t.spend} (billed), ${t.effective_cost} (amortised)`);
    }
    for (const note of summary.notes) console.log(`note: ${note}`);
    return 0;
  } catch (err) {
    bar.finish();
    if (err instanceof IngestRejected) {
      console.error(`rejected: ${err.errorCount} bad line${err.errorCount === 1 ? '' : 's'}; nothing was loaded (batch ${err.batchId})`);
      for (const e of err.errors) console.error(`  line ${e.line}: ${e.reason}`);
      if (err.errorCount > err.errors.length) console.error(`  … and ${err.errorCount - err.errors.length} more`);
      return 1;
    }
    if (err instanceof BadIngestCommand) {
      console.error(err.message);
      return 2;
    }
    throw err;
  } finally {
    await pool.end();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  process.exitCode = await main(process.argv.slice(2));
}
