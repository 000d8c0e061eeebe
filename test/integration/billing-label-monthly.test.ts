/**
 * The label charts' monthly path (migration 090): whole months read from cost_monthly / cost_monthly_label,
 * the edge months from the daily rollups. Its cells must equal the one daily query's for the same filter, on an
 * account holding EUR rows (the display currency) and USD and GBP rows converted day by day, on both cost bases,
 * for every provider choice and both label kinds; and a re-ingest of a window inside a month keeps the monthly label
 * rollup equal to the sums of the daily one. The Project-with-Service export's rows are split the same way and must
 * equal its daily query's too, as must the service chart's cells and the label export's rows, with the rows of a currency that has no rate (CHF: shown, never converted).
 */
import t from 'tap';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Pool } from '@cc/shared/db/pool.ts';
import { saveRates } from '@cc/shared/db/fx-rates.ts';
import { exportRows, labelCells, serviceCells, type LabelCell, type ServiceCell, type SpendFilter } from '@cc/shared/db/billing-query.ts';
import { toUnits } from '@cc/shared/billing/money.ts';
import { addDays } from '@cc/shared/time.ts';
import { gcpGeneratedSource } from '@cc/shared/adapters/bigquery/local.ts';
import { focusCsvSource } from '../../workers/src/billing-ingest/formats/focus-csv.ts';
import { runIngest } from '../../workers/src/billing-ingest/ingest.ts';
import { labelExportRows } from '@cc/shared/db/billing-label-export.ts';
import { labelExportRowsOf, labelRows, serviceExportRows, serviceRows, seriesCells } from '../../api/src/billing/cells.ts';
import type { ChartSettings } from '../../api/src/billing/settings.ts';
import { buildChart } from '@cc/shared/billing/chart.ts';
import { testEnv } from '../helper.ts';

const ACME = { customerId: 'acme-corp', billingAccountId: '01A2B3-C4D5E6-F7A8B9', currency: 'EUR' };
const FROM = '2026-01-10';
const TO = '2026-05-20';

/** A FOCUS file of AWS rows in USD and GBP over the range, every fifth day, with tags (stored as resource labels). */
function focusFile(): string {
  const header = 'BilledCost,EffectiveCost,BillingCurrency,ChargePeriodStart,ChargePeriodEnd,ChargeCategory,ProviderName,SubAccountId,SubAccountName,ServiceName,SkuId,Tags';
  const lines = [header];
  let i = 0;
  for (let day = FROM; day <= TO; day = addDays(day, 5)) {
    for (const [currency, project, tags] of [
      ['USD', 'aws-web', '{"team":"web","shard":"s1"}'],
      ['GBP', 'aws-data', '{"team":"data"}'],
      ['USD', 'aws-data', '{}'],
      ['CHF', 'aws-web', '{"team":"web"}'],
    ] as const) {
      i++;
      const cost = `${10 + (i % 7)}.${String((i * 7919) % 1000000).padStart(6, '0')}`;
      lines.push(`${cost},${cost},${currency},${day}T00:00:00Z,${addDays(day, 1)}T00:00:00Z,Usage,AWS,${project},${project} name,EC2,sku-${i},"${tags.replace(/"/g, '""')}"`);
    }
  }
  return lines.join('\n') + '\n';
}

/** EUR→USD and EUR→GBP on business days only (weekends fall back to Friday's fixing). */
function fixings() {
  const out: { currency: string; rate_date: string; rate: string }[] = [];
  for (let day = addDays(FROM, -7); day <= TO; day = addDays(day, 1)) {
    const dow = new Date(`${day}T00:00:00Z`).getUTCDay();
    if (dow === 0 || dow === 6) continue;
    const n = Number(day.slice(8, 10));
    out.push({ currency: 'USD', rate_date: day, rate: `1.0${String(n).padStart(2, '0')}3` }, { currency: 'GBP', rate_date: day, rate: `0.8${String(n).padStart(2, '0')}7` });
  }
  return out;
}

/** Label cells in one order (the queries return them in none), to compare two answers. */
const inOrder = (rows: LabelCell[]) =>
  [...rows].sort((a, b) => [a.bucket, a.project_id, a.label_value ?? '\uffff'].join('\u0000').localeCompare([b.bucket, b.project_id, b.label_value ?? '\uffff'].join('\u0000')));

