import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Config } from '../../config.ts';
import type { AttachmentStore } from '../../ports/attachment-store.ts';
import { localAttachmentStore } from './local.ts';
import { gcsAttachmentStore, serviceAccountKey } from './real.ts';

/** Key of the local upload URL signatures, derived from JWT_SECRET so no second secret must be configured. */
export const uploadSigningKey = (config: Pick<Config, 'JWT_SECRET'>) => createHash('sha256').update(`ticket-uploads\n${config.JWT_SECRET}`).digest('hex');

/**
 * The configured attachment store (ATTACHMENT_STORE=local|gcs): the api signs uploads and checks the bytes, the
 * ticket-sync worker reads them to send them to Jira (it signs nothing, so its key does not matter).
 */
export function attachmentStoreFromConfig(config: Config): AttachmentStore {
  if (config.ATTACHMENT_STORE === 'gcs') {
    return gcsAttachmentStore({
      bucket: config.ATTACHMENT_BUCKET,
      endpoint: config.ATTACHMENT_GCS_ENDPOINT,
      ...serviceAccountKey(readFileSync(config.ATTACHMENT_GCS_KEY_FILE, 'utf8')),
    });
  }
  return localAttachmentStore({ dir: config.ATTACHMENT_DIR, secret: uploadSigningKey(config) });
}
