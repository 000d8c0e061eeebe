/**
 * Azure Cost Management exports read from a local folder laid out as the container would be
 * (`<folder>/<container>/<directory>/<export>/<YYYYMMDD-YYYYMMDD>/<run-id>/manifest.json`, the layout of real.ts).
 */
import { join } from 'node:path';
import { deliveryIdOf, localFileName, type BillingExportStore, type DeliveryFile, type ExportDelivery } from '../../../ports/billing-export-store.ts';
import { writeExportFile } from '../export-files.ts';
import { localFolder } from '../local-folder.ts';
import { manifestBlobNames } from './manifest.ts';
import type { AzureExportSettings } from './manifest.ts';

const RUN_RE = /(\d{8})-\d{8}\/[^/]+\/manifest\.json$/;

export function localAzureCostExportsStore(folder: string, s: Pick<AzureExportSettings, 'container' | 'directory' | 'exportName'>): BillingExportStore {
  const container = localFolder(join(folder, s.container));
  const root = [s.directory.replace(/^\/+|\/+$/g, ''), s.exportName].filter(Boolean).join('/');
  return {
    kind: 'azure-cost-exports',
    label: `${folder}/${s.container}/${root}`,
    async listDeliveries() {
      const runs = new Map<string, { key: string; etag: string; modified: number }>();
      for (const o of await container.list(`${root}/`)) {
        const m = RUN_RE.exec(o.key);
        if (!m || o.key.slice(root.length + 1).split('/').length !== 3) continue;
        const period = `${m[1].slice(0, 4)}-${m[1].slice(4, 6)}`;
        const seen = runs.get(period);
        if (!seen || o.modified > seen.modified || (o.modified === seen.modified && o.key > seen.key)) runs.set(period, o);
      }
      const out: ExportDelivery[] = [];
      for (const period of [...runs.keys()].sort()) {
        const run = runs.get(period)!;
        const files: DeliveryFile[] = [];
        for (const key of manifestBlobNames(JSON.parse(await container.read(run.key)))) files.push({ key, etag: await container.etagOf(key) });
        out.push({ period, manifestKey: run.key, manifestEtag: run.etag, files, deliveryId: deliveryIdOf(run.etag, files) });
      }
      return out;
    },
    async download(delivery, dir) {
      const paths: string[] = [];
      for (const [i, f] of delivery.files.entries()) {
        const path = join(dir, localFileName(i, f.key));
        await writeExportFile(container.stream(f.key), path);
        paths.push(path);
      }
      return paths;
    },
  };
}
