/**
 * Demo spend for `make start`: 13 months of generated GCP export rows for every seeded billing account
 * that has none yet, plus on Acme's first account the real FOCUS sample (AWS, Azure, Oracle; September 2024) and
 * that sample replayed into the last 13 months (focus-replay.ts), so every provider shows in every period.
 * Accounts that already hold data only get the generated days they miss up to yesterday, so a restart is quick and the
 * recent days are never empty. The demo exchange rates (infra/data/fx, source 'demo') convert the sample's USD spend
 * into the customers' currencies. Then the demo anomaly is placed on the judged day (demo-spike.ts), and one anomaly
 * detection and one alert evaluation are queued for every customer, so the screens have results before the first
 * nightly run.
 */
import { fileURLToPath } from 'node:url';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { replayFocusSample, runCli as cc } from '../../workers/src/billing-ingest/index.ts';
import { loadConfig } from '@cc/shared/config.ts';
import { createPool } from '@cc/shared/db/pool.ts';
import { createProducer } from '@cc/shared/producer.ts';
import { chartCache } from '@cc/shared/billing/chart-cache.ts';
import { createLogger } from '@cc/shared/logger.ts';
import { addDays, billingToday } from '@cc/shared/time.ts';
import { addDemoSpikes } from './demo-spike.ts';
import { DEMO_RATES_FILE, runFxCli } from '../../workers/src/fx-rates/index.ts';

const FOCUS_SAMPLE = fileURLToPath(new URL('../data/focus-1.0/focus_sample.csv', import.meta.url));

const config = loadConfig();
const pool = createPool(config.DATABASE_URL, 2);
const { rows } = await pool.query<{ customer_id: string; account: string; loaded: boolean; last_gcp_day: string | null }>(
  `SELECT c.customer_id, a.account,
          EXISTS (SELECT 1 FROM cost_line l WHERE l.billing_account_id = a.account) AS loaded,
          (SELECT max(d.usage_date)::text FROM cost_daily d WHERE d.billing_account_id = a.account AND d.provider = 'gcp') AS last_gcp_day
     FROM customer c, unnest(c.billing_account_ids) AS a(account) ORDER BY 1, 2`,
);

const yesterday = addDays(billingToday(), -1);
for (const r of rows) {
  if (r.loaded) {
    if (r.last_gcp_day && r.last_gcp_day < yesterday) {
      const from = addDays(r.last_gcp_day, 1);
      console.log(`seed-billing: ${r.customer_id} / ${r.account} already has spend; generating the missing days ${from}..${yesterday}`);
      const code = await cc(['ingest', '--customer', r.customer_id, '--billing-account', r.account, '--generate', '--from', from, '--to', yesterday]);
      if (code !== 0) process.exit(code);
    } else {
      console.log(`seed-billing: ${r.customer_id} / ${r.account} already has spend`);
    }
    continue;
  }
  const code = await cc(['ingest', '--customer', r.customer_id, '--billing-account', r.account, '--generate', '--months', '13']);
  if (code !== 0) process.exit(code);
  if (r.customer_id === 'acme-corp' && r.account === '01A2B3-C4D5E6-F7A8B9' && existsSync(FOCUS_SAMPLE)) {
    const focus = await cc(['ingest', '--customer', r.customer_id, '--billing-account', r.account, '--file', FOCUS_SAMPLE]);
    if (focus !== 0) process.exit(focus);
    // Slices are per provider: these AWS / Azure / Oracle days sit beside the generated GCP ones.
    const dir = fileURLToPath(new URL('../../var/demo', import.meta.url));
    mkdirSync(dir, { recursive: true });
    const replayed = join(dir, `focus-sample-replayed-to-${yesterday}.csv`);
    writeFileSync(replayed, replayFocusSample(readFileSync(FOCUS_SAMPLE, 'utf8'), { yesterday, months: 13 }));
    const recent = await cc(['ingest', '--customer', r.customer_id, '--billing-account', r.account, '--file', replayed]);
    if (recent !== 0) process.exit(recent);
  }
}

// Demo exchange rates (invented, marked as demo rates in the UI): the FOCUS sample's USD spend is shown in EUR.
const fx = await runFxCli(['--file', DEMO_RATES_FILE, '--demo']);
if (fx !== 0) process.exit(fx);

const spikes = await addDemoSpikes(pool);
await pool.end();
const log = createLogger(config.LOG_LEVEL, { process: 'seed-billing' });
const producer = createProducer(config.REDIS_URL, config.QUEUE_PREFIX, (err) => log.warn({ err }, 'redis connection error'));
try {
  // The re-ingested day changes the account's charts: cached ones of an earlier start would miss the spike.
  const cache = chartCache(producer.redis, config.QUEUE_PREFIX, log);
  for (const s of spikes) {
    await cache.invalidate(s.billing_account_id);
    console.log(`seed-billing: demo anomaly for ${s.customer_id} / ${s.billing_account_id}: ${s.project_id} BigQuery on ${s.day}`);
  }
  // The worker (started next by make start) runs them; the cc CLI loads spend directly and queues no follow-ups.
  await producer.enqueue('anomaly-detect', 'anomaly.detect', {});
  await producer.enqueue('alert-evaluate', 'alert.evaluate', {});
  console.log('seed-billing: queued anomaly detection and alert evaluation');
} finally {
  await producer.close();
}
