import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Config } from '@cc/shared/config.ts';
import { gcsAttachmentStore, localAttachmentStore, serviceAccountKey, type AttachmentStore } from '@cc/shared/ports/attachment-store.ts';

/** Key of the local upload URL signatures, derived from JWT_SECRET so no second secret must be configured. */
export const uploadSigningKey = (config: Config) => createHash('sha256').update(`ticket-uploads\n${config.JWT_SECRET}`).digest('hex');

/** The configured attachment store (ATTACHMENT_STORE=local|gcs); used by the api and, read-only, by the worker. */
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
