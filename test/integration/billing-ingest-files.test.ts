/**
 * FOCUS files as providers publish them: provider names mapped to the portal's providers, and what a
 * file means for what is loaded — an export replaces its billing period, a correction file adds to it, the same
 * file twice never doubles. The correction files are the FOCUS specification's own examples (test/fixtures/focus-corrections).
 */
import t from 'tap';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { parse } from 'csv-parse/sync';
import type { Pool } from '@cc/shared/db/pool.ts';
import { fileSha256 } from '@cc/shared/commands/billing-ingest.ts';
import { focusCsvSource } from '../../workers/src/billing-ingest/formats/focus-csv.ts';
import { runIngest } from '../../workers/src/billing-ingest/ingest.ts';
import { testEnv } from '../helper.ts';

const FIXTURES = new URL('../fixtures/focus-corrections/', import.meta.url).pathname;
const fixture = (name: string) => join(FIXTURES, `scenario_${name}.csv`);
const GLOBEX = { customerId: 'globex', billingAccountId: '02B3C4-D5E6F7-A8B9C0' };

/** Exact decimal sum in units of 10^-12, independent of the code under test. */
const SCALE = 12n;
function toUnits(s: string): bigint {
  const neg = s.startsWith('-');
  const [i, f = ''] = s.replace(/^[-+]/, '').split('.');
  const v = BigInt(i || '0') * 10n ** SCALE + BigInt((f + '0'.repeat(12)).slice(0, 12));
  return neg ? -v : v;
}
function fromUnits(v: bigint): string {
  const a = v < 0n ? -v : v;
  return `${v < 0n ? '-' : ''}${a / 10n ** SCALE}.${(a % 10n ** SCALE).toString().padStart(12, '0')}`;
}

/** BilledCost per ResourceId of the given files taken together, summed from the raw CSV. */
async function expectedByResource(...names: string[]): Promise<Record<string, string>> {
  const sums: Record<string, bigint> = {};
  for (const name of names) {
    for (const r of parse(await readFile(fixture(name)), { columns: true }) as Record<string, string>[]) {
      sums[r.ResourceId] = (sums[r.ResourceId] ?? 0n) + toUnits(r.BilledCost);
    }
  }
  return Object.fromEntries(Object.entries(sums).map(([k, v]) => [k, fromUnits(v)]));
}

async function byResource(pool: Pool): Promise<Record<string, string>> {
  const { rows } = await pool.query<{ resource_id: string; spend: string }>(
    `SELECT resource_id, sum(cost + credits)::text AS spend FROM cost_line WHERE billing_account_id = $1 GROUP BY resource_id ORDER BY resource_id`,
    [GLOBEX.billingAccountId],
  );
  return Object.fromEntries(rows.map((r) => [r.resource_id, r.spend]));
}

async function totals(pool: Pool): Promise<{ lines: string | null; daily: string | null; monthly: string | null }> {
  const q = async (table: string) =>
    (await pool.query(`SELECT sum(cost + credits)::text AS s FROM ${table} WHERE billing_account_id = $1`, [GLOBEX.billingAccountId])).rows[0].s;
  return { lines: await q('cost_line'), daily: await q('cost_daily'), monthly: await q('cost_monthly') };
}

const ingest = async (pool: Pool, path: string) =>
  runIngest({ pool, ...GLOBEX, sourceKind: 'focus-file', source: focusCsvSource(path), fileName: path.split('/').at(-1), fileHash: await fileSha256(path) });

