/**
 * Demo AWS and Azure exports for `make start` (BILLING_EXPORTS=local): the FOCUS 1.0 sample's AWS rows become Acme's
 * AWS Data Export and its Microsoft rows Globex's Azure Cost Management export, replayed into the last 13 months
 * (focus-replay.ts) and written under BILLING_EXPORTS_DIR the way the providers write them (docs/decisions-billing.md,
 * "AWS and Azure exports"):
 *   AWS    <bucket>/<prefix>/<export>/data/BILLING_PERIOD=YYYY-MM/<export>-00001.csv.gz
 *          <bucket>/<prefix>/<export>/metadata/BILLING_PERIOD=YYYY-MM/<export>-Manifest.json
 *   Azure  <container>/<directory>/<export>/<YYYYMMDD-YYYYMMDD>/<run-id>/part_0_0001.csv.gz and manifest.json
 * A period whose rows did not change keeps its files byte for byte (gzip without a timestamp, run id from the
 * content), so the export sync skips it; the current month grows by a day each day, as a provider's delivery does.
 * The two accounts get their export setting (unless an admin already set one) and one export sync is queued for
 * each, which the worker started next runs; after that the nightly job reads them.
 */
import { fileURLToPath } from 'node:url';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { parse } from 'csv-parse/sync';
import { replayFocusSample } from '../../workers/src/billing-ingest/index.ts';
import { loadConfig } from '@cc/shared/config.ts';
import { createPool, type Queryable } from '@cc/shared/db/pool.ts';
import { findExportSource, saveExportSource } from '@cc/shared/db/billing-export-sources.ts';
import { createProducer } from '@cc/shared/producer.ts';
import { createLogger } from '@cc/shared/logger.ts';
import { addDays, billingToday } from '@cc/shared/time.ts';

const FOCUS_SAMPLE = fileURLToPath(new URL('../data/focus-1.0/focus_sample.csv', import.meta.url));

interface DemoExport {
  customer_id: string;
  billing_account_id: string;
  kind: 'aws-data-exports' | 'azure-cost-exports';
  /** The sample's ProviderName whose rows this export carries. */
  provider: string;
  settings: Record<string, string>;
}

/** Acme's second account reads AWS, Globex's account Azure; both keep their generated GCP spend beside it. */
export const DEMO_EXPORTS: DemoExport[] = [
  {
    customer_id: 'acme-corp',
    billing_account_id: '01FFEE-DDCCBB-AA9988',
    kind: 'aws-data-exports',
    provider: 'AWS',
    settings: { bucket: 'acme-billing-exports', prefix: 'focus', export_name: 'acme-focus', region: 'us-east-1' },
  },
  {
    customer_id: 'globex',
    billing_account_id: '02B3C4-D5E6F7-A8B9C0',
    kind: 'azure-cost-exports',
    provider: 'Microsoft',
    settings: { storage_account: 'globexcostexports', container: 'cost-exports', directory: 'focus', export_name: 'globex-focus' },
  },
];

