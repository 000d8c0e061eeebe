/**
 * The local adapters: a folder laid out as the bucket or container would be (AWS Data Exports user guide,
 * "Understanding export delivery"; Cost Management "Tutorial: Improved exports experience") is read like S3 and Blob
 * Storage: loaded, then skipped while unchanged, reloaded when the delivery is rewritten.
 */
import t from 'tap';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { createSecretBox } from '@cc/shared/secret-box.ts';
import { saveExportSource } from '@cc/shared/db/billing-export-sources.ts';
import { exportStoresFromConfig } from '@cc/shared/adapters/billing-exports/from-config.ts';
import { syncExportAccount } from '../../workers/src/billing-exports/sync.ts';
import { testEnv } from '../helper.ts';
import { focusCsv, spendOf } from './billing-exports-helpers.ts';

const ACME = { customer_id: 'acme-corp', billing_account_id: '01FFEE-DDCCBB-AA9988' };
const GLOBEX = { customer_id: 'globex', billing_account_id: '02B3C4-D5E6F7-A8B9C0' };

t.test('local folder adapters read the AWS and Azure layouts', async (t) => {
  const { pool } = await testEnv(t);
  const folder = await mkdtemp(join(tmpdir(), 'cc-local-exports-'));
  t.teardown(() => rm(folder, { recursive: true, force: true }));
  const put = async (path: string, body: string | Buffer) => {
    await mkdir(dirname(join(folder, path)), { recursive: true });
    await writeFile(join(folder, path), body);
  };
  const box = createSecretBox('l'.repeat(40));
  const deps = { pool, exportStores: await exportStoresFromConfig(box, { localDir: folder }) };
  await saveExportSource(pool, { billingAccountId: ACME.billing_account_id, customerId: ACME.customer_id, kind: 'aws-data-exports', settings: { bucket: 'acme-cur', prefix: 'focus', export_name: 'acme' } });
  await saveExportSource(pool, { billingAccountId: GLOBEX.billing_account_id, customerId: GLOBEX.customer_id, kind: 'azure-cost-exports', settings: { storage_account: 'globex', container: 'exports', directory: 'cost', export_name: 'globex' } });

  const awsKey = 'focus/acme/data/BILLING_PERIOD=2026-09/acme-00001.csv.gz';
  await put(`acme-cur/${awsKey}`, gzipSync(focusCsv('AWS', '2026-09', [['2026-09-10', '12.00']])));
  await put('acme-cur/focus/acme/metadata/BILLING_PERIOD=2026-09/acme-Manifest.json', JSON.stringify({ dataFiles: [`s3://acme-cur/${awsKey}`] }));
  const azureRun = 'cost/globex/20260901-20260930/run-1';
  await put(`exports/${azureRun}/part_0_0001.csv.gz`, gzipSync(focusCsv('Microsoft', '2026-09', [['2026-09-11', '8.00']])));
  await put(`exports/${azureRun}/manifest.json`, JSON.stringify({ blobs: [{ blobName: `${azureRun}/part_0_0001.csv.gz` }] }));

  t.match(await syncExportAccount(deps, ACME), { loaded: [{ period: '2026-09', rows: 1 }] });
  t.match(await syncExportAccount(deps, GLOBEX), { loaded: [{ period: '2026-09', rows: 1 }] });
  t.same((await syncExportAccount(deps, ACME)).unchanged, ['2026-09'], 'unchanged: skipped');
  t.same(await spendOf(pool, ACME.billing_account_id, 'aws', '2026-09'), { lines: '12.000000000000', daily: '12.000000000000' });
  t.same(await spendOf(pool, GLOBEX.billing_account_id, 'azure', '2026-09'), { lines: '8.000000000000', daily: '8.000000000000' });

  await put(`acme-cur/${awsKey}`, gzipSync(focusCsv('AWS', '2026-09', [['2026-09-10', '13.00']])));
  t.match(await syncExportAccount(deps, ACME), { loaded: [{ period: '2026-09' }] }, 'a rewritten file is a new delivery');
  t.same(await spendOf(pool, ACME.billing_account_id, 'aws', '2026-09'), { lines: '13.000000000000', daily: '13.000000000000' });

  // a Parquet part (Azure writes snappy Parquet) is handed to the file ingest as it came: the FOCUS sample, September 2024
  const parquet = await readFile(new URL('../fixtures/focus-parquet/focus_sample.snappy.parquet', import.meta.url));
  const run2 = 'cost/globex/20240901-20240930/run-2';
  await put(`exports/${run2}/part_0_0001.snappy.parquet`, parquet);
  await put(`exports/${run2}/manifest.json`, JSON.stringify({ blobs: [{ blobName: `${run2}/part_0_0001.snappy.parquet` }] }));
  const loaded = await syncExportAccount(deps, GLOBEX);
  t.match(loaded.loaded, [{ period: '2024-09' }], 'the Parquet run is loaded');
  t.ok((loaded.loaded[0]?.rows ?? 0) > 0);
});
