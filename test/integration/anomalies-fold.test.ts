/**
 * The contributors read a day's lines folded (anomaly_line_day, migration 120) rather than the account's window of
 * cost_line. A folded day is used again only while the batches that cover it are the same: a correction file on a
 * baseline day, or a file that replaces the judged day, makes the next pass fold that day again, and the stored
 * contributors are then what the lines now add (worked out here from cost_line, apart from the code under test).
 */
import t from 'tap';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { JobFor } from '@cc/shared/queues.ts';
import type { Pool } from '@cc/shared/db/pool.ts';
import { addDays } from '@cc/shared/time.ts';
import { fileSha256 } from '@cc/shared/commands/billing-ingest.ts';
import { anomalyDetectHandler } from '../../workers/src/jobs/anomaly-detect.ts';
import { focusCsvSource } from '../../workers/src/billing-ingest/formats/focus-csv.ts';
import { runIngest } from '../../workers/src/billing-ingest/ingest.ts';
import { build } from '../helper.ts';

const ACME = { customerId: 'acme-corp', billingAccountId: '01A2B3-C4D5E6-F7A8B9' };
const DAY = '2026-10-28';
const FIRST = addDays(DAY, -28);
const days = Array.from({ length: 29 }, (_, i) => addDays(FIRST, i));
const PROJECT = 'acme-fold-prod';

const HEADER = ['BilledCost', 'EffectiveCost', 'BillingCurrency', 'BillingPeriodStart', 'ChargeCategory', 'ChargeClass', 'ChargePeriodStart',
  'ProviderName', 'ServiceName', 'SubAccountId', 'SubAccountName', 'SkuId', 'ResourceId', 'Tags', 'ConsumedQuantity'];
const quote = (v: string) => (/[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);

function row(d: string, o: { cost: string; sku: string; resource: string; correction?: boolean; qty: string }): string[] {
  return [o.cost, o.cost, 'EUR', `${d.slice(0, 8)}01T00:00:00Z`, 'Usage', o.correction ? 'Correction' : '', `${d}T12:00:00Z`,
    'Amazon Web Services', 'Amazon EC2', PROJECT, 'Fold production', o.sku, o.resource, JSON.stringify({ env: 'prod' }), o.qty];
}

/** Two SKUs a day; on the judged day the first one's usage is x4 (`judged` overrides its cost there). */
function exportRows(judged = '80.000000'): string[][] {
  return days.flatMap((d) => [
    row(d, { cost: d === DAY ? judged : '20.000000', sku: 'BoxUsage:m5.xlarge', resource: 'i-0a1b', qty: '24' }),
    row(d, { cost: '5.123456789', sku: 'EBS:VolumeUsage.gp3', resource: 'vol-9f', qty: '100' }),
  ]);
}

async function load(pool: Pool, dir: string, name: string, rows: string[][]): Promise<void> {
  const path = join(dir, name);
  await writeFile(path, [HEADER, ...rows].map((r) => r.map(quote).join(',')).join('\n') + '\n');
  await runIngest({ pool, ...ACME, sourceKind: 'focus-file', source: focusCsvSource(path), fileName: name, fileHash: await fileSha256(path) });
}

/** Each SKU's contribution from the lines: day spend minus the mean of the 28 days before. */
async function fromLines(pool: Pool): Promise<Record<string, string>> {
  const { rows } = await pool.query<{ sku: string; contribution: string }>(
    `SELECT sku, (coalesce(sum(cost + credits) FILTER (WHERE usage_date = $3::date), 0)
                  - coalesce(sum(cost + credits) FILTER (WHERE usage_date < $3::date), 0) / 28)::numeric(30,12)::text AS contribution
       FROM cost_line WHERE billing_account_id = $1 AND project_id = $2 AND usage_date BETWEEN $3::date - 28 AND $3::date
      GROUP BY sku`,
    [ACME.billingAccountId, PROJECT, DAY],
  );
  return Object.fromEntries(rows.map((r) => [r.sku, r.contribution]));
}

async function stored(pool: Pool): Promise<Record<string, string>> {
  const { rows } = await pool.query<{ value: string; contribution: string }>(
    `SELECT c.value, c.contribution::numeric(30,12)::text AS contribution FROM anomaly x JOIN anomaly_contributor c ON c.anomaly_id = x.id
      WHERE x.project_id = $1 AND x.date = $2 AND c.dimension = 'sku' AND c.rank > 0`,
    [PROJECT, DAY],
  );
  return Object.fromEntries(rows.map((r) => [r.value, r.contribution]));
}

async function foldedAt(pool: Pool): Promise<Record<string, string>> {
  const { rows } = await pool.query<{ day: string; at: string }>(
    `SELECT usage_date::text AS day, folded_at::text AS at FROM anomaly_line_day_state WHERE billing_account_id = $1 ORDER BY usage_date`,
    [ACME.billingAccountId],
  );
  return Object.fromEntries(rows.map((r) => [r.day, r.at]));
}

t.test('a folded day is folded again when a batch corrects or replaces it, and only then', async (t) => {
  const app = await build(t);
  const { pool } = app.env;
  const detect = () =>
    anomalyDetectHandler({ pool, enqueue: app.producers.enqueue, publicUrl: 'http://cc.test' })({ data: { customer_id: ACME.customerId, date: DAY } } as JobFor<'anomaly-detect'>);
  const dir = await mkdtemp(join(tmpdir(), 'cc-fold-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));

  await load(pool, dir, 'export.csv', exportRows());
  await detect();
  t.same(await stored(pool), { 'BoxUsage:m5.xlarge': (await fromLines(pool))['BoxUsage:m5.xlarge'] }, 'first pass: the usage SKU, as its lines add');
  const first = await foldedAt(pool);
  t.same(Object.keys(first), days, 'the window and the judged day are folded');

  await detect();
  t.same(await foldedAt(pool), first, 'a re-run with nothing loaded folds nothing again');

  // a correction file adds 14 EUR of the usage SKU on a baseline day: its mean rises by 0.5
  const corrected = addDays(DAY, -3);
  await load(pool, dir, 'correction.csv', [row(corrected, { cost: '14', sku: 'BoxUsage:m5.xlarge', resource: 'i-0a1b', correction: true, qty: '16.8' })]);
  await detect();
  const lines = await fromLines(pool);
  t.equal(lines['BoxUsage:m5.xlarge'], '59.500000000000', 'the lines: 80 - (28 x 20 + 14) / 28');
  t.same(await stored(pool), { 'BoxUsage:m5.xlarge': lines['BoxUsage:m5.xlarge'] }, 'after the correction: as the lines now add');
  const second = await foldedAt(pool);
  t.same(Object.keys(second).filter((d) => second[d] !== first[d]), [corrected], 'only the corrected day was folded again');

  // a new export replaces the month's export, the judged day with a higher figure
  await load(pool, dir, 'export-2.csv', exportRows('100.000000'));
  await detect();
  const replaced = await fromLines(pool);
  t.equal(replaced['BoxUsage:m5.xlarge'], '79.500000000000', 'the lines: 100 - 20.5 (the correction file\'s lines stay beside the export)');
  t.same(await stored(pool), { 'BoxUsage:m5.xlarge': replaced['BoxUsage:m5.xlarge'] }, 'after the replacement: as the lines now add');
  const { rows: copies } = await pool.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM anomaly_line_day WHERE billing_account_id = $1 AND project_id = $2`,
    [ACME.billingAccountId, PROJECT],
  );
  t.equal(copies[0].n, 29 * 2, 'one folded row per day and SKU x resource x label set, none left from the folds before');
});
