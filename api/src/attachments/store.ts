import { createHash } from 'node:crypto';
import type { Config } from '@cc/shared/config.ts';
import { localAttachmentStore, type AttachmentStore } from '@cc/shared/ports/attachment-store.ts';

/** Key of the local upload URL signatures, derived from JWT_SECRET so no second secret must be configured. */
export const uploadSigningKey = (config: Config) => createHash('sha256').update(`ticket-uploads\n${config.JWT_SECRET}`).digest('hex');

/** The configured attachment store. */
export function attachmentStoreFromConfig(config: Config): AttachmentStore {
  if (config.ATTACHMENT_STORE === 'gcs') throw new Error('ATTACHMENT_STORE=gcs is not built yet (see docs/decisions-tickets.md)');
  return localAttachmentStore({ dir: config.ATTACHMENT_DIR, secret: uploadSigningKey(config) });
}
