/**
 * Local default billing source: a deterministic generator of GCP standard-export rows, already
 * aggregated per day × project × service × SKU × resource labels (the grain the BigQuery adapter
 * asks for), so `make start` shows a living dashboard offline.
 *
 * Deterministic per (billing account, day, provisioned projects): any window reproduces exactly the same rows for
 * the days it shares with another, so overlapping backfills replace slices with identical data. A project
 * provisioned on the local cloud joins from the day after it became Active (`provisioned`), so days generated
 * before it keep their rows. All money is
 * integer micros (BigInt) turned into decimal strings; no float touches it.
 */
import { createHash } from 'node:crypto';
import { addDays } from '../../time.ts';
import type { BillingSource, CostRow, SourceItem } from '../../ports/billing-source.ts';

interface Sku {
  service: string;
  sku: string;
  /** Typical daily cost in micros of the currency. */
  dailyMicros: bigint;
  /** Sustained/committed-use style discount in percent, applied as a negative credit. */
  creditPercent?: bigint;
  resource: Record<string, string>;
}

const SKUS: Record<string, Sku> = {
  vmCore: { service: 'Compute Engine', sku: 'N2 Instance Core running in Belgium', dailyMicros: 18_400_000n, creditPercent: 20n, resource: { component: 'app-server' } },
  vmRam: { service: 'Compute Engine', sku: 'N2 Instance Ram running in Belgium', dailyMicros: 6_150_000n, creditPercent: 20n, resource: { component: 'app-server' } },
  disk: { service: 'Compute Engine', sku: 'SSD backed PD Capacity in Belgium', dailyMicros: 2_720_000n, resource: { component: 'app-server' } },
  bqAnalysis: { service: 'BigQuery', sku: 'Analysis', dailyMicros: 24_300_000n, resource: { component: 'warehouse' } },
  bqStorage: { service: 'BigQuery', sku: 'Active Logical Storage', dailyMicros: 3_910_000n, resource: { component: 'warehouse' } },
  gcs: { service: 'Cloud Storage', sku: 'Standard Storage Europe Multi-region', dailyMicros: 1_830_000n, resource: { component: 'assets' } },
  egress: { service: 'Networking', sku: 'Network Internet Data Transfer Out from EMEA to EMEA', dailyMicros: 4_460_000n, resource: { component: 'edge' } },
  sql: { service: 'Cloud SQL', sku: 'Cloud SQL for PostgreSQL: Zonal - vCPU in Belgium', dailyMicros: 9_870_000n, creditPercent: 17n, resource: { component: 'database' } },
  gke: { service: 'Kubernetes Engine', sku: 'Regional Kubernetes Clusters', dailyMicros: 2_400_000n, resource: { component: 'cluster' } },
  run: { service: 'Cloud Run', sku: 'CPU Allocation Time (tier 1)', dailyMicros: 3_120_000n, resource: { component: 'api' } },
  logging: { service: 'Cloud Logging', sku: 'Log Storage cost', dailyMicros: 870_000n, resource: { component: 'observability' } },
};

interface Project {
  suffix: string;
  name: string;
  labels: Record<string, string>;
  skus: (keyof typeof SKUS)[];
  /** Relative size in percent. */
  scale: bigint;
}

const PROJECTS: Project[] = [
  { suffix: 'analytics-prod', name: 'Analytics (prod)', labels: { team: 'analytics', env: 'prod', 'cost-center': 'cc-410' }, skus: ['bqAnalysis', 'bqStorage', 'gcs', 'logging'], scale: 140n },
  { suffix: 'analytics-dev', name: 'Analytics (dev)', labels: { team: 'analytics', env: 'dev', 'cost-center': 'cc-410' }, skus: ['bqAnalysis', 'bqStorage', 'logging'], scale: 35n },
  { suffix: 'web-prod', name: 'Webshop (prod)', labels: { team: 'web', env: 'prod', 'cost-center': 'cc-220' }, skus: ['vmCore', 'vmRam', 'disk', 'sql', 'egress', 'gke', 'logging'], scale: 120n },
  { suffix: 'web-dev', name: 'Webshop (dev)', labels: { team: 'web', env: 'dev', 'cost-center': 'cc-220' }, skus: ['vmCore', 'vmRam', 'disk', 'sql', 'run'], scale: 30n },
  { suffix: 'platform-shared', name: 'Shared platform', labels: { team: 'platform', env: 'prod' }, skus: ['gke', 'run', 'egress', 'logging', 'gcs'], scale: 60n },
];

const APPS = ['webshop', 'ledger', 'reporting'];

/**
 * A project CommandCenter provisioned on the local cloud and linked to this billing account: it spends from the
 * day after it became Active, like a new project starting small (Cloud Run, storage, logging).
 */