/** Service cells in one order (the queries return them in none), to compare two answers. */
const servicesInOrder = (rows: ServiceCell[]) =>
  [...rows].sort((a, b) => [a.bucket, a.project_id, a.service].join('\u0000').localeCompare([b.bucket, b.project_id, b.service].join('\u0000')));

/** Service cells as (bucket, service, exact amount) with the projects summed, in one order. */
function perService(rows: ServiceCell[]): { bucket: string; service: string; units: bigint }[] {
  const out = new Map<string, { bucket: string; service: string; units: bigint }>();
  for (const r of rows) {
    const key = `${r.bucket}\u0000${r.service}`;
    const s = out.get(key) ?? { bucket: r.bucket, service: r.service, units: 0n };
    s.units += toUnits(r.spend);
    out.set(key, s);
  }
  return [...out.values()].sort((a, b) => `${a.bucket}\u0000${a.service}`.localeCompare(`${b.bucket}\u0000${b.service}`));
}

/** Cells as (bucket, label value, exact amount), in one order: the projects summed when `sum`, each row as it is else. */
function byValue(rows: LabelCell[], sum: boolean): { bucket: string; label_value: string | null; units: bigint }[] {
  const out = new Map<string, { bucket: string; label_value: string | null; units: bigint }>();
  rows.forEach((r, i) => {
    const key = sum ? `${r.bucket}\u0000${r.label_value ?? '\uffff'}` : String(i);
    const s = out.get(key) ?? { bucket: r.bucket, label_value: r.label_value, units: 0n };
    s.units += toUnits(r.spend);
    out.set(key, s);
  });
  return [...out.values()].sort((a, b) => `${a.bucket}\u0000${a.label_value ?? '\uffff'}`.localeCompare(`${b.bucket}\u0000${b.label_value ?? '\uffff'}`));
}

const filter = (provider: string | null, basis: 'billed' | 'amortised'): SpendFilter => ({
  customerId: ACME.customerId,
  billingAccountId: ACME.billingAccountId,
  provider,
  services: [],
  projects: [],
  viewer: null,
  currency: 'EUR',
  basis,
});

async function monthlyLabelMismatches(pool: Pool): Promise<number> {
  const { rows } = await pool.query(
    `WITH expected AS (
       SELECT customer_id, billing_account_id, date_trunc('month', usage_date)::date AS month, provider, label_kind, label_key, label_value,
              project_id, sum(cost) AS cost, sum(credits) AS credits, currency, sum(amortisation) AS amortisation
         FROM cost_daily_label GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 11
     ), actual AS (
       SELECT customer_id, billing_account_id, month, provider, label_kind, label_key, label_value, project_id, cost, credits, currency, amortisation FROM cost_monthly_label
     )
     SELECT count(*)::int AS n FROM ((SELECT * FROM expected EXCEPT SELECT * FROM actual) UNION ALL (SELECT * FROM actual EXCEPT SELECT * FROM expected)) d`,
  );
  return rows[0].n;
}

