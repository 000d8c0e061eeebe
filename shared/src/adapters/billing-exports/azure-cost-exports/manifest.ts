/** What the Blob Storage and local adapters share: the settings of an Azure export and how its manifest names files. */

export interface AzureExportSettings {
  /** Storage account name (with DefaultAzureCredential: https://<account>.blob.core.windows.net). */
  storageAccount: string;
  container: string;
  /** The export's directory path in the container ('' for the root). */
  directory: string;
  exportName: string;
  /** A connection string (AccountKey or SharedAccessSignature) or a SAS URL of the account; unset: DefaultAzureCredential. */
  secret?: string;
  /** Blob endpoint override (Azurite); unset for Azure itself. */
  endpoint?: string;
}

/** The part files a run's manifest.json lists (`blobs[].blobName`, container-relative paths). */
export function manifestBlobNames(manifest: unknown): string[] {
  const blobs = (manifest as { blobs?: unknown })?.blobs;
  if (!Array.isArray(blobs)) throw new Error('the manifest has no blobs list');
  return blobs.map((b) => {
    const name = (b as { blobName?: unknown })?.blobName;
    if (typeof name !== 'string' || !name) throw new Error('a manifest blob has no blobName');
    return name.replace(/^\/+/, '');
  });
}
