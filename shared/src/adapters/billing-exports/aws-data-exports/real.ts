/**
 * AWS Data Exports (FOCUS 1.0) read from S3 with the official client. Layout (AWS Data Exports user guide,
 * "Understanding export delivery"): data under `<prefix>/<export-name>/data/BILLING_PERIOD=YYYY-MM/`, and per
 * billing period one `<prefix>/<export-name>/metadata/BILLING_PERIOD=YYYY-MM/<export-name>-Manifest.json`, rewritten
 * on each refresh; its `dataFiles` lists the data files as full `s3://bucket/key` URIs ("Data Exports manifest file
 * reference"). Credentials: the SDK's default chain, or a role assumed per customer account.
 */
import { GetObjectCommand, HeadObjectCommand, ListObjectsV2Command, S3Client, S3ServiceException } from '@aws-sdk/client-s3';
import { fromTemporaryCredentials } from '@aws-sdk/credential-providers';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import {
  deliveryIdOf,
  ExportStoreAccessError,
  localFileName,
  type BillingExportStore,
  type DeliveryFile,
  type ExportDelivery,
} from '../../../ports/billing-export-store.ts';
import { writeExportFile } from '../export-files.ts';
import { manifestKeys, type AwsExportSettings } from './manifest.ts';

export type { AwsExportSettings } from './manifest.ts';

const MANIFEST_RE = /\/metadata\/BILLING_PERIOD=(\d{4}-\d{2})\/([^/]+)-Manifest\.json$/;

const stripQuotes = (etag: string | undefined) => (etag ?? '').replace(/^"|"$/g, '');

function accessError(err: unknown, label: string): unknown {
  if (err instanceof S3ServiceException) {
    const status = err.$metadata?.httpStatusCode;
    if (status === 403 || status === 401 || ['AccessDenied', 'InvalidAccessKeyId', 'SignatureDoesNotMatch', 'NoSuchBucket', 'ExpiredToken'].includes(err.name)) {
      return new ExportStoreAccessError(`S3 refused access to ${label}: ${err.name}${err.message && err.message !== err.name ? ` (${err.message})` : ''}`);
    }
  }
  if (err instanceof Error && /credential/i.test(err.message)) return new ExportStoreAccessError(`no AWS credentials for ${label}: ${err.message}`);
  return err;
}

export function awsDataExportsStore(s: AwsExportSettings): BillingExportStore {
  const region = s.region || 'us-east-1';
  const credentials = s.accessKey
    ? s.accessKey
    : s.roleArn
      ? fromTemporaryCredentials({ params: { RoleArn: s.roleArn, RoleSessionName: 'commandcenter-billing' }, clientConfig: { region } })
      : undefined;
  const client = new S3Client({ region, credentials, endpoint: s.endpoint, forcePathStyle: Boolean(s.endpoint) });
  const root = [s.prefix.replace(/^\/+|\/+$/g, ''), s.exportName].filter(Boolean).join('/');
  const label = `s3://${s.bucket}/${root}`;
  const guard = async <T>(f: () => Promise<T>): Promise<T> => {
    try {
      return await f();
    } catch (err) {
      throw accessError(err, label);
    }
  };

  async function etagOf(key: string): Promise<string | null> {
    try {
      return stripQuotes((await client.send(new HeadObjectCommand({ Bucket: s.bucket, Key: key }))).ETag);
    } catch (err) {
      if (err instanceof S3ServiceException && (err.name === 'NotFound' || err.$metadata?.httpStatusCode === 404)) return null;
      throw err;
    }
  }

  return {
    kind: 'aws-data-exports',
    label,
    listDeliveries: () =>
      guard(async () => {
        const manifests: { key: string; period: string; etag: string }[] = [];
        let token: string | undefined;
        do {
          const page = await client.send(new ListObjectsV2Command({ Bucket: s.bucket, Prefix: `${root}/metadata/`, ContinuationToken: token }));
          for (const o of page.Contents ?? []) {
            const m = o.Key ? MANIFEST_RE.exec(o.Key) : null;
            if (m && m[2] === s.exportName) manifests.push({ key: o.Key as string, period: m[1], etag: stripQuotes(o.ETag) });
          }
          token = page.IsTruncated ? page.NextContinuationToken : undefined;
        } while (token);
        manifests.sort((a, b) => a.period.localeCompare(b.period));
        const out: ExportDelivery[] = [];
        for (const m of manifests) {
          const got = await client.send(new GetObjectCommand({ Bucket: s.bucket, Key: m.key }));
          const text = (await got.Body?.transformToString('utf8')) ?? '';
          let keys: string[];
          try {
            keys = manifestKeys(JSON.parse(text), s.bucket);
          } catch (err) {
            throw new Error(`manifest ${m.key}: ${err instanceof Error ? err.message : String(err)}`);
          }
          const files: DeliveryFile[] = [];
          for (const key of keys) files.push({ key, etag: await etagOf(key) });
          const manifestEtag = stripQuotes(got.ETag) || m.etag;
          out.push({ period: m.period, manifestKey: m.key, manifestEtag, files, deliveryId: deliveryIdOf(manifestEtag, files) });
        }
        return out;
      }),
    download: (delivery, dir) =>
      guard(async () => {
        const paths: string[] = [];
        for (const [i, f] of delivery.files.entries()) {
          const got = await client.send(new GetObjectCommand({ Bucket: s.bucket, Key: f.key, IfMatch: f.etag ? `"${f.etag}"` : undefined }));
          const path = join(dir, localFileName(i, f.key));
          await writeExportFile(got.Body as Readable, path);
          paths.push(path);
        }
        return paths;
      }),
  };
}
