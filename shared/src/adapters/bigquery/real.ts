/**
 * The GCP standard billing export in BigQuery. The query aggregates in BigQuery to the grain we store (US/Pacific
 * day × project × service × SKU × labels), so only daily lines cross the network; every value comes back as a STRING
 * so money stays exact (FLOAT64 → NUMERIC rounds to 9 decimals inside BigQuery, then NUMERIC → STRING is exact).
 *
 * The REST calls go through the official client's authenticated `request` (credentials, endpoint, retries of
 * transport errors), but the job is driven here, because each of BigQuery's answers matters:
 * - jobs.query may answer complete at once, with the first page inline and a `pageToken` for the rest;
 * - or incomplete, and then jobs.getQueryResults long-polls (`timeoutMs`) until it is complete, however many polls;
 * - a job that failed says so in getQueryResults' error, or only in jobs.get's `status.errorResult` (`errors[]` on a
 *   query answer may be mere warnings, per the API reference), so before the first row is handed over the job's
 *   status is read and a failure ends the ingest with BigQuery's reason and message, nothing loaded.
 */
import { randomUUID } from 'node:crypto';
import type { BigQuery } from '@google-cloud/bigquery';
import type { BillingSource, CostRow, ExportRate, SourceItem } from '../../ports/billing-source.ts';
import type { GcpBillingExport } from '../../ports/gcp-billing-export.ts';
import { ExportRates } from './export-rates.ts';
import { normaliseDecimal } from '../../decimal.ts';

export interface BigQueryBillingConfig {
  client: BigQuery;
  /** `project.dataset` that holds the `gcp_billing_export_v1_<ACCOUNT>` tables. */
  dataset: string;
  location?: string;
  /** The long poll asked of getQueryResults (BigQuery's own default is 10 s). */
  pollTimeoutMs?: number;
  /** How long a query may run before the ingest gives up (default 30 minutes). */
  maxQueryMs?: number;
}

/** A query job BigQuery reports as failed (or that never completed): the ingest fails with this message. */
export class BigQueryJobFailed extends Error {
  override name = 'BigQueryJobFailed';
}

interface ErrorProto {
  reason?: string;
  location?: string;
  message?: string;
}

interface QueryAnswer {
  jobComplete?: boolean;
  jobReference?: { projectId: string; jobId: string; location?: string };
  queryId?: string;
  schema?: { fields: { name: string }[] };
  rows?: { f: { v: unknown }[] }[];
  pageToken?: string;
  errors?: ErrorProto[];
}

/** One authenticated REST call through the client (paths are relative to /bigquery/v2/projects/{project}). */
function call<T>(client: BigQuery, opts: { method?: string; uri: string; json?: unknown; qs?: Record<string, unknown> }): Promise<T> {
  return new Promise((resolve, reject) => {
    client.request(opts, (err: Error | null, body?: unknown) => (err ? reject(err) : resolve(body as T)));
  });
}

const describe = (e: ErrorProto | undefined) => (e ? `${e.reason ?? 'error'}${e.location ? ` at ${e.location}` : ''}: ${e.message ?? 'no message'}` : 'no reason given');

/** The export table of a billing account: dashes become underscores, as Cloud Billing names it. */
export function exportTable(dataset: string, billingAccountId: string): string {
  // Identifiers cannot be query parameters; allow only the characters they can contain.
  if (!/^[A-Za-z0-9_-]+\.[A-Za-z0-9_]+$/.test(dataset)) throw new Error(`invalid BigQuery dataset '${dataset}'`);
  if (!/^[A-Za-z0-9-]+$/.test(billingAccountId)) throw new Error(`invalid GCP billing account id '${billingAccountId}'`);
  return `${dataset}.gcp_billing_export_v1_${billingAccountId.replace(/-/g, '_')}`;
}

export function exportQuery(table: string): string {
  return `SELECT
  CAST(DATE(usage_start_time, 'America/Los_Angeles') AS STRING) AS usage_date,
  project.id AS project_id,
  ANY_VALUE(project.name) AS project_name,
  TO_JSON_STRING(project.labels) AS project_labels,
  service.description AS service,
  sku.description AS sku,
  TO_JSON_STRING(labels) AS resource_labels,
  currency,
  -- units of the row's currency per 1 USD, as Cloud Billing converted it (kept as rates with provenance 'gcp-export')
  CAST(CAST(currency_conversion_rate AS NUMERIC) AS STRING) AS currency_conversion_rate,
  invoice.month AS invoice_month,
  cost_type,
  CAST(SUM(CAST(cost AS NUMERIC)) AS STRING) AS cost,
  CAST(SUM(IFNULL((SELECT SUM(CAST(c.amount AS NUMERIC)) FROM UNNEST(credits) c), 0)) AS STRING) AS credits,
  -- the usage paid for, in the SKU's usage.unit (one unit per SKU, so the sum is of like things); NULL when any row of
  -- the group has none, so a partial sum never reads as a usage change
  IF(COUNTIF(usage.amount IS NULL) > 0, NULL, CAST(SUM(CAST(usage.amount AS NUMERIC)) AS STRING)) AS usage_amount
FROM \`${table}\`
WHERE usage_start_time >= TIMESTAMP(@from_day, 'America/Los_Angeles')
  AND usage_start_time < TIMESTAMP(DATE_ADD(@to_day, INTERVAL 1 DAY), 'America/Los_Angeles')
GROUP BY usage_date, project_id, project_labels, service, sku, resource_labels, currency, currency_conversion_rate, invoice_month, cost_type`;
}

