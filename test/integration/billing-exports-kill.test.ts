/**
 * A worker killed with SIGKILL while downloading an AWS Data Export delivery (s3rver started here; layout: AWS Data
 * Exports user guide, "Understanding export delivery"): nothing is loaded and nothing that looks finished is left,
 * and the run after the restart loads the delivery once.
 */
import t from 'tap';
import { spawn } from 'node:child_process';
import { readdir, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createSecretBox } from '@cc/shared/secret-box.ts';
import { saveExportSource } from '@cc/shared/db/billing-export-sources.ts';
import { exportStoresFromConfig } from '@cc/shared/adapters/billing-exports/from-config.ts';
import { syncExportAccount } from '../../workers/src/billing-exports/sync.ts';
import { testEnv } from '../helper.ts';
import { startS3 } from '../emulators/s3.ts';
import { focusCsv, spendOf } from './billing-exports-helpers.ts';

const ACME = { customer_id: 'acme-corp', billing_account_id: '01FFEE-DDCCBB-AA9988' };
const KEY = 'c'.repeat(40);
const WORK = join(tmpdir(), 'cc-billing-exports');

async function downloadsInProgress(): Promise<string[]> {
  const found: string[] = [];
  for (const dir of await readdir(WORK).catch(() => [] as string[])) {
    if (!dir.startsWith(ACME.billing_account_id)) continue;
    for (const f of await readdir(join(WORK, dir)).catch(() => [] as string[])) if (f.endsWith('.download')) found.push(join(WORK, dir, f));
  }
  return found;
}

t.test('kill -9 mid-download: nothing loaded, then loaded once after the restart', async (t) => {
  const { pool, config } = await testEnv(t);
  const s3 = await startS3();
  t.teardown(() => s3.close());
  await s3.createBucket('cur');
  const box = createSecretBox(KEY);
  await saveExportSource(pool, {
    billingAccountId: ACME.billing_account_id,
    customerId: ACME.customer_id,
    kind: 'aws-data-exports',
    settings: { bucket: 'cur', prefix: '', export_name: 'big', endpoint: s3.endpoint },
    secretSealed: box.seal('S3RVER:S3RVER', ACME.billing_account_id),
  });
  // a large part (uncompressed, so the download takes long enough to be caught in it), every row 0.01
  const rows = Array.from({ length: 400_000 }, (_, i): [string, string] => [`2026-08-${String(2 + (i % 27)).padStart(2, '0')}`, '0.01']);
  const key = 'big/data/BILLING_PERIOD=2026-08/big-00001.csv';
  await s3.put('cur', key, focusCsv('AWS', '2026-08', rows));
  await s3.put('cur', 'big/metadata/BILLING_PERIOD=2026-08/big-Manifest.json', JSON.stringify({ dataFiles: [`s3://cur/${key}`] }));

  const child = spawn(process.execPath, ['--import=tsx', fileURLToPath(new URL('../emulators/export-sync-child.ts', import.meta.url))], {
    env: { ...process.env, CHILD_DATABASE_URL: config.DATABASE_URL, CHILD_SECRETS_KEY: KEY, CHILD_CUSTOMER: ACME.customer_id, CHILD_ACCOUNT: ACME.billing_account_id },
    stdio: 'ignore',
  });
  const exited = new Promise<NodeJS.Signals | null>((resolve) => child.once('exit', (_code, signal) => resolve(signal)));
  let caught: string[] = [];
  for (let i = 0; i < 6000 && child.exitCode === null; i++) {
    caught = await downloadsInProgress();
    if (caught.length > 0 && (await stat(caught[0]).catch(() => null))?.size) break;
    await new Promise((r) => setTimeout(r, 5));
  }
  t.ok(caught.length > 0, 'the child was caught downloading');
  child.kill('SIGKILL');
  t.equal(await exited, 'SIGKILL', 'killed with SIGKILL');
  t.same(await spendOf(pool, ACME.billing_account_id, 'aws', '2026-08'), { lines: null, daily: null }, 'nothing loaded');
  const batches = async () => (await pool.query(`SELECT status, count(*)::int AS n FROM ingest_batch WHERE billing_account_id = $1 GROUP BY 1 ORDER BY 1`, [ACME.billing_account_id])).rows;
  t.notOk((await batches()).some((b) => b.status === 'succeeded'), 'no batch succeeded');

  const restarted = await syncExportAccount({ pool, exportStores: await exportStoresFromConfig(box) }, ACME);
  t.match(restarted.loaded, [{ period: '2026-08', rows: 400_000 }], 'the restart loads the delivery');
  t.same(await spendOf(pool, ACME.billing_account_id, 'aws', '2026-08'), { lines: '4000.000000000000', daily: '4000.000000000000' }, 'once');
  t.same(await downloadsInProgress(), [], 'no partial download is left');
  const again = await syncExportAccount({ pool, exportStores: await exportStoresFromConfig(box) }, ACME);
  t.same([again.loaded, again.unchanged], [[], ['2026-08']], 'and not again');
  t.match(await batches(), [{ status: 'succeeded', n: 1 }]);
});
