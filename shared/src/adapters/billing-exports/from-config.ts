/**
 * The export store of a configured billing account, whichever provider: opens the sealed secret (associated data: the
 * billing account, so a secret copied onto another account's row does not open) and picks the adapter.
 */
import type { SecretBox } from '../../secret-box.ts';
import type { BillingExportStore } from '../../ports/billing-export-store.ts';
import type { ExportSourceRow } from '../../db/billing-export-sources.ts';
import { awsExportSettings, parseAccessKey } from './aws-data-exports/from-config.ts';
import { azureExportSettings } from './azure-cost-exports/from-config.ts';
import { localAwsDataExportsStore } from './aws-data-exports/local.ts';
import { localAzureCostExportsStore } from './azure-cost-exports/local.ts';

export type ExportStores = (row: Pick<ExportSourceRow, 'billing_account_id' | 'kind' | 'settings' | 'secret_sealed'>) => BillingExportStore;

/**
 * `localDir`: read every export from this folder in the providers' layouts instead of S3 / Blob Storage (the demo).
 * The cloud adapters are imported only when the exports are read from the clouds: the AWS and Azure SDKs are ~140
 * modules that every worker start (and every test starting one) would load otherwise.
 */
export async function exportStoresFromConfig(box: SecretBox, opts: { localDir?: string } = {}): Promise<ExportStores> {
  const { localDir } = opts;
  if (localDir) {
    return (row) =>
      row.kind === 'aws-data-exports'
        ? localAwsDataExportsStore(localDir, awsExportSettings(row.settings))
        : localAzureCostExportsStore(localDir, azureExportSettings(row.settings));
  }
  const [{ awsDataExportsStore }, { azureCostExportsStore }] = await Promise.all([import('./aws-data-exports/real.ts'), import('./azure-cost-exports/real.ts')]);
  return (row) => {
    const secret = row.secret_sealed ? box.open(row.secret_sealed, row.billing_account_id) : null;
    if (row.kind === 'aws-data-exports') return awsDataExportsStore({ ...awsExportSettings(row.settings), accessKey: parseAccessKey(secret) });
    return azureCostExportsStore({ ...azureExportSettings(row.settings), secret: secret ?? undefined });
  };
}
