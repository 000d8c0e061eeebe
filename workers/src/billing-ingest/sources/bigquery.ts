/**
 * The GCP standard billing export in BigQuery, read with the official client. The query aggregates
 * in BigQuery to the grain we store (US/Pacific day × project × service × SKU × labels), so only
 * daily lines cross the network; every value comes back as a STRING so money stays exact
 * (FLOAT64 → NUMERIC rounds to 9 decimals inside BigQuery, then NUMERIC → STRING is exact).
 */
import { BigQuery } from '@google-cloud/bigquery';
import type { BillingSource, CostRow, SourceItem } from '@cc/shared/ports/billing-source.ts';

export interface BigQueryBillingConfig {
  client: BigQuery;
  /** `project.dataset` that holds the `gcp_billing_export_v1_<ACCOUNT>` tables. */
  dataset: string;
  location?: string;
}

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
  invoice.month AS invoice_month,
  cost_type,
  CAST(SUM(CAST(cost AS NUMERIC)) AS STRING) AS cost,
  CAST(SUM(IFNULL((SELECT SUM(CAST(c.amount AS NUMERIC)) FROM UNNEST(credits) c), 0)) AS STRING) AS credits
FROM \`${table}\`
WHERE usage_start_time >= TIMESTAMP(@from_day, 'America/Los_Angeles')
  AND usage_start_time < TIMESTAMP(DATE_ADD(@to_day, INTERVAL 1 DAY), 'America/Los_Angeles')
GROUP BY usage_date, project_id, project_labels, service, sku, resource_labels, currency, invoice_month, cost_type`;
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
  invoice_month: string | null;
  cost_type: string | null;
  cost: string | null;
  credits: string | null;
}

export function bigQuerySource(o: BigQueryBillingConfig & { billingAccountId: string; from: string; to: string }): BillingSource {
  const table = exportTable(o.dataset, o.billingAccountId);
  return {
    label: `bigquery ${table} ${o.from}..${o.to}`,
    window: { from: o.from, to: o.to },
    providers: ['gcp'],
    async *rows(): AsyncGenerator<SourceItem> {
      const stream = o.client.createQueryStream({
        query: exportQuery(table),
        // BigQuery.date(), not a string with types: {DATE}: the client (8.x) sends an empty parameterValue for the latter.
        params: { from_day: BigQuery.date(o.from), to_day: BigQuery.date(o.to) },
        location: o.location,
        // No maxResults: the stream's paginator takes it as a cap on all rows, not as a page size;
        // BigQuery sizes pages itself and the stream follows pageToken to the end.
      });
      let line = 0;
      for await (const r of stream as AsyncIterable<ExportRow>) {
        line++;
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
          currency: r.currency ?? '',
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
