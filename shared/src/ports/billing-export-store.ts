/**
 * Port of where a cloud provider delivers a billing account's FOCUS export: an S3 bucket (AWS Data Exports), a Blob
 * Storage container (Azure Cost Management exports) or a local folder with the same layout (the demo). Each billing
 * period has one current delivery, described by the provider's manifest; a delivery's identity is the manifest's and
 * its files' ETags, so a revised delivery (the provider rewrites the period) is a new identity and an unchanged one
 * is not. Layouts and sources: docs/decisions-billing.md, "AWS and Azure exports".
 */
import { createHash } from 'node:crypto';

export type ExportSourceKind = 'aws-data-exports' | 'azure-cost-exports';

export interface DeliveryFile {
  /** The object key / blob name as the manifest names it. */
  key: string;
  /** Null when the manifest names a file the store does not hold (a delivery still being written). */
  etag: string | null;
}

export interface ExportDelivery {
  /** The billing period the delivery speaks for, YYYY-MM. */
  period: string;
  /** Where the manifest is (key or blob name). */
  manifestKey: string;
  manifestEtag: string;
  files: DeliveryFile[];
  /** Stable id of this exact delivery (manifest and file ETags); '' while files are missing. */
  deliveryId: string;
}

export interface BillingExportStore {
  readonly kind: ExportSourceKind;
  /** Where the deliveries are read from, for messages (bucket/prefix/export or account/container/directory). */
  readonly label: string;
  /** The current delivery of every billing period the export holds, oldest period first. */
  listDeliveries(): Promise<ExportDelivery[]>;
  /** Writes the delivery's files into `dir` (plain names, in manifest order) and returns their paths. */
  download(delivery: ExportDelivery, dir: string): Promise<string[]>;
}

/** A delivery is complete when every file its manifest lists is there. */
export const missingFiles = (d: ExportDelivery) => d.files.filter((f) => f.etag === null).map((f) => f.key);

/** The id of a delivery: a hash of the manifest's ETag and each file's key and ETag, in manifest order. */
export function deliveryIdOf(manifestEtag: string, files: DeliveryFile[]): string {
  if (files.some((f) => f.etag === null)) return '';
  const h = createHash('sha256').update(manifestEtag);
  for (const f of files) h.update(`\n${f.key}\t${f.etag}`);
  return h.digest('hex');
}

/** A store refused us (credentials, permissions, missing bucket): the account's sync fails with this message. */
export class ExportStoreAccessError extends Error {
  override name = 'ExportStoreAccessError';
}

/** Local name of a delivery's nth file: the position keeps names unique when two keys share a base name. */
export function localFileName(index: number, key: string): string {
  const base = key.split('/').pop() ?? 'file';
  return `${String(index).padStart(4, '0')}-${base.replace(/[^A-Za-z0-9._-]+/g, '_')}`;
}
