/**
 * billing.nightly: queues the night's billing ingests, one `billing-ingest` per account, so every customer's spend is
 * current each morning without an admin asking (scheduled at 02:00 US/Pacific, before anomaly detection and alerts).
 *
 * - BigQuery configured (BILLING_BIGQUERY_DATASET): every account whose export table is in the dataset is read for the
 *   last NIGHTLY_INGEST_DAYS days (exports settle late: Google revises recent days), and in the first
 *   NIGHTLY_INGEST_CLOSE_DAY days of a month the whole previous month too (invoice close), as one window. Accounts
 *   without an export table (AWS, Azure, an account not exported yet) are skipped and listed.
 * - Local sources only (the default): the demo accounts whose GCP spend came from the generator get the days they miss
 *   up to yesterday, as `make start` does; days already there are left alone (the generator would repeat them, and
 *   the demo anomaly placed by make start stays). Other accounts are skipped. (docs/decisions-billing.md)
 *
 * - AWS and Azure exports configured for an account (admin setting, billing_export_source): one `billing-ingest` of
 *   source aws-data-exports / azure-cost-exports per account with the same window, whichever of the above applies.
 *   The job reads the export's deliveries and loads those not loaded yet (workers/src/billing-exports/sync.ts): a
 *   period already loaded only when it lies in the window, each delivery once (its id is its manifest's and files'
 *   ETags, recorded with the batch that loaded it).
 *
 * Job ids are `nightly-<day>-<the ingest's own id>` and completed ones are kept two days, so a rerun the same night
 * (a retry, a restarted worker, the job queued by hand) adds nothing, and an admin's ingest of the same window is
 * still its own job.
 */
import type { JobFor } from '@cc/shared/queues.ts';
import type { BillingIngestCommand } from '@cc/shared/commands/billing-ingest.ts';
import { customerBillingAccounts, generatedAccounts, exportAccounts } from '@cc/shared/db/billing-nightly.ts';
import { addDays, addMonths, billingToday } from '@cc/shared/time.ts';
import type { DepsOf } from '../deps.ts';

/** Kept after completion so the same night's ids stay taken (BullMQ adds nothing for an id it still holds). */
const KEEP_COMPLETED_SECONDS = 2 * 24 * 3600;

/** The days the night `day` reads again: the last `days` days, from the 1st of the previous month up to `closeDay`. */
export function nightlyWindow(day: string, settings: { days: number; closeDay: number }): { from: string; to: string } {
  const to = addDays(day, -1);
  let from = addDays(day, -settings.days);
  const previousMonth = addMonths(`${day.slice(0, 8)}01`, -1);
  if (Number(day.slice(8, 10)) <= settings.closeDay && previousMonth < from) from = previousMonth;
  return { from, to };
}

export interface NightlyPlan {
  day: string;
  commands: BillingIngestCommand[];
  /** Accounts left out, with why. */
  skipped: { customer_id: string; billing_account_id: string; reason: string }[];
}

/** The ingests the night `day` queues (pure reads: the job enqueues them, the tests look at them). */
export async function planNightlyIngest(deps: DepsOf<'billing-nightly'>, day: string): Promise<NightlyPlan> {
  const plan: NightlyPlan = { day, commands: [], skipped: [] };
  const viaExport = new Set<string>();
  for (const a of await exportAccounts(deps.pool)) {
    viaExport.add(`${a.customer_id}/${a.billing_account_id}`);
    if (!deps.billingSources.exportStores) plan.skipped.push({ customer_id: a.customer_id, billing_account_id: a.billing_account_id, reason: `${a.kind} is not configured on this worker` });
    else plan.commands.push({ customer_id: a.customer_id, billing_account_id: a.billing_account_id, source: a.kind, ...nightlyWindow(day, deps.nightlyIngest) });
  }
  const hasExport = (a: { customer_id: string; billing_account_id: string }) => viaExport.has(`${a.customer_id}/${a.billing_account_id}`);
  const bigquery = deps.billingSources.bigquery;
  if (bigquery) {
    const accounts = await customerBillingAccounts(deps.pool);
    const exported = new Set(await bigquery.exportedBillingAccounts([...new Set(accounts.map((a) => a.billing_account_id))]));
    const window = nightlyWindow(day, deps.nightlyIngest);
    for (const a of accounts) {
      if (exported.has(a.billing_account_id)) plan.commands.push({ ...a, source: 'bigquery', ...window });
      else if (!hasExport(a)) plan.skipped.push({ ...a, reason: `no export table in ${bigquery.dataset}` });
    }
    return plan;
  }
  const yesterday = addDays(day, -1);
  const generated = await generatedAccounts(deps.pool);
  const isGenerated = new Set(generated.map((g) => `${g.customer_id}/${g.billing_account_id}`));
  for (const g of generated) {
    if (g.last_gcp_day && g.last_gcp_day >= yesterday) plan.skipped.push({ customer_id: g.customer_id, billing_account_id: g.billing_account_id, reason: 'current' });
    else {
      const from = g.last_gcp_day ? addDays(g.last_gcp_day, 1) : nightlyWindow(day, deps.nightlyIngest).from;
      plan.commands.push({ customer_id: g.customer_id, billing_account_id: g.billing_account_id, source: 'gcp-generated', from, to: yesterday });
    }
  }
  for (const a of await customerBillingAccounts(deps.pool)) {
    if (!isGenerated.has(`${a.customer_id}/${a.billing_account_id}`) && !hasExport(a)) plan.skipped.push({ ...a, reason: 'no configured source (BigQuery is off; not a generated demo account)' });
  }
  return plan;
}

export function billingNightlyHandler(deps: DepsOf<'billing-nightly'>) {
  return async (job: JobFor<'billing-nightly'>) => {
    const day = job.data.day ?? billingToday();
    const plan = await planNightlyIngest(deps, day);
    const jobs: string[] = [];
    for (const cmd of plan.commands) {
      jobs.push(await deps.enqueue('billing-ingest', 'billing.ingest', cmd, { idScope: `nightly-${day}`, removeOnComplete: { age: KEEP_COMPLETED_SECONDS } }));
    }
    return { day, queued: jobs, skipped: plan.skipped };
  };
}