/** usage.amount as BigQuery's NUMERIC text, or null (none, or not a plain decimal the cost_line column takes). */
export function quantity(raw: string | null | undefined): string | null {
  if (raw === null || raw === undefined || raw === '') return null;
  const v = normaliseDecimal(raw);
  return v !== null && v.length <= 40 ? v : null;
}

/** `[{"key":"team","value":"web"}]` (TO_JSON_STRING of a REPEATED key/value RECORD) → `{team: 'web'}`. */
export function labelsFromJson(raw: string | null): Record<string, string> | null {
  if (raw === null || raw === '' || raw === 'null') return {};
  let list: unknown;
  try {
    list = JSON.parse(raw);
  } catch {
    return null;
  }
  if (!Array.isArray(list)) return null;
  const out: Record<string, string> = {};
  for (const kv of list) {
    if (kv && typeof kv.key === 'string' && kv.value !== null && kv.value !== undefined) out[kv.key] = String(kv.value);
  }
  return out;
}

interface ExportRow {
  usage_date: string | null;
  project_id: string | null;
  project_name: string | null;
  project_labels: string | null;
  service: string | null;
  sku: string | null;
  resource_labels: string | null;
  currency: string | null;
  /** Absent from answers of older queries (and fakes that do not send it): no rate. */
  currency_conversion_rate?: string | null;
  invoice_month: string | null;
  cost_type: string | null;
  cost: string | null;
  credits: string | null;
  /** Absent from answers of older queries (and fakes that do not send it): no quantity. */
  usage_amount?: string | null;
}

/** Export rows of the f/v answer as objects by column name (every column is a STRING, or NULL). */
function* answerRows(a: QueryAnswer): Generator<ExportRow> {
  const names = a.schema?.fields.map((f) => f.name) ?? [];
  for (const r of a.rows ?? []) {
    const row: Record<string, string | null> = {};
    names.forEach((n, i) => {
      const v = r.f[i]?.v;
      row[n] = v === null || v === undefined ? null : String(v);
    });
    yield row as unknown as ExportRow;
  }
}

/**
 * Runs the export query and yields its rows page by page once BigQuery says the job succeeded.
 * `sleep` paces polls that come back incomplete sooner than the long poll asked (a proxy, an emulator).
 */
export async function* exportRows(
  o: BigQueryBillingConfig & { table: string; from: string; to: string; sleep?: (ms: number) => Promise<void> },
): AsyncGenerator<ExportRow> {
  const pollTimeoutMs = o.pollTimeoutMs ?? 10_000;
  const deadline = Date.now() + (o.maxQueryMs ?? 30 * 60_000);
  const sleep = o.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const date = (name: string, value: string) => ({ name, parameterType: { type: 'DATE' }, parameterValue: { value } });
  let answer = await call<QueryAnswer>(o.client, {
    method: 'POST',
    uri: '/queries',
    json: {
      query: exportQuery(o.table),
      useLegacySql: false,
      location: o.location,
      parameterMode: 'NAMED',
      queryParameters: [date('from_day', o.from), date('to_day', o.to)],
      formatOptions: { useInt64Timestamp: true },
      timeoutMs: pollTimeoutMs,
      // the same request retried by the client's transport is one job, not two
      requestId: randomUUID(),
    },
  });
  const job = answer.jobReference;
  const name = job ? `BigQuery job ${job.jobId}` : `BigQuery query ${answer.queryId ?? ''}`.trim();
  const location = job?.location ?? o.location;
  const results = (qs: Record<string, unknown>) => call<QueryAnswer>(o.client, { uri: `/queries/${encodeURIComponent(job!.jobId)}`, qs: { location, ...qs } });
  const failure = async (err: unknown): Promise<never> => {
    // getQueryResults answers a failed job with its error; jobs.get names the reason
    const status = job ? await jobStatus(o.client, job, location).catch(() => null) : null;
    const why = status?.errorResult ? describe(status.errorResult) : (err as Error).message;
    throw new BigQueryJobFailed(`${name} failed: ${why}`);
  };

  let pause = 250;
  while (!answer.jobComplete) {
    if (!job) throw new BigQueryJobFailed(`${name} answered incomplete without a job reference to poll`);
    if (Date.now() > deadline) throw new BigQueryJobFailed(`${name} did not complete within ${Math.round((o.maxQueryMs ?? 30 * 60_000) / 1000)} s`);
    const asked = Date.now();
    answer = await results({ timeoutMs: pollTimeoutMs }).catch(failure);
    if (!answer.jobComplete && Date.now() - asked < pollTimeoutMs / 2) {
      await sleep(pause);
      pause = Math.min(pause * 2, 5_000);
    }
  }
  if (job) {
    const status = await jobStatus(o.client, job, location);
    if (status.errorResult) throw new BigQueryJobFailed(`${name} failed: ${describe(status.errorResult)}`);
  } else if (answer.errors?.length) {
    throw new BigQueryJobFailed(`${name} failed: ${describe(answer.errors[0])}`);
  }
  for (;;) {
    yield* answerRows(answer);
    if (!answer.pageToken) return;
    answer = await results({ pageToken: answer.pageToken }).catch(failure);
  }
}

