/**
 * Azure Cost Management exports ("Cost and usage details (FOCUS)") read from Blob Storage, against Azurite started
 * here. The layout is Microsoft's (Cost Management "Tutorial: Improved exports experience": a storage container and
 * directory per export, file partitioning on by default with "a manifest.json file provided with each export run";
 * each run writes `<directory>/<export-name>/<YYYYMMDD-YYYYMMDD>/<run-id>/manifest.json` and its part files
 * `part_<n>_<nnnn>.csv.gz`, the manifest listing them in `blobs[].blobName`).
 */
import t from 'tap';
import { gzipSync } from 'node:zlib';
import { randomUUID } from 'node:crypto';
import { createSecretBox } from '@cc/shared/secret-box.ts';
import { saveExportSource, findExportSource } from '@cc/shared/db/billing-export-sources.ts';
import { exportStoresFromConfig } from '@cc/shared/adapters/billing-exports/from-config.ts';
import { ExportStoreAccessError } from '@cc/shared/ports/billing-export-store.ts';
import { syncExportAccount } from '../../workers/src/billing-exports/sync.ts';
import { testEnv } from '../helper.ts';
import { startAzurite, AZURITE_ACCOUNT } from '../emulators/azurite.ts';
import { focusCsv, spendOf } from './billing-exports-helpers.ts';

const GLOBEX = { customer_id: 'globex', billing_account_id: '02B3C4-D5E6F7-A8B9C0' };
const ACME = { customer_id: 'acme-corp', billing_account_id: '01FFEE-DDCCBB-AA9988' };
const CONTAINER = 'cost-exports';
const DIRECTORY = 'focus';
const EXPORT = 'globex-focus';

const runDir = (range: string, runId: string) => `${DIRECTORY}/${EXPORT}/${range}/${runId}`;
const manifest = (range: string, runId: string, parts: string[]) =>
  JSON.stringify({
    manifestVersion: '2024-04-01',
    blobCount: parts.length,
    exportConfig: { exportName: EXPORT, type: 'FocusCost', dataVersion: '1.0r2', timeFrame: 'MonthToDate' },
    deliveryConfig: { partitionData: true, dataOverwriteBehavior: 'CreateNewReport', fileFormat: 'Csv', compressionMode: 'gzip' },
    runInfo: { runId, executionType: 'Scheduled', startDate: `${range.slice(0, 4)}-${range.slice(4, 6)}-01T00:00:00` },
    blobs: parts.map((p) => ({ blobName: `${runDir(range, runId)}/${p}` })),
  });

