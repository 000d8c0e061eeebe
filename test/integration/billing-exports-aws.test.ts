/**
 * AWS Data Exports (FOCUS 1.0) read from S3, against an S3-compatible server (s3rver) started here. The layout is
 * AWS's own (AWS Data Exports user guide, "Understanding export delivery": data under
 * `<prefix>/<export-name>/data/BILLING_PERIOD=YYYY-MM/`, the manifest at
 * `<prefix>/<export-name>/metadata/BILLING_PERIOD=YYYY-MM/<export-name>-Manifest.json`; "Data Exports manifest file
 * reference": `dataFiles` lists full s3:// URIs, gzip CSV parts named `<export-name>-<part>.csv.gz`).
 */
import t from 'tap';
import { gzipSync } from 'node:zlib';
import { createSecretBox } from '@cc/shared/secret-box.ts';
import { saveExportSource, findExportSource } from '@cc/shared/db/billing-export-sources.ts';
import { exportStoresFromConfig } from '@cc/shared/adapters/billing-exports/from-config.ts';
import { ExportStoreAccessError } from '@cc/shared/ports/billing-export-store.ts';
import { syncExportAccount } from '../../workers/src/billing-exports/sync.ts';
import { testEnv } from '../helper.ts';
import { startS3 } from '../emulators/s3.ts';
import { focusCsv, spendOf } from './billing-exports-helpers.ts';

const ACME = { customer_id: 'acme-corp', billing_account_id: '01FFEE-DDCCBB-AA9988' };
const GLOBEX = { customer_id: 'globex', billing_account_id: '02B3C4-D5E6F7-A8B9C0' };
const BUCKET = 'acme-billing';
const PREFIX = 'exports/focus';
const EXPORT = 'acme-focus';

const manifestKey = (period: string) => `${PREFIX}/${EXPORT}/metadata/BILLING_PERIOD=${period}/${EXPORT}-Manifest.json`;
const dataKey = (period: string, part: number) => `${PREFIX}/${EXPORT}/data/BILLING_PERIOD=${period}/${EXPORT}-0000${part}.csv.gz`;
const manifest = (period: string, parts: number[]) =>
  JSON.stringify({
    executionId: `exec-${period}-${Date.now()}`,
    exportArn: 'arn:aws:bcm-data-exports:us-east-1:111122223333:export/acme-focus-0000',
    columns: [{ name: 'billed_cost', type: 'decimal' }],
    dataFiles: parts.map((p) => `s3://${BUCKET}/${dataKey(period, p)}`),
  });