/** jobs.get: the job's final status (`errorResult` set when it failed). */
async function jobStatus(client: BigQuery, job: { jobId: string }, location: string | undefined): Promise<{ state?: string; errorResult?: ErrorProto }> {
  const j = await call<{ status?: { state?: string; errorResult?: ErrorProto } }>(client, { uri: `/jobs/${encodeURIComponent(job.jobId)}`, qs: location ? { location } : {} });
  return j.status ?? {};
}

/**
 * The billing accounts whose export table is in the dataset (tables.list): the accounts the nightly ingest reads.
 * Cloud Billing names the table after the account with dashes turned into underscores.
 */
export async function exportedBillingAccounts(o: Pick<BigQueryBillingConfig, 'client' | 'dataset'>, accounts: string[]): Promise<string[]> {
  const [project, dataset] = o.dataset.split('.');
  const [tables] = await o.client.dataset(dataset, { projectId: project }).getTables();
  const names = new Set(tables.map((t) => `${o.dataset}.${t.id}`));
  return accounts.filter((a) => /^[A-Za-z0-9-]+$/.test(a) && names.has(exportTable(o.dataset, a)));
}

export function bigQuerySource(o: BigQueryBillingConfig & { billingAccountId: string; from: string; to: string }): BillingSource {
  const table = exportTable(o.dataset, o.billingAccountId);
  const rates = new ExportRates();
  return {
    label: `bigquery ${table} ${o.from}..${o.to}`,
    window: { from: o.from, to: o.to },
    providers: ['gcp'],
    exportRates: (): ExportRate[] => rates.list(),
    async *rows(): AsyncGenerator<SourceItem> {
      let line = 0;
      for await (const r of exportRows({ ...o, table })) {
        line++;
        if (r.usage_date && r.currency && r.currency_conversion_rate) rates.add(r.usage_date, r.currency, r.currency_conversion_rate, r.cost ?? '0');
        const projectLabels = labelsFromJson(r.project_labels);
        const resourceLabels = labelsFromJson(r.resource_labels);
        if (!projectLabels || !resourceLabels) {
          yield { line, error: 'labels are not a JSON key/value list' };
          continue;
        }
        const row: CostRow = {
          provider: 'gcp',
          provider_name: 'Google Cloud',
          usage_date: r.usage_date ?? '',
          project_id: r.project_id ?? '',
          project_name: r.project_name ?? '',
          service: r.service ?? '',
          sku: r.sku ?? '',
          cost: r.cost ?? '',
          credits: r.credits ?? '0',
          // No effective_cost: the export bills commitments as daily fees with their credits on the covered rows, so
          // billed (cost + credits) is already spread; amortised = billed (docs/decisions-billing.md, "Billed / Amortised").
          currency: r.currency ?? '',
          // usage.amount: tells a usage rise from a price rise when an anomaly is explained
          usage_quantity: quantity(r.usage_amount),
          invoice_month: r.invoice_month,
          cost_type: r.cost_type,
          project_labels: projectLabels,
          resource_labels: resourceLabels,
        };
        yield { line, row };
      }
    },
  };
}

/** The export in BigQuery as the port the workers see. */
export function bigQueryBillingExport(o: BigQueryBillingConfig): GcpBillingExport {
  return {
    dataset: o.dataset,
    exportedBillingAccounts: (accounts) => exportedBillingAccounts(o, accounts),
    source: (q) => bigQuerySource({ ...o, ...q }),
  };
}
