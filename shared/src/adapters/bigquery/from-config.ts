/**
 * The GCP billing export a process reads: the BigQuery export when BILLING_BIGQUERY_DATASET is set, none otherwise.
 * Without it GCP spend comes from the local generator (source `gcp-generated`, local.ts), which the ingest opens by
 * name, so its entry points are offered here too. The BigQuery client is imported only when a dataset is set.
 */
import type { Config } from '../../config.ts';
import type { GcpBillingExport } from '../../ports/gcp-billing-export.ts';

export { gcpGeneratedSource, generatedRowsForDay, microsToDecimal, type ProvisionedProject } from './local.ts';

export async function gcpBillingExportFromConfig(
  config: Pick<Config, 'BILLING_BIGQUERY_PROJECT' | 'BILLING_BIGQUERY_DATASET' | 'BILLING_BIGQUERY_LOCATION'>,
): Promise<GcpBillingExport | undefined> {
  if (!config.BILLING_BIGQUERY_DATASET) return undefined;
  const [{ BigQuery }, { bigQueryBillingExport }] = await Promise.all([import('@google-cloud/bigquery'), import('./real.ts')]);
  return bigQueryBillingExport({
    client: new BigQuery(config.BILLING_BIGQUERY_PROJECT ? { projectId: config.BILLING_BIGQUERY_PROJECT } : {}),
    dataset: config.BILLING_BIGQUERY_DATASET,
    location: config.BILLING_BIGQUERY_LOCATION || undefined,
  });
}
