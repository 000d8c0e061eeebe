/**
 * A worker process for the kill -9 test: runs the export sync of one account (arguments in the environment) and is
 * killed mid-download by the test. Not a test file itself.
 */
import { createPool } from '@cc/shared/db/pool.ts';
import { createSecretBox } from '@cc/shared/secret-box.ts';
import { exportStoresFromConfig } from '@cc/shared/adapters/billing-exports/from-config.ts';
import { syncExportAccount } from '../../workers/src/billing-exports/sync.ts';

const env = (name: string) => {
  const v = process.env[name];
  if (!v) throw new Error(`${name} is not set`);
  return v;
};
const pool = createPool(env('CHILD_DATABASE_URL'), 2);
await syncExportAccount(
  { pool, exportStores: await exportStoresFromConfig(createSecretBox(env('CHILD_SECRETS_KEY'))) },
  { customer_id: env('CHILD_CUSTOMER'), billing_account_id: env('CHILD_ACCOUNT') },
);
await pool.end();
