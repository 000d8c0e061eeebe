/**
 * The demo's anomaly (make start): the generator spikes about one day in forty per project, so the judged day
 * (two days before today, US/Pacific) rarely has one and the Anomaly Detection screen would usually be empty.
 * For every account of a customer with anomaly detection on, the judged day is re-ingested through the normal ingest
 * as the generator's own rows for that day PLUS one extra, clearly named line: the spend of one project's service
 * tripled. The generator itself stays independent of the date it runs on.
 *
 * Ingest replaces whole (account, day) slices, so the source carries the complete day (generated rows + the spike),
 * never the spike alone; re-running it replaces the day with the same rows (idempotent).
 */
import type { Pool } from '@cc/shared/db/pool.ts';
import type { BillingSource, CostRow, SourceItem } from '@cc/shared/ports/billing-source.ts';
import { addDays, billingToday } from '@cc/shared/time.ts';
import { ANOMALY_DATE_OFFSET_DAYS } from '@cc/shared/insights/anomaly-rule.ts';
import { generatedRowsForDay, microsToDecimal, runIngest } from '../../workers/src/billing-ingest/index.ts';

/** Which generated series gets the demo spike: the biggest line of the biggest project. */
export const DEMO_SPIKE = { projectSuffix: 'analytics-prod', service: 'BigQuery', sku: 'Analysis' } as const;
/** The extra line's SKU says where it comes from, on the dashboard, the export and the anomaly e-mail alike. */
export const DEMO_SPIKE_SKU = 'Analysis (demo spike added by make start)';
/** The extra line costs this many times the generated line it copies: +200 % on the day, far above any default threshold. */
const SPIKE_FACTOR = 2n;

function toMicros(decimal: string): bigint {
  const neg = decimal.startsWith('-');
  const [i, f = ''] = decimal.replace(/^[-+]/, '').split('.');
  const v = BigInt(i || '0') * 1_000_000n + BigInt((f + '000000').slice(0, 6));
  return neg ? -v : v;
}

/** The judged day's complete generated rows plus the demo spike line. */
export function demoSpikeRows(o: { customerId: string; billingAccountId: string; currency: string }, day: string): CostRow[] {
  const rows = generatedRowsForDay(o, day);
  const base = rows.find((r) => r.project_id.endsWith(`-${DEMO_SPIKE.projectSuffix}`) && r.service === DEMO_SPIKE.service && r.sku === DEMO_SPIKE.sku);
  if (!base) throw new Error(`the generator has no ${DEMO_SPIKE.service} ${DEMO_SPIKE.sku} line for ${DEMO_SPIKE.projectSuffix}`);
  const spike: CostRow = {
    ...base,
    sku: DEMO_SPIKE_SKU,
    cost: microsToDecimal(toMicros(base.cost) * SPIKE_FACTOR),
    credits: microsToDecimal(toMicros(base.credits) * SPIKE_FACTOR),
    project_labels: { ...base.project_labels },
    resource_labels: { ...base.resource_labels, app: 'demo-spike' },
  };
  return [...rows, spike];
}

function rowsSource(label: string, rows: CostRow[]): BillingSource {
  return {
    label,
    // No window: exactly the day the rows are on is replaced.
    async *rows(): AsyncGenerator<SourceItem> {
      let line = 0;
      for (const row of rows) yield { line: ++line, row };
    },
  };
}

export interface DemoSpike {
  customer_id: string;
  billing_account_id: string;
  day: string;
  project_id: string;
}

/** Adds the demo spike on the judged day to every account of every customer with anomaly detection on. */
export async function addDemoSpikes(pool: Pool, today = billingToday()): Promise<DemoSpike[]> {
  const day = addDays(today, -ANOMALY_DATE_OFFSET_DAYS);
  const { rows: accounts } = await pool.query<{ customer_id: string; account: string; currency: string }>(
    `SELECT c.customer_id, a.account, c.billing_currency AS currency
       FROM customer c, unnest(c.billing_account_ids) AS a(account)
      WHERE c.anomaly_detection ORDER BY 1, 2`,
  );
  const done: DemoSpike[] = [];
  for (const a of accounts) {
    const o = { customerId: a.customer_id, billingAccountId: a.account, currency: a.currency };
    const rows = demoSpikeRows(o, day);
    await runIngest({
      pool,
      customerId: a.customer_id,
      billingAccountId: a.account,
      sourceKind: 'gcp-generated',
      source: rowsSource(`generated GCP export ${day} + demo spike`, rows),
    });
    done.push({ customer_id: a.customer_id, billing_account_id: a.account, day, project_id: rows.at(-1)!.project_id });
  }
  return done;
}