t.test('AWS Data Exports from S3: first, unchanged, revised, partial, wrong credentials', async (t) => {
  const { pool } = await testEnv(t);
  const s3 = await startS3();
  t.teardown(() => s3.close());
  await s3.createBucket(BUCKET);
  const box = createSecretBox('k'.repeat(40));
  const stores = await exportStoresFromConfig(box);
  const deps = { pool, exportStores: stores };
  const settings = { bucket: BUCKET, prefix: PREFIX, export_name: EXPORT, region: 'us-east-1', endpoint: s3.endpoint };
  await saveExportSource(pool, { billingAccountId: ACME.billing_account_id, customerId: ACME.customer_id, kind: 'aws-data-exports', settings, secretSealed: box.seal('S3RVER:S3RVER', ACME.billing_account_id) });

  // first delivery of 2026-09: two gzip parts
  await s3.put(BUCKET, dataKey('2026-09', 1), gzipSync(focusCsv('AWS', '2026-09', [['2026-09-03', '10.25'], ['2026-09-04', '5.00']])));
  await s3.put(BUCKET, dataKey('2026-09', 2), gzipSync(focusCsv('AWS', '2026-09', [['2026-09-05', '1.75']])));
  await s3.put(BUCKET, manifestKey('2026-09'), manifest('2026-09', [1, 2]));
  const first = await syncExportAccount(deps, ACME);
  t.match(first.loaded, [{ period: '2026-09', rows: 3 }], 'the first delivery is loaded, both parts in one batch');
  t.same(await spendOf(pool, ACME.billing_account_id, 'aws', '2026-09'), { lines: '17.000000000000', daily: '17.000000000000' });

  const again = await syncExportAccount(deps, ACME);
  t.same(again.loaded, [], 'an unchanged delivery loads nothing');
  t.same(again.unchanged, ['2026-09']);
  const batches = async () => Number((await pool.query(`SELECT count(*) FROM ingest_batch WHERE billing_account_id = $1`, [ACME.billing_account_id])).rows[0].count);
  const batchCount = await batches();

  // AWS rewrites the period's files on its next refresh: one part now, different amounts
  await s3.put(BUCKET, dataKey('2026-09', 1), gzipSync(focusCsv('AWS', '2026-09', [['2026-09-03', '11.00'], ['2026-09-04', '5.00'], ['2026-09-06', '2.50']])));
  await s3.remove(BUCKET, dataKey('2026-09', 2));
  await s3.put(BUCKET, manifestKey('2026-09'), manifest('2026-09', [1]));
  const revised = await syncExportAccount(deps, ACME);
  t.match(revised.loaded, [{ period: '2026-09', rows: 3 }], 'the revised delivery is loaded');
  t.same(await spendOf(pool, ACME.billing_account_id, 'aws', '2026-09'), { lines: '18.500000000000', daily: '18.500000000000' }, 'it replaced the period, never added to it');
  t.equal(await batches(), batchCount + 1);

  // partial upload: the manifest of 2026-10 is there, one of its parts is not yet
  await s3.put(BUCKET, dataKey('2026-10', 1), gzipSync(focusCsv('AWS', '2026-10', [['2026-10-01', '3.00']])));
  await s3.put(BUCKET, manifestKey('2026-10'), manifest('2026-10', [1, 2]));
  const partial = await syncExportAccount(deps, ACME);
  t.same(partial.loaded, [], 'nothing of an incomplete delivery is loaded');
  t.same(partial.incomplete, [{ period: '2026-10', missing: [dataKey('2026-10', 2)] }]);
  t.same(await spendOf(pool, ACME.billing_account_id, 'aws', '2026-10'), { lines: null, daily: null });
  await s3.put(BUCKET, dataKey('2026-10', 2), gzipSync(focusCsv('AWS', '2026-10', [['2026-10-02', '4.00']])));
  const next = await syncExportAccount(deps, ACME);
  t.match(next.loaded, [{ period: '2026-10', rows: 2 }], 'the next night loads it once complete');
  t.same(await spendOf(pool, ACME.billing_account_id, 'aws', '2026-10'), { lines: '7.000000000000', daily: '7.000000000000' });

  // an account with wrong keys: a clear error on its status, the other account unaffected
  await saveExportSource(pool, { billingAccountId: GLOBEX.billing_account_id, customerId: GLOBEX.customer_id, kind: 'aws-data-exports', settings, secretSealed: box.seal('AKIAWRONGKEY:not-the-key', GLOBEX.billing_account_id) });
  const refused = await syncExportAccount(deps, GLOBEX).then(
    () => null,
    (err: unknown) => err,
  );
  t.ok(refused instanceof ExportStoreAccessError, 'refused as an access error');
  t.match((refused as Error).message, /S3 refused access to s3:\/\/acme-billing\/exports\/focus\/acme-focus: InvalidAccessKeyId/);
  t.match(await findExportSource(pool, GLOBEX.billing_account_id), { last_error: /^aws-data-exports: S3 refused access/ });
  t.match(await findExportSource(pool, ACME.billing_account_id), { last_error: null, last_delivery: /^2026-10 / });
  const still = await syncExportAccount(deps, ACME);
  t.same(still.unchanged, ['2026-09', '2026-10'], 'the good account still reads its export');
});
