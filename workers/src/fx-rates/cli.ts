/**
 * Loads exchange rates into fx_rate from the command line.
 *
 *   npm run fx-rates -- --file PATH [--demo]     a rates CSV (layout of the ECB's eurofxref-hist.csv); source 'csv',
 *                                                or 'demo' with --demo (marked as demo rates in the UI)
 *   npm run fx-rates -- --source                 what the nightly fx-rates job does, now (FX_RATES=local|ecb)
 *
 * Then drops every cached chart (best effort without Redis). Exit codes: 0 loaded, 1 file refused, 2 bad command.
 */
import { parseArgs } from 'node:util';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '@cc/shared/config.ts';
import { createPool, type Pool } from '@cc/shared/db/pool.ts';
import { redisConnection } from '@cc/shared/redis.ts';
import { chartCache } from '@cc/shared/billing/chart-cache.ts';
import { parseRatesCsv } from '@cc/shared/billing/fx-csv.ts';
import { saveRates } from '@cc/shared/db/fx-rates.ts';
import type { JobFor } from '@cc/shared/queues.ts';
import { fxRatesFromConfig } from '@cc/shared/adapters/fx-rates/from-config.ts';
import { fxRatesHandler } from '../jobs/fx-rates.ts';

const USAGE = 'usage: fx-rates --file PATH [--demo] | fx-rates --source';

async function invalidate(config: { REDIS_URL: string; QUEUE_PREFIX: string }): Promise<void> {
  const redis = redisConnection(config.REDIS_URL, 'producer');
  redis.on('error', () => undefined);
  try {
    await chartCache(redis, config.QUEUE_PREFIX, { warn: () => undefined }).invalidateRates();
  } catch {
    console.error('fx-rates: Redis not reachable; cached charts expire within an hour');
  } finally {
    redis.disconnect();
  }
}

async function loadFile(pool: Pool, file: string, demo: boolean): Promise<number> {
  const parsed = parseRatesCsv(await readFile(file, 'utf8'));
  if (parsed.errors.length > 0) {
    for (const e of parsed.errors.slice(0, 20)) console.error(`${file}:${e.line}: ${e.reason}`);
    return 1;
  }
  const saved = await saveRates(pool, demo ? 'demo' : 'csv', parsed.rates);
  console.log(`fx-rates: ${saved} rates from ${file} (source ${demo ? 'demo' : 'csv'})`);
  return 0;
}

export async function runFxCli(argv: string[]): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({ args: argv, options: { file: { type: 'string' }, demo: { type: 'boolean', default: false }, source: { type: 'boolean', default: false } }, strict: true }));
  } catch (err) {
    console.error(`${(err as Error).message}\n${USAGE}`);
    return 2;
  }
  if (!!values.file === values.source) {
    console.error(USAGE);
    return 2;
  }
  const config = loadConfig();
  const pool = createPool(config.DATABASE_URL, 2);
  try {
    if (values.file) {
      const code = await loadFile(pool, values.file, values.demo);
      if (code !== 0) return code;
    } else {
      const result = await fxRatesHandler({ pool, fxRates: { source: fxRatesFromConfig(config), invalidateCharts: async () => undefined } })({ data: {} } as JobFor<'fx-rates'>);
      console.log(`fx-rates: ${JSON.stringify(result)}`);
    }
  } finally {
    await pool.end();
  }
  await invalidate(config);
  return 0;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) process.exit(await runFxCli(process.argv.slice(2)));
