/**
 * The Azure Cost Management exports setting of one billing account (billing_export_source), read for the Blob Storage
 * adapter or the local folder adapter (../from-config.ts picks). It imports no Azure SDK module.
 */

export const AZURE_SETTING_FIELDS = ['storage_account', 'container', 'directory', 'export_name', 'endpoint'] as const;

/**
 * The setting's fields as the adapters take them. The secret is read by the Blob Storage adapter's caller only: when
 * set, a connection string or a SAS URL; otherwise @azure/identity's DefaultAzureCredential.
 */
export function azureExportSettings(settings: Record<string, string>) {
  return {
    storageAccount: settings.storage_account ?? '',
    container: settings.container ?? '',
    directory: settings.directory ?? '',
    exportName: settings.export_name ?? '',
    endpoint: settings.endpoint || undefined,
  };
}
