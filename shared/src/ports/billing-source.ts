/**
 * Port for billing sources: anything that yields cost rows for one customer's billing account
 * (FOCUS 1.0 files, the GCP billing export in BigQuery, the local GCP generator). The ingest job
 * consumes it without knowing which one it is.
 */

/** A provider-neutral cost row; money stays a decimal string from source to PostgreSQL. */
export interface CostRow {
  /** gcp, aws, azure, or the FOCUS ProviderName lower-cased (e.g. oracle). */
  provider: string;
  /** Display name (e.g. 'Google Cloud', 'AWS', 'Microsoft', 'Oracle'). */
  provider_name: string;
  /** YYYY-MM-DD, the US/Pacific day of the usage. */
  usage_date: string;
  project_id: string;
  project_name: string;
  service: string;
  sku: string;
  /** Gross cost, decimal string. */
  cost: string;
  /** Sum of credits (negative), decimal string; spend = cost + credits. */
  credits: string;
  /** ISO 4217 code. */
  currency: string;
  /** YYYYMM, when the source knows it. */
  invoice_month: string | null;
  cost_type: string | null;
  project_labels: Record<string, string>;
  resource_labels: Record<string, string>;
  /** The provider's resource (FOCUS ResourceId), when the source has one; '' or absent otherwise. */
  resource_id?: string;
  /** FOCUS ChargeClass 'Correction': the row corrects a billing period already invoiced. */
  correction?: boolean;
}

/**
 * One item of a source: a row, or a problem the source found itself (bad JSON, bad timestamp).
 * `line` is the physical line of a file (header = 1), or the row's ordinal for non-file sources.
 */
export type SourceItem = { line: number; row: CostRow; error?: undefined } | { line: number; error: string; row?: undefined };

export interface BillingSource {
  /** Shown in batch records and logs, e.g. the file name. */
  readonly label: string;
  /**
   * Days the source is authoritative for (YYYY-MM-DD, inclusive). Days in the window without rows are
   * cleared too, so a day whose spend vanished upstream does not keep its old lines. Files have none:
   * they replace exactly the days they contain.
   */
  readonly window?: { from: string; to: string };
  /**
   * The providers the source speaks for (a GCP export: ['gcp']). An ingest replaces only these providers'
   * lines of the days it covers, so a GCP export and an AWS FOCUS file on one billing account never erase
   * each other. Absent (files): the providers present in its rows.
   */
  readonly providers?: readonly string[];
  rows(): AsyncIterable<SourceItem>;
  /** How far the source is (bytes, days, rows — whatever it counts), for progress bars. */
  position?(): { done: number; total: number } | undefined;
}
