/**
 * AWS Data Exports read from a local folder laid out as the bucket would be (`<folder>/<bucket>/<prefix>/<export>/…`,
 * the layout of real.ts): the demo's exports, and a way to replay a copy of a real bucket offline.
 */
import { join } from 'node:path';
import { deliveryIdOf, localFileName, type BillingExportStore, type DeliveryFile, type ExportDelivery } from '../../../ports/billing-export-store.ts';
import { writeExportFile } from '../export-files.ts';
import { localFolder } from '../local-folder.ts';
import { manifestKeys, type AwsExportSettings } from './manifest.ts';

const MANIFEST_RE = /\/metadata\/BILLING_PERIOD=(\d{4}-\d{2})\/([^/]+)-Manifest\.json$/;

export function localAwsDataExportsStore(folder: string, s: Pick<AwsExportSettings, 'bucket' | 'prefix' | 'exportName'>): BillingExportStore {
  const bucket = localFolder(join(folder, s.bucket));
  const root = [s.prefix.replace(/^\/+|\/+$/g, ''), s.exportName].filter(Boolean).join('/');
  return {
    kind: 'aws-data-exports',
    label: `${folder}/${s.bucket}/${root}`,
    async listDeliveries() {
      const out: ExportDelivery[] = [];
      for (const o of await bucket.list(`${root}/metadata/`)) {
        const m = MANIFEST_RE.exec(o.key);
        if (!m || m[2] !== s.exportName) continue;
        const files: DeliveryFile[] = [];
        for (const key of manifestKeys(JSON.parse(await bucket.read(o.key)), s.bucket)) files.push({ key, etag: await bucket.etagOf(key) });
        out.push({ period: m[1], manifestKey: o.key, manifestEtag: o.etag, files, deliveryId: deliveryIdOf(o.etag, files) });
      }
      return out.sort((a, b) => a.period.localeCompare(b.period));
    },
    async download(delivery, dir) {
      const paths: string[] = [];
      for (const [i, f] of delivery.files.entries()) {
        const path = join(dir, localFileName(i, f.key));
        await writeExportFile(bucket.stream(f.key), path);
        paths.push(path);
      }
      return paths;
    },
  };
}
