/** The billing sources a worker offers, from its configuration: files of the drop directory, BigQuery when a dataset is set. */
import { BigQuery } from '@google-cloud/bigquery';
import type { Config } from '@cc/shared/config.ts';
import type { BillingSourceDeps } from './index.ts';

export function billingSourcesFromConfig(
  config: Pick<Config, 'BILLING_BIGQUERY_PROJECT' | 'BILLING_BIGQUERY_DATASET' | 'BILLING_BIGQUERY_LOCATION' | 'INGEST_DROP_DIR'>,
): BillingSourceDeps {
  // Files come from the drop directory only, checked again here since the folder may change after the api looked.
  const dropDir = config.INGEST_DROP_DIR;
  if (!config.BILLING_BIGQUERY_DATASET) return { dropDir };
  return {
    dropDir,
    bigquery: {
      client: new BigQuery(config.BILLING_BIGQUERY_PROJECT ? { projectId: config.BILLING_BIGQUERY_PROJECT } : {}),
      dataset: config.BILLING_BIGQUERY_DATASET,
      location: config.BILLING_BIGQUERY_LOCATION || undefined,
    },
  };
}
