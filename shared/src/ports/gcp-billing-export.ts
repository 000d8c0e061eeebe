/**
 * Port: Cloud Billing's standard usage cost export to BigQuery, one table per billing account in one dataset. The
 * nightly ingest asks which accounts have a table; an ingest reads one account's rows of a window as a BillingSource.
 */
import type { BillingSource } from './billing-source.ts';

export interface GcpBillingExport {
  /** `project.dataset` holding the export tables, named in skip reasons ("no export table in …"). */
  readonly dataset: string;
  /** The billing accounts among `accounts` whose export table is in the dataset. */
  exportedBillingAccounts(accounts: string[]): Promise<string[]>;
  /** One account's rows of the days `from`..`to` (YYYY-MM-DD, inclusive, US/Pacific). */
  source(query: { billingAccountId: string; from: string; to: string }): BillingSource;
}