t.test('Azure FOCUS exports from Blob Storage: first, unchanged, revised run, partial, wrong credentials', async (t) => {
  const { pool } = await testEnv(t);
  const azurite = await startAzurite();
  t.teardown(() => azurite.close());
  const container = azurite.container(CONTAINER);
  await container.create();
  const put = async (name: string, body: string | Buffer) => void (await container.getBlockBlobClient(name).uploadData(Buffer.from(body)));
  const box = createSecretBox('k'.repeat(40));
  const deps = { pool, exportStores: await exportStoresFromConfig(box) };
  const settings = { storage_account: AZURITE_ACCOUNT, container: CONTAINER, directory: DIRECTORY, export_name: EXPORT };
  await saveExportSource(pool, { billingAccountId: GLOBEX.billing_account_id, customerId: GLOBEX.customer_id, kind: 'azure-cost-exports', settings, secretSealed: box.seal(azurite.connectionString(), GLOBEX.billing_account_id) });

  const SEPT = '20260901-20260930';
  const run1 = randomUUID();
  await put(`${runDir(SEPT, run1)}/part_0_0001.csv.gz`, gzipSync(focusCsv('Microsoft', '2026-09', [['2026-09-03', '20.00']])));
  await put(`${runDir(SEPT, run1)}/part_1_0001.csv.gz`, gzipSync(focusCsv('Microsoft', '2026-09', [['2026-09-04', '2.50']])));
  await put(`${runDir(SEPT, run1)}/manifest.json`, manifest(SEPT, run1, ['part_0_0001.csv.gz', 'part_1_0001.csv.gz']));
  const first = await syncExportAccount(deps, GLOBEX);
  t.match(first.loaded, [{ period: '2026-09', rows: 2 }], 'the first run is loaded');
  t.same(await spendOf(pool, GLOBEX.billing_account_id, 'azure', '2026-09'), { lines: '22.500000000000', daily: '22.500000000000' });

  const again = await syncExportAccount(deps, GLOBEX);
  t.same([again.loaded, again.unchanged], [[], ['2026-09']], 'a run already loaded is skipped');

  // the next day's run of the same month (a new run folder; blob times have whole seconds)
  await new Promise((r) => setTimeout(r, 1100));
  const run2 = randomUUID();
  await put(`${runDir(SEPT, run2)}/part_0_0001.csv.gz`, gzipSync(focusCsv('Microsoft', '2026-09', [['2026-09-03', '20.00'], ['2026-09-05', '4.00']])));
  await put(`${runDir(SEPT, run2)}/manifest.json`, manifest(SEPT, run2, ['part_0_0001.csv.gz']));
  const revised = await syncExportAccount(deps, GLOBEX);
  t.match(revised.loaded, [{ period: '2026-09', rows: 2, manifest: `${runDir(SEPT, run2)}/manifest.json` }], 'the newer run is loaded');
  t.same(await spendOf(pool, GLOBEX.billing_account_id, 'azure', '2026-09'), { lines: '24.000000000000', daily: '24.000000000000' }, 'it replaced the month');

  // a run whose manifest is written before one of its parts
  const OCT = '20261001-20261031';
  const run3 = randomUUID();
  await put(`${runDir(OCT, run3)}/part_0_0001.csv.gz`, gzipSync(focusCsv('Microsoft', '2026-10', [['2026-10-02', '1.00']])));
  await put(`${runDir(OCT, run3)}/manifest.json`, manifest(OCT, run3, ['part_0_0001.csv.gz', 'part_1_0001.csv.gz']));
  const partial = await syncExportAccount(deps, GLOBEX);
  t.same(partial.incomplete, [{ period: '2026-10', missing: [`${runDir(OCT, run3)}/part_1_0001.csv.gz`] }], 'an incomplete run is named');
  t.same(await spendOf(pool, GLOBEX.billing_account_id, 'azure', '2026-10'), { lines: null, daily: null }, 'and nothing of it is loaded');
  await put(`${runDir(OCT, run3)}/part_1_0001.csv.gz`, gzipSync(focusCsv('Microsoft', '2026-10', [['2026-10-03', '2.00']])));
  const complete = await syncExportAccount(deps, GLOBEX);
  t.match(complete.loaded, [{ period: '2026-10', rows: 2 }], 'loaded on the next run once complete');
  t.same(await spendOf(pool, GLOBEX.billing_account_id, 'azure', '2026-10'), { lines: '3.000000000000', daily: '3.000000000000' });

  // another account whose connection string carries a wrong key
  const wrongKey = Buffer.alloc(64, 7).toString('base64');
  await saveExportSource(pool, { billingAccountId: ACME.billing_account_id, customerId: ACME.customer_id, kind: 'azure-cost-exports', settings, secretSealed: box.seal(azurite.connectionString(wrongKey), ACME.billing_account_id) });
  const refused = await syncExportAccount(deps, ACME).then(
    () => null,
    (err: unknown) => err,
  );
  t.ok(refused instanceof ExportStoreAccessError, 'refused as an access error');
  t.match((refused as Error)?.message, /^Blob Storage refused access to devstoreaccount1\/cost-exports\/focus\/globex-focus: /);
  t.match(await findExportSource(pool, ACME.billing_account_id), { last_error: /^azure-cost-exports: Blob Storage refused access/ });
  t.match(await findExportSource(pool, GLOBEX.billing_account_id), { last_error: null });
  const still = await syncExportAccount(deps, GLOBEX);
  t.same(still.unchanged, ['2026-09', '2026-10'], 'the good account still reads its export');
});
