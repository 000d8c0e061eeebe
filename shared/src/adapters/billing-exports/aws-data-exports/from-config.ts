/**
 * The AWS Data Exports store of one billing account, from its admin setting (billing_export_source): the S3 adapter,
 * or the local folder adapter when the worker reads exports from a folder (the demo). Used by api and workers alike.
 */
import type { BillingExportStore } from '../../../ports/billing-export-store.ts';
import { awsDataExportsStore } from './real.ts';
import { localAwsDataExportsStore } from './local.ts';
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

export function awsExportStoreFromSetting(settings: Record<string, string>, secret: string | null, opts: { localDir?: string } = {}): BillingExportStore {
  const s: AwsExportSettings = {
    bucket: settings.bucket ?? '',
    prefix: settings.prefix ?? '',
    exportName: settings.export_name ?? '',
    region: settings.region || undefined,
    roleArn: settings.role_arn || undefined,
    endpoint: settings.endpoint || undefined,
  };
  if (opts.localDir) return localAwsDataExportsStore(opts.localDir, s);
  return awsDataExportsStore({ ...s, accessKey: parseAccessKey(secret) });
}