const quote = (v: string) => (/[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);
const csv = (rows: string[][]) => rows.map((r) => r.map(quote).join(',')).join('\n') + '\n';

t.test('FOCUS ProviderName: Google Cloud Platform, AWS, Microsoft map to gcp, aws, azure; others kept, shown under All, and said', async (t) => {
  const { pool, config } = await testEnv(t);
  const dir = await mkdtemp(join(tmpdir(), 'cc-focus-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const header = ['BilledCost', 'BillingCurrency', 'BillingPeriodStart', 'ChargeCategory', 'ChargeClass', 'ChargePeriodStart', 'ProviderName', 'ServiceName'];
  const names = ['Google Cloud Platform', 'Google Cloud', 'Amazon Web Services', 'AWS', 'Microsoft', 'Microsoft Azure', 'Oracle', 'Alibaba Cloud'];
  const file = join(dir, 'providers.csv');
  await writeFile(file, csv([header, ...names.map((n, i) => [`${i + 1}.25`, 'USD', '2025-05-01T00:00:00Z', 'Usage', '', '2025-05-10T12:00:00Z', n, 'Compute'])]));

  const summary = await ingest(pool, file);
  const { rows } = await pool.query(`SELECT provider_name, provider FROM cost_line ORDER BY cost`);
  t.same(
    rows.map((r) => [r.provider_name, r.provider]),
    [
      ['Google Cloud Platform', 'gcp'],
      ['Google Cloud', 'gcp'],
      ['Amazon Web Services', 'aws'],
      ['AWS', 'aws'],
      ['Microsoft', 'azure'],
      ['Microsoft Azure', 'azure'],
      ['Oracle', 'oracle'],
      ['Alibaba Cloud', 'alibaba-cloud'],
    ],
  );
  t.same(
    summary.totals.map((x) => [x.provider, x.spend]),
    [['alibaba-cloud', '8.250000000000'], ['aws', '7.500000000000'], ['azure', '11.500000000000'], ['gcp', '3.500000000000'], ['oracle', '7.250000000000']],
  );
  t.same(summary.unlistedProviders, [{ provider: 'alibaba-cloud', provider_name: 'Alibaba Cloud' }, { provider: 'oracle', provider_name: 'Oracle' }]);
  t.match(summary.notes, [/billing period 2025-05/, "provider 'Alibaba Cloud' is not gcp, aws or azure: stored as 'alibaba-cloud', shown under All only", /'Oracle'.*'oracle'/]);

  // The gcp view now sees the Google Cloud FOCUS export.
  const { rows: gcp } = await pool.query(`SELECT sum(cost + credits)::text AS s FROM cost_daily WHERE provider = 'gcp'`);
  t.equal(gcp[0].s, '3.500000000000');

  // The CLI says the same.
  const cli = await promisify(execFile)('npx', ['tsx', 'workers/src/billing-ingest/cli.ts', 'ingest', '--customer', GLOBEX.customerId, '--billing-account', GLOBEX.billingAccountId, '--file', file], {
    cwd: new URL('../../', import.meta.url).pathname,
    env: { ...process.env, DATABASE_URL: config.DATABASE_URL, REDIS_URL: 'redis://127.0.0.1:1' },
  });
  t.match(cli.stdout, /note: provider 'Oracle' is not gcp, aws or azure: stored as 'oracle', shown under All only/);
  t.match(cli.stdout, /Google Cloud Platform \(gcp\) USD: cost 3\.500000000000/);
});

for (const style of ['delta', 'ledger'] as const) {
  t.test(`FOCUS partial reallocation (${style}): original 1,500.00 + correction moving 300 → 1,500.00, moved; re-ingesting either never doubles`, async (t) => {
    const { pool } = await testEnv(t);
    const original = fixture('1_partial_reallocation_original');
    const correction = fixture(`1_partial_reallocation_${style}`);

    const first = await ingest(pool, original);
    t.equal(first.mode, 'replace');
    t.same(first.billingPeriods, ['202505']);
    t.same(await byResource(pool), await expectedByResource('1_partial_reallocation_original'));
    t.same(await byResource(pool), { 'R-111': '1500.000000000000' });

    const fix = await ingest(pool, correction);
    t.equal(fix.mode, 'append', 'every row ChargeClass Correction: a correction file');
    t.equal(fix.duplicateOf, null);
    t.match(fix.notes, [/correction file/]);
    const moved = await expectedByResource('1_partial_reallocation_original', `1_partial_reallocation_${style}`);
    t.same(moved, { 'R-111': '1200.000000000000', 'R-222': '300.000000000000' }, 'the independent sum of both files');
    t.same(await byResource(pool), moved, 'the moved amounts are stored per resource');
    const after = { lines: '1500.000000000000', daily: '1500.000000000000', monthly: '1500.000000000000' };
    t.same(await totals(pool), after, 'the total stays 1,500.00 in lines and rollups');

    // The same correction again: recognised by its content, nothing added.
    const again = await ingest(pool, correction);
    t.equal(again.duplicateOf, fix.batchId);
    t.match(again.notes, [new RegExp(`already loaded \\(batch ${fix.batchId}\\)`)]);
    t.same(await totals(pool), after);
    // The original export again: it replaces its own billing period, the correction stays.
    const reExport = await ingest(pool, original);
    t.same(reExport.billingPeriods, ['202505']);
    t.same(await totals(pool), after);
    t.same(await byResource(pool), moved);

    const { rows } = await pool.query(`SELECT status, mode, billing_periods, duplicate_of FROM ingest_batch ORDER BY id`);
    t.same(rows, [
      { status: 'succeeded', mode: 'replace', billing_periods: ['202505'], duplicate_of: null },
      { status: 'succeeded', mode: 'append', billing_periods: [], duplicate_of: null },
      { status: 'duplicate', mode: 'append', billing_periods: [], duplicate_of: fix.batchId },
      { status: 'succeeded', mode: 'replace', billing_periods: ['202505'], duplicate_of: null },
    ]);
  });
}

t.test('FOCUS late-arriving usage: the correction adds 1,500.00 to the closed period; once only; a later export keeps it', async (t) => {
  const { pool } = await testEnv(t);
  const dir = await mkdtemp(join(tmpdir(), 'cc-focus-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  await ingest(pool, fixture('1_partial_reallocation_original'));
  const late = await ingest(pool, fixture('2_late_arriving_usage_delta'));
  t.equal(late.mode, 'append');
  const lateAgain = await ingest(pool, fixture('2_late_arriving_usage_delta'));
  t.equal(lateAgain.duplicateOf, late.batchId, 'the same correction file again adds nothing');
  const want = await expectedByResource('1_partial_reallocation_original', '2_late_arriving_usage_delta');
  t.same(want, { '': '1500.000000000000', 'R-111': '1500.000000000000' });
  t.same(await byResource(pool), want);
  t.same(await totals(pool), { lines: '3000.000000000000', daily: '3000.000000000000', monthly: '3000.000000000000' });
  // The late usage is billed in June, used on the original's day (ChargePeriodStart 2025-05-01 UTC = 30 April US/Pacific).
  const { rows } = await pool.query(`SELECT usage_date::text, invoice_month, (cost + credits)::text AS spend FROM cost_line ORDER BY invoice_month`);
  t.same(rows, [
    { usage_date: '2025-04-30', invoice_month: '202505', spend: '1500.000000000000' },
    { usage_date: '2025-04-30', invoice_month: '202506', spend: '1500.000000000000' },
  ]);

  // A re-delivered May export with a different figure replaces May's export, not the correction billed in June.
  const redelivered = join(dir, 'may-again.csv');
  await writeFile(redelivered, (await readFile(fixture('1_partial_reallocation_original'), 'utf8')).replace(',1500,1500,1500,2000,', ',1400,1400,1400,2000,'));
  const summary = await ingest(pool, redelivered);
  t.equal(summary.mode, 'replace');
  t.same(await totals(pool), { lines: '2900.000000000000', daily: '2900.000000000000', monthly: '2900.000000000000' });
});

t.test('an export replaces its billing period: a day that vanished from the re-delivered export is cleared', async (t) => {
  const { pool } = await testEnv(t);
  const dir = await mkdtemp(join(tmpdir(), 'cc-focus-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const header = ['BilledCost', 'BillingCurrency', 'BillingPeriodStart', 'ChargeCategory', 'ChargeClass', 'ChargePeriodStart', 'ProviderName'];
  const row = (cost: string, day: string, period = '2025-05-01T00:00:00Z') => [cost, 'USD', period, 'Usage', '', `${day}T12:00:00Z`, 'AWS'];
  const v1 = join(dir, 'v1.csv');
  await writeFile(v1, csv([header, row('10.00', '2025-05-03'), row('20.00', '2025-05-04'), row('5.00', '2025-04-20', '2025-04-01T00:00:00Z')]));
  const v2 = join(dir, 'v2.csv');
  await writeFile(v2, csv([header, row('11.00', '2025-05-03')]));
  await ingest(pool, v1);
  const second = await ingest(pool, v2);
  t.same(second.billingPeriods, ['202505']);
  t.same(second.from, '2025-05-03');
  t.same(second.to, '2025-05-04', 'the emptied day is rebuilt too');
  const { rows } = await pool.query(`SELECT usage_date::text, (cost + credits)::text AS spend FROM cost_daily ORDER BY usage_date`);
  t.same(rows, [
    { usage_date: '2025-04-20', spend: '5.000000000000' },
    { usage_date: '2025-05-03', spend: '11.000000000000' },
  ], "April's billing period untouched; May's is the new export");
});
