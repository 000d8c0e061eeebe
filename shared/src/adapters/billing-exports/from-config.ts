/**
 * The export store of a configured billing account, whichever provider: opens the sealed secret (associated data: the
 * billing account, so a secret copied onto another account's row does not open) and picks the adapter.
 */
import type { SecretBox } from '../../secret-box.ts';
import type { BillingExportStore } from '../../ports/billing-export-store.ts';
import type { ExportSourceRow } from '../../db/billing-export-sources.ts';
import { awsExportStoreFromSetting } from './aws-data-exports/from-config.ts';
import { azureExportStoreFromSetting } from './azure-cost-exports/from-config.ts';

export type ExportStores = (row: Pick<ExportSourceRow, 'billing_account_id' | 'kind' | 'settings' | 'secret_sealed'>) => BillingExportStore;

/** `localDir`: read every export from this folder in the providers' layouts instead of S3 / Blob Storage (the demo). */
export function exportStoresFromConfig(box: SecretBox, opts: { localDir?: string } = {}): ExportStores {
  return (row) => {
    const secret = row.secret_sealed ? box.open(row.secret_sealed, row.billing_account_id) : null;
    if (row.kind === 'aws-data-exports') return awsExportStoreFromSetting(row.settings, secret, opts);
    return azureExportStoreFromSetting(row.settings, secret, opts);
  };
}
