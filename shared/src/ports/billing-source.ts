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
  /**
   * Amortised cost (FOCUS EffectiveCost), decimal string: a commitment purchase's cost spread over the usage it
   * covers. Absent or null: the same as billed (cost + credits), as for sources without amortisation.
   */
  effective_cost?: string | null;
  /** ISO 4217 code. */
  currency: string;
  /** YYYYMM, when the source knows it. */
  invoice_month: string | null;
  cost_type: string | null;
  project_labels: Record<string, string>;
  resource_labels: Record<string, string>;
  /** The provider's resource (FOCUS ResourceId), when the source has one; '' or absent otherwise. */
  resource_id?: string;
  /**
   * The usage the amount paid for (FOCUS ConsumedQuantity), decimal text; absent or null when the source has none.
   * Tells a usage rise from a price rise when an anomaly is explained.
   */
  usage_quantity?: string | null;
  /** FOCUS ChargeClass 'Correction': the row corrects a billing period already invoiced. */
  correction?: boolean;
}

/**
 * One item of a source: a row, or a problem the source found itself (bad JSON, bad timestamp).
 * `line` is the physical line of a file (header = 1), or the row's ordinal for non-file sources.
 */
export type SourceItem = { line: number; row: CostRow; error?: undefined } | { line: number; error: string; row?: undefined };

/** A rate a source carries with its rows (GCP export: `currency_conversion_rate`, units of `currency` per 1 USD). */
export interface ExportRate {
  usage_date: string;
  currency: string;
  usd_rate: string;
}

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
  /**
   * Exchange rates the rows carried (GCP export), read once the rows were read; the ingest stores them with the
   * rows, in the same transaction, as rates with source 'gcp-export'.
   */
  exportRates?(): ExportRate[];
  /** How far the source is (bytes, days, rows — whatever it counts), for progress bars. */
  position?(): { done: number; total: number } | undefined;
  /** What the operator should know about how the source was read (said once the rows are read), e.g. a missing column. */
  notes?(): string[];
  /**
   * The source's own names for the money fields (a FOCUS file: BilledCost, EffectiveCost), so a bad value is reported
   * by the column the operator sees in the file. Absent: the row's field names (cost, credits, effective_cost).
   */
  readonly moneyFields?: MoneyFieldNames;
}

export type MoneyFieldNames = Readonly<Partial<Record<'cost' | 'credits' | 'effective_cost', string>>>;
