/**
 * The Azure Cost Management exports store of one billing account, from its admin setting (billing_export_source):
 * the Blob Storage adapter, or the local folder adapter when the worker reads exports from a folder (the demo).
 */
import type { BillingExportStore } from '../../../ports/billing-export-store.ts';
import { azureCostExportsStore } from './real.ts';
import { localAzureCostExportsStore } from './local.ts';

export const AZURE_SETTING_FIELDS = ['storage_account', 'container', 'directory', 'export_name', 'endpoint'] as const;

/** The secret, when set, is a connection string or a SAS URL; otherwise @azure/identity's DefaultAzureCredential. */
export function azureExportStoreFromSetting(settings: Record<string, string>, secret: string | null, opts: { localDir?: string } = {}): BillingExportStore {
  const s = {
    storageAccount: settings.storage_account ?? '',
    container: settings.container ?? '',
    directory: settings.directory ?? '',
    exportName: settings.export_name ?? '',
    endpoint: settings.endpoint || undefined,
  };
  if (opts.localDir) return localAzureCostExportsStore(opts.localDir, s);
  return azureCostExportsStore({ ...s, secret: secret ?? undefined });
}
