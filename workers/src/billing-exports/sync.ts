/**
 * Loads a billing account's AWS or Azure spend from the provider's FOCUS export: reads each billing period's current
 * delivery (its manifest), and loads the files it lists when that delivery was not loaded yet. A revised delivery
 * goes through the file ingest, which replaces the billing periods a FOCUS export holds (never adds to them); an
 * unchanged one is skipped; one whose manifest names a file not there yet loads nothing and is tried again the next
 * night. Periods already loaded are looked at again only within the nightly window (providers revise the current and
 * the previous month), a period never loaded is loaded whenever it appears. Decisions: docs/decisions-billing.md,
 * "AWS and Azure exports".
 */
import { mkdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Pool } from '@cc/shared/db/pool.ts';
import { BadIngestCommand } from '@cc/shared/commands/billing-ingest.ts';
import { findCustomerBilling } from '@cc/shared/db/billing-ingest/batches.ts';
import { findCurrentFileBatch } from '@cc/shared/db/billing-batches.ts';
import { findExportSource, loadedDeliveries, recordDelivery, setExportStatus } from '@cc/shared/db/billing-export-sources.ts';
import { missingFiles, type ExportDelivery } from '@cc/shared/ports/billing-export-store.ts';
import type { ExportStores } from '@cc/shared/adapters/billing-exports/from-config.ts';
import { runIngest, type IngestProgress } from '../billing-ingest/ingest.ts';
import { deliverySource } from './delivery-source.ts';

export interface ExportSyncRequest {
  customer_id: string;
  billing_account_id: string;
  /** The nightly window: periods already loaded are read again only when they overlap it. Absent: every period. */
  from?: string;
  to?: string;
}

export interface ExportSyncResult {
  source: string;
  loaded: { period: string; manifest: string; batch_id: string; rows: number }[];
  unchanged: string[];
  /** Periods whose delivery is incomplete (the manifest names files not there yet): nothing loaded, tried again. */
  incomplete: { period: string; missing: string[] }[];
  /** Loaded periods outside the window, not looked at. */
  outside_window: string[];
}

/** A delivery described for people: its period and manifest. */
export const deliveryLabel = (d: Pick<ExportDelivery, 'period' | 'manifestKey'>) => `${d.period} (${d.manifestKey})`;

const monthOf = (day: string) => day.slice(0, 7);

/** Work folder of one delivery: fixed, so a run killed mid-download leaves one folder that its retry empties first. */
const workDir = (billingAccountId: string, deliveryId: string) =>
  join(tmpdir(), 'cc-billing-exports', `${billingAccountId.replace(/[^A-Za-z0-9._-]+/g, '_')}-${deliveryId.slice(0, 16)}`);

export async function syncExportAccount(
  deps: { pool: Pool; exportStores: ExportStores },
  req: ExportSyncRequest,
  onProgress?: (p: IngestProgress & { period: string }) => unknown,
): Promise<ExportSyncResult> {
  const { pool } = deps;
  const customer = await findCustomerBilling(pool, req.customer_id);
  if (!customer) throw new BadIngestCommand('customer-unknown', `customer ${req.customer_id} not found`);
  if (!customer.billing_account_ids.includes(req.billing_account_id)) {
    throw new BadIngestCommand('account-foreign', `billing account ${req.billing_account_id} is not an account of customer ${req.customer_id}`);
  }
  const row = await findExportSource(pool, req.billing_account_id);
  if (!row || row.customer_id !== req.customer_id) throw new BadIngestCommand('source', `billing account ${req.billing_account_id} has no AWS or Azure export configured`);
  const store = deps.exportStores(row);
  const result: ExportSyncResult = { source: `${row.kind} ${store.label}`, loaded: [], unchanged: [], incomplete: [], outside_window: [] };
  let deliveries: ExportDelivery[];
  try {
    deliveries = await store.listDeliveries();
  } catch (err) {
    await setExportStatus(pool, req.billing_account_id, { error: `${row.kind}: ${err instanceof Error ? err.message : String(err)}` });
    throw err;
  }
  const loaded = await loadedDeliveries(pool, req.billing_account_id);
  const windowFrom = req.from ? monthOf(req.from) : null;
  const windowTo = req.to ? monthOf(req.to) : null;
  let lastLoaded: string | undefined;
  try {
    for (const d of deliveries) {
      const missing = missingFiles(d);
      if (missing.length > 0) {
        result.incomplete.push({ period: d.period, missing });
        continue;
      }
      if (loaded.get(d.period) === d.deliveryId) {
        result.unchanged.push(d.period);
        continue;
      }
      if (loaded.has(d.period) && windowFrom && windowTo && (d.period < windowFrom || d.period > windowTo)) {
        result.outside_window.push(d.period);
        continue;
      }
      // Loaded already but not recorded (the process died between the ingest's COMMIT and the record below).
      const current = await findCurrentFileBatch(pool, req.billing_account_id, d.deliveryId);
      if (current) {
        await recordDelivery(pool, { billingAccountId: req.billing_account_id, period: d.period, deliveryId: d.deliveryId, manifestKey: d.manifestKey, batchId: current.id });
        continue;
      }
      const dir = workDir(req.billing_account_id, d.deliveryId);
      await rm(dir, { recursive: true, force: true });
      await mkdir(dir, { recursive: true });
      try {
        const paths = await store.download(d, dir);
        const summary = await runIngest({
          pool,
          customerId: req.customer_id,
          billingAccountId: req.billing_account_id,
          sourceKind: 'focus-file',
          source: deliverySource(`${store.label} ${d.manifestKey}`, paths),
          fileName: d.manifestKey.split('/').slice(-3).join('/'),
          fileHash: d.deliveryId,
          onProgress: onProgress ? (p) => onProgress({ ...p, period: d.period }) : undefined,
        });
        await recordDelivery(pool, { billingAccountId: req.billing_account_id, period: d.period, deliveryId: d.deliveryId, manifestKey: d.manifestKey, batchId: summary.batchId });
        result.loaded.push({ period: d.period, manifest: d.manifestKey, batch_id: summary.batchId, rows: summary.rows });
        lastLoaded = deliveryLabel(d);
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    }
  } catch (err) {
    await setExportStatus(pool, req.billing_account_id, { error: `${row.kind}: ${err instanceof Error ? err.message : String(err)}`, delivery: lastLoaded });
    throw err;
  }
  const newest = deliveries.filter((d) => loaded.get(d.period) === d.deliveryId || result.loaded.some((l) => l.period === d.period)).at(-1);
  await setExportStatus(pool, req.billing_account_id, { error: null, delivery: lastLoaded ?? (newest ? deliveryLabel(newest) : undefined) });
  return result;
}
