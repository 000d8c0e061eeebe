/**
 * Demo spend for `make start`: 13 months of generated GCP export rows for every seeded billing account
 * that has none yet, plus the real FOCUS sample (AWS, Azure, Oracle) on Acme's first account.
 * Accounts that already hold data are left alone, so a restart is quick. Then it queues one anomaly detection and
 * one alert evaluation for every customer, so the screens have results before the first nightly run.
 */
import { fileURLToPath } from 'node:url';
import { existsSync } from 'node:fs';
import { main as cc } from '../cli/cc.ts';
import { loadConfig } from '@cc/shared/config.ts';
import { createPool } from '@cc/shared/db/pool.ts';
import { createProducer } from '../../workers/src/worker-host.ts';

const FOCUS_SAMPLE = fileURLToPath(new URL('../../../shared/data/focus-1.0/focus_sample.csv', import.meta.url));

const config = loadConfig();
const pool = createPool(config.DATABASE_URL, 2);
const { rows } = await pool.query<{ customer_id: string; account: string; loaded: boolean }>(
  `SELECT c.customer_id, a.account,
          EXISTS (SELECT 1 FROM cost_line l WHERE l.billing_account_id = a.account) AS loaded
     FROM customer c, unnest(c.billing_account_ids) AS a(account) ORDER BY 1, 2`,
);
await pool.end();

for (const r of rows) {
  if (r.loaded) {
    console.log(`seed-billing: ${r.customer_id} / ${r.account} already has spend`);
    continue;
  }
  const code = await cc(['ingest', '--customer', r.customer_id, '--billing-account', r.account, '--generate', '--months', '13']);
  if (code !== 0) process.exit(code);
  if (r.customer_id === 'acme-corp' && r.account === '01A2B3-C4D5E6-F7A8B9' && existsSync(FOCUS_SAMPLE)) {
    const focus = await cc(['ingest', '--customer', r.customer_id, '--billing-account', r.account, '--file', FOCUS_SAMPLE]);
    if (focus !== 0) process.exit(focus);
  }
}

// The worker (started next by make start) runs them; the cc CLI loads spend directly and queues no follow-ups.
const producer = createProducer(config.REDIS_URL, config.QUEUE_PREFIX);
try {
  await producer.enqueue('anomaly-detect', {});
  await producer.enqueue('alert-evaluate', {});
  console.log('seed-billing: queued anomaly detection and alert evaluation');
} finally {
  await producer.close();
}