t.test('label cells by month from the monthly rollups equal the daily query, in every currency and on both bases', async (t) => {
  const { pool } = await testEnv(t);
  const dir = await mkdtemp(join(tmpdir(), 'cc-label-monthly-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const file = join(dir, 'aws.csv');
  await writeFile(file, focusFile());
  await saveRates(pool, 'ecb', fixings());
  await runIngest({ pool, ...ACME, sourceKind: 'gcp-generated', source: gcpGeneratedSource({ ...ACME, from: FROM, to: TO }) });
  await runIngest({ pool, ...ACME, sourceKind: 'focus-file', fileName: 'aws.csv', source: focusCsvSource(file) });
  t.equal(await monthlyLabelMismatches(pool), 0, 'cost_monthly_label holds the monthly sums of cost_daily_label');

  const range = { label: 'test range', start_date: FROM, end_date: TO, granularity: 'month' as const };
  let compared = 0;
  let labelExported = 0;
  for (const provider of [null, 'gcp', 'aws']) {
    for (const basis of ['billed', 'amortised'] as const) {
      for (const label of [
        { kind: 'project' as const, key: 'team' },
        { kind: 'resource' as const, key: 'shard' },
        { kind: 'resource' as const, key: 'team' },
        { kind: 'project' as const, key: 'no-such-key' },
      ]) {
        const f = filter(provider, basis);
        const daily = await labelCells(pool, f, { from: FROM, to: TO, granularity: 'month' }, label);
        const split = await labelRows(pool, f, range, label);
        t.same(inOrder(split), inOrder(daily), `${provider ?? 'all'} ${basis} ${label.kind}:${label.key}`);
        // by label value alone: the projects summed in SQL, split or not, equal the per-project cells summed here
        const want = byValue(daily, true);
        const split1 = await labelRows(pool, f, range, label, false);
        t.ok(split1.every((r) => r.project_id === '' && r.project_name === ''), 'no project in cells by value');
        t.same(byValue(split1, false), want, `by value: ${provider ?? 'all'} ${basis} ${label.kind}:${label.key}`);
        t.same(byValue(await labelCells(pool, f, { from: FROM, to: TO, granularity: 'month' }, label, false), false), want, `by value, daily: ${provider ?? 'all'} ${basis} ${label.kind}:${label.key}`);
        compared += daily.length;
        const exportDaily = await labelExportRows(pool, f, { from: FROM, to: TO, granularity: 'month' }, label);
        t.same(await labelExportRowsOf(pool, f, range, label), exportDaily, `label export: ${provider ?? 'all'} ${basis} ${label.kind}:${label.key}`);
        labelExported += exportDaily.length;
      }
    }
  }
  t.ok(compared > 100, `${compared} cells compared`);
  t.ok(labelExported > 100, `${labelExported} label export rows compared`);
  const usd = await labelCells(pool, filter('aws', 'billed'), { from: FROM, to: TO, granularity: 'month' }, { kind: 'resource', key: 'team' });
  t.ok(usd.some((c) => c.label_value === 'data') && usd.some((c) => c.label_value === 'web'), 'the converted USD and GBP rows are in the comparison');

  let exported = 0;
  for (const provider of [null, 'gcp', 'aws']) {
    for (const basis of ['billed', 'amortised'] as const) {
      for (const services of [[], ['EC2']]) {
        const f = { ...filter(provider, basis), services };
        const daily = await exportRows(pool, f, { from: FROM, to: TO, granularity: 'month' });
        t.same(await serviceExportRows(pool, f, range), daily, `export: ${provider ?? 'all'} ${basis} services [${services.join(', ')}]`);
        const cells = await serviceCells(pool, f, { from: FROM, to: TO, granularity: 'month' });
        t.same(servicesInOrder(await serviceRows(pool, f, range)), servicesInOrder(cells), `service cells: ${provider ?? 'all'} ${basis} services [${services.join(', ')}]`);
        // by service alone: the projects summed in SQL, split or not, equal the per-project cells summed here
        const byService = await serviceRows(pool, f, range, false);
        t.ok(byService.every((r) => r.project_id === '' && r.project_name === ''), 'no project in cells by service');
        t.same(perService(byService), perService(cells), `by service: ${provider ?? 'all'} ${basis} services [${services.join(', ')}]`);
        t.equal(byService.length, perService(cells).length, 'one cell per bucket and service');
        t.same(perService(await serviceCells(pool, f, { from: FROM, to: TO, granularity: 'month' }, false)), perService(cells), 'by service, daily');
        exported += daily.length;
      }
    }
  }
  t.ok(exported > 100, `${exported} export rows compared`);
  const aws = await exportRows(pool, filter('aws', 'billed'), { from: FROM, to: TO, granularity: 'month' });
  t.ok(aws.some((r) => r.currency === 'USD' && r.rate !== null) && aws.some((r) => r.currency === 'CHF' && r.spend === null), 'converted USD rows and unconverted CHF rows are in the export comparison');

  // Other ranges: edges that start and end inside months, ranges within one month. A last month from its first day is
  // read from the monthly rollups when none of its later days has spend (ending on TO, the data's last day), else
  // from its days (ending on the 12th or 20th of a month with later data): both must equal the daily query.
  for (const [from, to] of [
    ['2026-01-15', TO],
    [FROM, '2026-05-12'],
    ['2026-01-15', '2026-05-12'],
    ['2026-02-03', '2026-02-20'],
    ['2026-05-01', TO],
    ['2026-02-01', '2026-02-20'],
    ['2026-02-01', '2026-05-12'],
  ]) {
    const part = { label: 'part', start_date: from, end_date: to, granularity: 'month' as const };
    for (const provider of [null, 'aws']) {
      const f = filter(provider, 'billed');
      const daily = { from, to, granularity: 'month' as const };
      t.same(servicesInOrder(await serviceRows(pool, f, part)), servicesInOrder(await serviceCells(pool, f, daily)), `service cells ${from}…${to} ${provider ?? 'all'}`);
      const label = { kind: 'resource' as const, key: 'team' };
      t.same(inOrder(await labelRows(pool, f, part, label)), inOrder(await labelCells(pool, f, daily, label)), `label cells ${from}…${to} ${provider ?? 'all'}`);
      t.same(await serviceExportRows(pool, f, part), await exportRows(pool, f, daily), `export ${from}…${to} ${provider ?? 'all'}`);
      t.same(await labelExportRowsOf(pool, f, part, label), await labelExportRows(pool, f, daily, label), `label export ${from}…${to} ${provider ?? 'all'}`);
    }
  }

  // A chart's Top N folded by the query (series that cannot be among the N sent summed per bucket) draws exactly what
  // the chart draws when every series comes one by one and it folds them all itself: for every chart kind, Top N and
  // range shape (whole months and an end month read by the monthly query alone; a partial first month, where no query
  // answers alone and none folds; a partial month read by the daily query alone; daily bars; a viewer's daily bars).
  let folded = 0;
  const viewer = [{ label_key: 'team', label_value: 'web' }];
  for (const [from, to, granularity, restricted] of [
    [FROM, TO, 'month', false],
    ['2026-02-01', TO, 'month', false],
    ['2026-01-15', TO, 'month', false],
    ['2026-02-03', '2026-02-20', 'month', false],
    ['2026-03-01', '2026-04-15', 'day', false],
    ['2026-03-01', '2026-04-15', 'day', true],
  ] as const) {
    for (const kind of ['by_service', 'service_details', 'project_labels', 'project_label_details', 'resource_labels', 'resource_label_details'] as const) {
      for (const top of [1, 2, 5, 10, 15]) {
        const part = { label: 'part', start_date: from, end_date: to, granularity };
        const f = { ...filter(null, 'billed'), viewer: restricted ? viewer : null };
        const body = { label: kind.startsWith('resource') ? 'shard' : 'team' };
        const settings = (n: number) => ({ range: part, top: n }) as unknown as ChartSettings;
        const withFold = await seriesCells(pool, f, settings(top), kind, body);
        const oneByOne = await seriesCells(pool, f, settings(0), kind, body);
        t.notOk(oneByOne.some((c) => c.folded), 'Top N All: nothing folded by the query');
        folded += withFold.filter((c) => c.folded).length;
        const buckets = [...new Set(oneByOne.map((c) => c.bucket))].sort();
        t.same(buildChart(withFold, buckets, top), buildChart(oneByOne, buckets, top), `${kind} top ${top} ${from}…${to} by ${granularity}${restricted ? ', viewer' : ''}`);
      }
    }
  }
  t.ok(folded > 500, `${folded} folded cells drawn`);

  // A re-ingest of a window inside a month rebuilds that month's monthly label rows from all of its days.
  await runIngest({ pool, ...ACME, sourceKind: 'gcp-generated', source: gcpGeneratedSource({ ...ACME, from: '2026-03-05', to: '2026-03-09' }) });
  t.equal(await monthlyLabelMismatches(pool), 0, 'after a partial re-ingest too');
  const f = filter(null, 'billed');
  t.same(inOrder(await labelRows(pool, f, range, { kind: 'project', key: 'team' })), inOrder(await labelCells(pool, f, { from: FROM, to: TO, granularity: 'month' }, { kind: 'project', key: 'team' })));
});