export interface ProvisionedProject {
  project_id: string;
  /** Its labels on the local cloud (the template's owner label, the request label): the export's project.labels. */
  labels: Record<string, string>;
  /** First day with spend (YYYY-MM-DD, US/Pacific). */
  from: string;
}

const NEW_PROJECT: Pick<Project, 'skus' | 'scale'> = { skus: ['run', 'gcs', 'logging'], scale: 10n };

/** 32-bit value from a string seed: stable across runs and machines. */
function hash32(seed: string): number {
  return createHash('sha256').update(seed).digest().readUInt32BE(0);
}

/** Micros → decimal string with 6 places (GCP exports carry up to 6 meaningful decimals on costs). */
export function microsToDecimal(m: bigint): string {
  const neg = m < 0n;
  const abs = neg ? -m : m;
  const s = `${abs / 1_000_000n}.${(abs % 1_000_000n).toString().padStart(6, '0')}`;
  return neg ? `-${s}` : s;
}

/** A day of the generated account is a spike day for a project when this says so (about 1 day in 40). */
export function isSpikeDay(billingAccountId: string, day: string, projectSuffix: string): boolean {
  return hash32(`spike|${billingAccountId}|${day}|${projectSuffix}`) % 40 === 0;
}

/** The rows of one day, deterministic for (customer, account, day). */
export function generatedRowsForDay(
  o: { customerId: string; billingAccountId: string; currency: string; provisioned?: readonly ProvisionedProject[] },
  day: string,
): CostRow[] {
  const weekday = new Date(`${day}T00:00:00Z`).getUTCDay();
  // Weekends run lighter; a slow growth over the year makes the trend visible on a 12-month chart.
  const weekdayPct = weekday === 0 || weekday === 6 ? 70n : 100n;
  const monthIndex = BigInt(Number(day.slice(0, 4)) * 12 + Number(day.slice(5, 7)));
  const growthPct = 100n + (monthIndex % 24n) * 2n;
  const prefix = o.customerId.replace(/[^a-z]/g, '').slice(0, 6);
  const rows: CostRow[] = [];
  const provisioned: (Project & { id: string })[] = (o.provisioned ?? [])
    .filter((p) => p.from <= day)
    .map((p) => ({ ...NEW_PROJECT, id: p.project_id, suffix: p.project_id, name: p.project_id, labels: p.labels }));
  for (const p of [...PROJECTS.map((x) => ({ ...x, id: `${prefix}-${x.suffix}` })), ...provisioned]) {
    const spike = isSpikeDay(o.billingAccountId, day, p.suffix) ? 4n : 1n;
    for (const key of p.skus) {
      const s = SKUS[key];
      const h = hash32(`${o.billingAccountId}|${day}|${p.suffix}|${key}`);
      const noisePct = 85n + BigInt(h % 31); // 85..115 %
      const app = APPS[h % APPS.length];
      const cost = (s.dailyMicros * p.scale * weekdayPct * growthPct * noisePct * spike) / 100_000_000n;
      const credits = s.creditPercent ? -((cost * s.creditPercent) / 100n) : 0n;
      rows.push({
        provider: 'gcp',
        provider_name: 'Google Cloud',
        usage_date: day,
        project_id: p.id,
        project_name: p.name,
        service: s.service,
        sku: s.sku,
        cost: microsToDecimal(cost),
        credits: microsToDecimal(credits),
        // as the real GCP export: no amortisation beyond credits, amortised = billed (docs/decisions-billing.md)
        currency: o.currency,
        invoice_month: day.slice(0, 4) + day.slice(5, 7),
        cost_type: 'regular',
        project_labels: { ...p.labels },
        resource_labels: { ...s.resource, app },
      });
    }
  }
  return rows;
}

export interface GeneratorOptions {
  customerId: string;
  billingAccountId: string;
  currency: string;
  /** First and last day, inclusive (YYYY-MM-DD, US/Pacific days). */
  from: string;
  to: string;
  /** Projects provisioned on the local cloud under this account (listProvisionedForBilling). */
  provisioned?: readonly ProvisionedProject[];
}

export function gcpGeneratedSource(o: GeneratorOptions): BillingSource {
  const total = Math.round((Date.parse(o.to) - Date.parse(o.from)) / 86_400_000) + 1;
  let done = 0;
  return {
    label: `generated GCP export ${o.from}..${o.to}`,
    window: { from: o.from, to: o.to },
    providers: ['gcp'],
    position: () => ({ done, total }),
    async *rows(): AsyncGenerator<SourceItem> {
      let line = 0;
      for (let day = o.from; day <= o.to; day = addDays(day, 1)) {
        for (const row of generatedRowsForDay(o, day)) yield { line: ++line, row };
        done++;
      }
    },
  };
}
