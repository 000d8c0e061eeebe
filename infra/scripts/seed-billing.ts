/**
 * Demo spend for `make start`: 13 months of generated GCP export rows for every seeded billing account
 * that has none yet, plus the real FOCUS sample (AWS, Azure, Oracle) on Acme's first account.
 * Accounts that already hold data are left alone, so a restart is quick.
 */
import { fileURLToPath } from 'node:url';
import { existsSync } from 'node:fs';
import { main as cc } from '../cli/cc.ts';
import { loadConfig } from '@cc/shared/config.ts';
import { createPool } from '@cc/shared/db/pool.ts';

const FOCUS_SAMPLE = fileURLToPath(new URL('../../../shared/data/focus-1.0/focus_sample.csv', import.meta.url));

const pool = createPool(loadConfig().DATABASE_URL, 2);
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
