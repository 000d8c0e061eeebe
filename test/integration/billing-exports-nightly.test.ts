/**
 * The nightly job and AWS / Azure exports: every configured account gets one `billing-ingest` job of its export
 * source with the nightly window (its id fixed by account and window, so a second worker or a rerun adds none);
 * run through the billing-ingest handler, it loads the delivery, and an account with wrong credentials fails at
 * once with the reason (kept in the failed set) while the others load. Layout: AWS Data Exports user guide,
 * "Understanding export delivery" (see billing-exports-aws.test.ts).
 */
import t from 'tap';
import { gzipSync } from 'node:zlib';
import { UnrecoverableError } from 'bullmq';
import type { JobFor } from '@cc/shared/queues.ts';
import { createSecretBox } from '@cc/shared/secret-box.ts';
import { saveExportSource, findExportSource } from '@cc/shared/db/billing-export-sources.ts';
import { exportStoresFromConfig } from '@cc/shared/adapters/billing-exports/from-config.ts';
import { planNightlyIngest } from '../../workers/src/jobs/billing-nightly.ts';
import { billingIngestHandler } from '../../workers/src/jobs/billing-ingest.ts';
import { healthFigures } from '@cc/shared/db/monitoring-figures.ts';
import { testEnv } from '../helper.ts';
import { startS3 } from '../emulators/s3.ts';
import { focusCsv, spendOf } from './billing-exports-helpers.ts';

const ACME = { customer_id: 'acme-corp', billing_account_id: '01FFEE-DDCCBB-AA9988' };
const GLOBEX = { customer_id: 'globex', billing_account_id: '02B3C4-D5E6F7-A8B9C0' };
const BUCKET = 'exports';
const EXPORT = 'focus';

t.test('nightly: one job per configured export account; wrong credentials fail clearly, the others load', async (t) => {
  const { pool } = await testEnv(t);
  const s3 = await startS3();
  t.teardown(() => s3.close());
  await s3.createBucket(BUCKET);
  const box = createSecretBox('n'.repeat(40));
  const settings = { bucket: BUCKET, prefix: 'cur', export_name: EXPORT, endpoint: s3.endpoint };
  await saveExportSource(pool, { ...ids(ACME), kind: 'aws-data-exports', settings, secretSealed: box.seal('S3RVER:S3RVER', ACME.billing_account_id) });
  await saveExportSource(pool, { ...ids(GLOBEX), kind: 'aws-data-exports', settings, secretSealed: box.seal('WRONGKEYID:x', GLOBEX.billing_account_id) });
  const data = `cur/${EXPORT}/data/BILLING_PERIOD=2026-11/${EXPORT}-00001.csv.gz`;
  await s3.put(BUCKET, data, gzipSync(focusCsv('AWS', '2026-11', [['2026-11-20', '9.50']])));
  await s3.put(BUCKET, `cur/${EXPORT}/metadata/BILLING_PERIOD=2026-11/${EXPORT}-Manifest.json`, JSON.stringify({ dataFiles: [`s3://${BUCKET}/${data}`] }));

  const billingSources = { exportStores: await exportStoresFromConfig(box) };
  const plan = await planNightlyIngest({ pool, billingSources, enqueue: async () => '', nightlyIngest: { days: 3, closeDay: 5 } }, '2026-11-27');
  const exportsPlanned = plan.commands.filter((c) => c.source === 'aws-data-exports');
  t.same(exportsPlanned, [
    { ...ACME, source: 'aws-data-exports', from: '2026-11-24', to: '2026-11-26' },
    { ...GLOBEX, source: 'aws-data-exports', from: '2026-11-24', to: '2026-11-26' },
  ]);
  t.notOk(plan.skipped.some((s) => s.billing_account_id === GLOBEX.billing_account_id), 'an export account is not listed as skipped');

  const handler = billingIngestHandler({ pool, billingSources, chartCache: { invalidate: async () => undefined }, enqueue: async () => '' });
  const run = (cmd: (typeof exportsPlanned)[number]) => handler({ data: cmd, updateProgress: async () => undefined } as unknown as JobFor<'billing-ingest'>);
  const refused = await run(exportsPlanned[1]).then(
    () => null,
    (err: unknown) => err,
  );
  t.ok(refused instanceof UnrecoverableError, 'wrong credentials fail the job at once (no retries), into the failed set');
  t.match((refused as Error).message, /^S3 refused access to s3:\/\/exports\/cur\/focus: InvalidAccessKeyId/);
  t.match(await run(exportsPlanned[0]), { loaded: [{ period: '2026-11', rows: 1 }] }, 'the other account loads');
  t.same(await spendOf(pool, ACME.billing_account_id, 'aws', '2026-11'), { lines: '9.500000000000', daily: '9.500000000000' });
  t.match(await findExportSource(pool, ACME.billing_account_id), { last_error: null, last_delivery: `2026-11 (cur/${EXPORT}/metadata/BILLING_PERIOD=2026-11/${EXPORT}-Manifest.json)` });
  t.match(await findExportSource(pool, GLOBEX.billing_account_id), { last_error: /InvalidAccessKeyId/ });

  // the data freshness line says where the spend comes from, the delivery loaded, and the error
  const globex = await healthFigures(pool, GLOBEX.customer_id, '2026-11-27');
  t.match(globex.freshness, [{ billing_account_id: GLOBEX.billing_account_id, source: 'aws-data-exports', source_error: /^aws-data-exports: S3 refused access .*InvalidAccessKeyId/ }]);
  t.ok(globex.jobs.failing_ingest_accounts.includes(GLOBEX.billing_account_id), 'counted among failing ingests');
  const acme = await healthFigures(pool, ACME.customer_id, '2026-11-27');
  t.match(
    acme.freshness.find((f) => f.billing_account_id === ACME.billing_account_id),
    { source: 'aws-data-exports', source_error: null, last_delivery: /^2026-11 / },
  );
  t.notOk(acme.jobs.failing_ingest_accounts.includes(ACME.billing_account_id));
});

function ids(a: { customer_id: string; billing_account_id: string }) {
  return { customerId: a.customer_id, billingAccountId: a.billing_account_id };
}
