/** What the S3 and local adapters share: the settings of an AWS Data Export and how its manifest names files. */

export interface AwsExportSettings {
  bucket: string;
  /** The S3 prefix given to the export ('' for none). */
  prefix: string;
  exportName: string;
  region?: string;
  /** Assumed with the default chain's credentials when set (a customer's own account). */
  roleArn?: string;
  /** An S3-compatible endpoint (tests, emulators); unset for AWS itself. */
  endpoint?: string;
  /** Static keys (the setting's sealed secret, `accessKeyId:secretAccessKey`); unset: the SDK's default chain. */
  accessKey?: { accessKeyId: string; secretAccessKey: string };
}

/**
 * The manifest's `dataFiles` (full `s3://bucket/key` URIs, "Data Exports manifest file reference") as keys of
 * `bucket`; another bucket's URI is refused, as the export writes to one.
 */
export function manifestKeys(manifest: unknown, bucket: string): string[] {
  const files = (manifest as { dataFiles?: unknown })?.dataFiles;
  if (!Array.isArray(files) || files.some((f) => typeof f !== 'string')) throw new Error('the manifest has no dataFiles list');
  return (files as string[]).map((uri) => {
    const m = /^s3:\/\/([^/]+)\/(.+)$/.exec(uri);
    if (!m) throw new Error(`the manifest names '${uri}', not an s3:// URI`);
    if (m[1] !== bucket) throw new Error(`the manifest names a file in bucket ${m[1]}, not ${bucket}`);
    return m[2];
  });
}