const quote = (field: string) => (/[",\r\n]/.test(field) ? `"${field.replace(/"/g, '""')}"` : field);
const csvOf = (header: string[], rows: string[][]) => `${[header, ...rows].map((r) => r.map(quote).join(',')).join('\n')}\n`;

/** The rows of one provider by billing period (YYYY-MM of BillingPeriodStart), each period as a CSV file. */
export function periodsOf(csvText: string, provider: string): Map<string, string> {
  const [header, ...rows] = parse(csvText, { bom: true }) as string[][];
  const providerAt = header.indexOf('ProviderName');
  const periodAt = header.indexOf('BillingPeriodStart');
  const byPeriod = new Map<string, string[][]>();
  for (const r of rows) {
    if (r[providerAt] !== provider) continue;
    const period = r[periodAt].slice(0, 7);
    byPeriod.set(period, [...(byPeriod.get(period) ?? []), r]);
  }
  return new Map([...byPeriod].sort(([a], [b]) => a.localeCompare(b)).map(([p, r]) => [p, csvOf(header, r)]));
}

/** Writes `body` unless the file already holds it, so an unchanged delivery keeps its ETag and its modification time. */
function put(path: string, body: Buffer | string): void {
  const bytes = Buffer.from(body);
  if (existsSync(path) && readFileSync(path).equals(bytes)) return;
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, bytes);
}

const lastDayOf = (period: string) => addDays(`${nextPeriod(period)}-01`, -1);
function nextPeriod(period: string): string {
  const [y, m] = period.split('-').map(Number);
  return m === 12 ? `${y + 1}-01` : `${y}-${String(m + 1).padStart(2, '0')}`;
}

/** One billing period as AWS Data Exports delivers it (overwrite mode: one data folder and one manifest per period). */
function writeAwsPeriod(root: string, s: Record<string, string>, period: string, csv: string): void {
  const base = [s.prefix, s.export_name].filter(Boolean).join('/');
  const dataKey = `${base}/data/BILLING_PERIOD=${period}/${s.export_name}-00001.csv.gz`;
  const gz = gzipSync(csv);
  put(join(root, s.bucket, dataKey), gz);
  // the fields of the Data Exports manifest file reference; the sync reads only dataFiles
  const manifest = {
    version: '1.0',
    exportName: s.export_name,
    billingPeriod: { start: `${period}-01T00:00:00.000Z`, end: `${nextPeriod(period)}-01T00:00:00.000Z` },
    dataFiles: [`s3://${s.bucket}/${dataKey}`],
    compression: 'GZIP',
    fileFormat: 'TEXT_OR_CSV',
    dataRowCount: csv.split('\n').length - 2,
    dataFileBytes: gz.length,
  };
  put(join(root, s.bucket, `${base}/metadata/BILLING_PERIOD=${period}/${s.export_name}-Manifest.json`), JSON.stringify(manifest, null, 2));
}

/** One month's run as an Azure FOCUS export writes it (a run folder per run; the demo keeps only the newest). */
function writeAzurePeriod(root: string, s: Record<string, string>, period: string, csv: string): void {
  const range = `${period.replace('-', '')}01-${lastDayOf(period).replace(/-/g, '')}`;
  const monthDir = join(root, s.container, s.directory, s.export_name, range);
  const gz = gzipSync(csv);
  const hex = createHash('sha256').update(gz).digest('hex');
  const runId = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
  if (existsSync(join(monthDir, runId, 'manifest.json'))) return;
  if (existsSync(monthDir)) for (const old of readdirSync(monthDir)) rmSync(join(monthDir, old), { recursive: true, force: true });
  const blobName = [s.directory, s.export_name, range, runId, 'part_0_0001.csv.gz'].filter(Boolean).join('/');
  put(join(root, s.container, blobName), gz);
  const manifest = {
    manifestVersion: '2024-04-01',
    byteCount: gz.length,
    blobCount: 1,
    dataRowCount: csv.split('\n').length - 2,
    exportConfig: { exportName: s.export_name, type: 'FocusCost', dataVersion: '1.0', dataFormat: 'Csv', compressData: 'Gzip' },
    deliveryConfig: { partitionData: true, dataOverwriteBehavior: 'OverwritePreviousReport', fileFormat: 'Csv', containerName: s.container, rootFolderPath: s.directory },
    runInfo: { runId, startDate: `${period}-01T00:00:00`, endDate: `${lastDayOf(period)}T00:00:00` },
    blobs: [{ blobName, byteCount: gz.length, dataRowCount: csv.split('\n').length - 2 }],
  };
  put(join(root, s.container, blobName.replace(/part_0_0001\.csv\.gz$/, 'manifest.json')), JSON.stringify(manifest, null, 2));
}

/** Writes both demo exports under `root` from the replayed sample; returns the periods each holds. */
export function writeDemoExports(root: string, replayedCsv: string): Map<string, string[]> {
  const written = new Map<string, string[]>();
  for (const e of DEMO_EXPORTS) {
    const periods = periodsOf(replayedCsv, e.provider);
    for (const [period, csv] of periods) {
      if (e.kind === 'aws-data-exports') writeAwsPeriod(root, e.settings, period, csv);
      else writeAzurePeriod(root, e.settings, period, csv);
    }
    written.set(e.billing_account_id, [...periods.keys()]);
  }
  return written;
}

/** Sets the demo accounts' export setting where they have none; a setting an admin changed is left as it is. */
export async function seedExportSources(db: Queryable): Promise<DemoExport[]> {
  const added: DemoExport[] = [];
  for (const e of DEMO_EXPORTS) {
    const { rows } = await db.query<{ listed: boolean }>('SELECT $2 = ANY (billing_account_ids) AS listed FROM customer WHERE customer_id = $1', [e.customer_id, e.billing_account_id]);
    if (!rows[0]?.listed || (await findExportSource(db, e.billing_account_id))) continue;
    await saveExportSource(db, { billingAccountId: e.billing_account_id, customerId: e.customer_id, kind: e.kind, settings: e.settings });
    added.push(e);
  }
  return added;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const config = loadConfig();
  if (config.BILLING_EXPORTS !== 'local') {
    console.log('seed-exports: BILLING_EXPORTS=real, the demo exports are not written');
    process.exit(0);
  }
  const yesterday = addDays(billingToday(), -1);
  const written = writeDemoExports(config.BILLING_EXPORTS_DIR, replayFocusSample(readFileSync(FOCUS_SAMPLE, 'utf8'), { yesterday, months: 13 }));
  const pool = createPool(config.DATABASE_URL, 2);
  const added = await seedExportSources(pool);
  await pool.end();
  for (const e of DEMO_EXPORTS) {
    const periods = written.get(e.billing_account_id) ?? [];
    const note = added.includes(e) ? 'export setting added' : 'export setting kept';
    console.log(`seed-exports: ${e.customer_id} / ${e.billing_account_id}: ${e.kind} in ${config.BILLING_EXPORTS_DIR}, ${periods.length} billing periods (${periods[0]}..${periods.at(-1)}); ${note}`);
  }
  const log = createLogger(config.LOG_LEVEL, { process: 'seed-exports' });
  const producer = createProducer(config.REDIS_URL, config.QUEUE_PREFIX, (err) => log.warn({ err }, 'redis connection error'));
  try {
    // One sync per start (the scope keeps a failed one of an earlier start from blocking it); unchanged periods are
    // skipped, so it costs a listing when nothing moved.
    for (const e of DEMO_EXPORTS) {
      await producer.enqueue('billing-ingest', 'billing.ingest', { customer_id: e.customer_id, billing_account_id: e.billing_account_id, source: e.kind }, { idScope: `seed-${Date.now()}` });
    }
    console.log('seed-exports: queued the first export sync of each; the worker loads them, then the nightly job keeps them current');
  } finally {
    await producer.close();
  }
}
