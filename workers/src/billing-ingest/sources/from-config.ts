/** The billing sources a worker offers beyond the local ones, from its configuration (BigQuery when a dataset is set). */
import { BigQuery } from '@google-cloud/bigquery';
import type { Config } from '@cc/shared/config.ts';
import type { BillingSourceDeps } from './index.ts';

export function billingSourcesFromConfig(config: Pick<Config, 'BILLING_BIGQUERY_PROJECT' | 'BILLING_BIGQUERY_DATASET' | 'BILLING_BIGQUERY_LOCATION'>): BillingSourceDeps {
  if (!config.BILLING_BIGQUERY_DATASET) return {};
  return {
    bigquery: {
      client: new BigQuery(config.BILLING_BIGQUERY_PROJECT ? { projectId: config.BILLING_BIGQUERY_PROJECT } : {}),
      dataset: config.BILLING_BIGQUERY_DATASET,
      location: config.BILLING_BIGQUERY_LOCATION || undefined,
    },
  };
}
