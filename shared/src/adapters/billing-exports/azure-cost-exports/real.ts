/**
 * Azure Cost Management exports (dataset "Cost and usage details (FOCUS)") read from Blob Storage with the official
 * client. Layout (Cost Management "exports" tutorials; docs/decisions-billing.md): each run writes
 * `<directory>/<export-name>/<YYYYMMDD-YYYYMMDD>/<run-id>/` with a `manifest.json` whose `blobs[].blobName` lists the
 * partitioned part files (CSV, gzip CSV or Parquet). The date range folder is the billing period; with several runs
 * of one period the newest manifest is the period's current delivery. Credentials: a connection string, a SAS (an
 * account or container URL with its query), or @azure/identity's DefaultAzureCredential for the account URL.
 */
import { DefaultAzureCredential } from '@azure/identity';
import { BlobServiceClient, ContainerClient, RestError } from '@azure/storage-blob';
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
import { manifestBlobNames, type AzureExportSettings } from './manifest.ts';

export type { AzureExportSettings } from './manifest.ts';

const RUN_RE = /^(?:.*\/)?(\d{8})-(\d{8})\/([^/]+)\/manifest\.json$/;

function containerClient(s: AzureExportSettings): ContainerClient {
  const secret = s.secret?.trim();
  if (secret && /^https?:\/\//.test(secret)) return new BlobServiceClient(secret).getContainerClient(s.container);
  if (secret) return BlobServiceClient.fromConnectionString(secret).getContainerClient(s.container);
  const url = s.endpoint ?? `https://${s.storageAccount}.blob.core.windows.net`;
  return new BlobServiceClient(url, new DefaultAzureCredential()).getContainerClient(s.container);
}

function accessError(err: unknown, label: string): unknown {
  if (err instanceof RestError && (err.statusCode === 401 || err.statusCode === 403 || err.code === 'ContainerNotFound')) {
    return new ExportStoreAccessError(`Blob Storage refused access to ${label}: ${err.code ?? err.statusCode}`);
  }
  if (err instanceof Error && (err.name === 'CredentialUnavailableError' || err.name === 'AuthenticationError')) {
    return new ExportStoreAccessError(`no Azure credentials for ${label}: ${err.message.split('\n')[0]}`);
  }
  if (err instanceof Error && /Invalid (?:Connection|DefaultEndpointsProtocol)|connection string/i.test(err.message)) {
    return new ExportStoreAccessError(`the connection string for ${label} is not valid`);
  }
  return err;
}

export function azureCostExportsStore(s: AzureExportSettings): BillingExportStore {
  const root = [s.directory.replace(/^\/+|\/+$/g, ''), s.exportName].filter(Boolean).join('/');
  const label = `${s.storageAccount}/${s.container}/${root}`;
  const guard = async <T>(f: () => Promise<T>): Promise<T> => {
    try {
      return await f();
    } catch (err) {
      throw accessError(err, label);
    }
  };
  let cached: ContainerClient | null = null;
  const container = () => (cached ??= containerClient(s));

  async function etagOf(name: string): Promise<string | null> {
    try {
      return (await container().getBlobClient(name).getProperties()).etag?.replace(/^"|"$/g, '') ?? '';
    } catch (err) {
      if (err instanceof RestError && err.statusCode === 404) return null;
      throw err;
    }
  }

  return {
    kind: 'azure-cost-exports',
    label,
    listDeliveries: () =>
      guard(async () => {
        // newest run per billing period
        const runs = new Map<string, { name: string; etag: string; modified: number }>();
        for await (const b of container().listBlobsFlat({ prefix: `${root}/` })) {
          const m = RUN_RE.exec(b.name);
          if (!m || b.name.slice(root.length + 1).split('/').length !== 3) continue;
          const period = `${m[1].slice(0, 4)}-${m[1].slice(4, 6)}`;
          const modified = b.properties.lastModified?.getTime() ?? 0;
          const seen = runs.get(period);
          if (!seen || modified > seen.modified || (modified === seen.modified && b.name > seen.name)) {
            runs.set(period, { name: b.name, etag: (b.properties.etag ?? '').replace(/^"|"$/g, ''), modified });
          }
        }
        const out: ExportDelivery[] = [];
        for (const period of [...runs.keys()].sort()) {
          const run = runs.get(period)!;
          const text = (await container().getBlobClient(run.name).downloadToBuffer()).toString('utf8');
          let names: string[];
          try {
            names = manifestBlobNames(JSON.parse(text));
          } catch (err) {
            throw new Error(`manifest ${run.name}: ${err instanceof Error ? err.message : String(err)}`);
          }
          const files: DeliveryFile[] = [];
          for (const name of names) files.push({ key: name, etag: await etagOf(name) });
          out.push({ period, manifestKey: run.name, manifestEtag: run.etag, files, deliveryId: deliveryIdOf(run.etag, files) });
        }
        return out;
      }),
    download: (delivery, dir) =>
      guard(async () => {
        const paths: string[] = [];
        for (const [i, f] of delivery.files.entries()) {
          const got = await container()
            .getBlobClient(f.key)
            .download(0, undefined, f.etag ? { conditions: { ifMatch: `"${f.etag}"` } } : {});
          const path = join(dir, localFileName(i, f.key));
          await writeExportFile(got.readableStreamBody as Readable, path);
          paths.push(path);
        }
        return paths;
      }),
  };
}
