/**
 * The AWS Data Exports setting of one billing account (billing_export_source), read for the S3 adapter or the local
 * folder adapter (../from-config.ts picks). Used by api and workers alike; it imports no AWS SDK module.
 */
import type { AwsExportSettings } from './manifest.ts';

/** The setting's fields (snake_case as stored and as the admin form sends them). */
export const AWS_SETTING_FIELDS = ['bucket', 'prefix', 'export_name', 'region', 'role_arn', 'endpoint'] as const;

/** The secret, when set, is an access key pair `ACCESS_KEY_ID:SECRET_ACCESS_KEY`; otherwise the SDK's default chain. */
export function parseAccessKey(secret: string | null): AwsExportSettings['accessKey'] {
  if (!secret) return undefined;
  const at = secret.indexOf(':');
  if (at <= 0 || at === secret.length - 1) throw new Error('the AWS secret is ACCESS_KEY_ID:SECRET_ACCESS_KEY');
  return { accessKeyId: secret.slice(0, at).trim(), secretAccessKey: secret.slice(at + 1).trim() };
}

/** The setting's fields as the adapters take them; the secret is read by the S3 adapter's caller only. */
export function awsExportSettings(settings: Record<string, string>): Omit<AwsExportSettings, 'accessKey'> {
  return {
    bucket: settings.bucket ?? '',
    prefix: settings.prefix ?? '',
    exportName: settings.export_name ?? '',
    region: settings.region || undefined,
    roleArn: settings.role_arn || undefined,
    endpoint: settings.endpoint || undefined,
  };
}
