import type { Queryable } from '@cc/shared/db/pool.ts';
import { findUpload } from '@cc/shared/db/tickets/attachments.ts';
import { GENERATED_NAME_RE, displayName, type AttachmentStore } from '@cc/shared/ports/attachment-store.ts';
import { detectFileType } from '@cc/shared/tickets/file-type.ts';
import { LIMITS, TICKET_MESSAGES } from '@cc/shared/tickets/rules.ts';
import { errors } from '../errors.ts';

export interface CheckedUpload {
  generated_name: string;
  file_name: string;
  mime_type: string;
  size: number;
}

/** What the bytes are, or a 400: empty, over 5,000,000 bytes, or not an accepted type (by content). */
export function checkFileBytes(bytes: Buffer, name: string): string {
  if (bytes.length === 0) throw new errors.badRequest(`${name}: ${TICKET_MESSAGES.attachmentEmpty}`);
  if (bytes.length > LIMITS.attachmentBytes) throw new errors.badRequest(`${name}: ${TICKET_MESSAGES.attachmentTooLarge}`);
  const mime = detectFileType(bytes);
  if (!mime) throw new errors.badRequest(`${name}: ${TICKET_MESSAGES.attachmentType}`);
  return mime;
}

/**
 * Checks uploads named by generated name before they are attached (inside the caller's transaction, rows locked):
 * issued to this caller, uploaded, not attached yet, and bytes that pass the size and type rules.
 */
export async function checkUploads(tx: Queryable, store: AttachmentStore, names: string[], caller: string): Promise<CheckedUpload[]> {
  if (new Set(names).size !== names.length) throw new errors.badRequest('The same file is attached twice');
  const out: CheckedUpload[] = [];
  for (const name of names) {
    const upload = GENERATED_NAME_RE.test(name) ? await findUpload(tx, name, { forUpdate: true }) : null;
    // someone else's upload is reported like a missing one
    if (!upload || upload.issued_to !== caller) throw new errors.badRequest(`Unknown upload ${name}`);
    if (upload.attached_to) throw new errors.badRequest(`${upload.file_name}: the file is already attached`);
    const bytes = await store.get(name);
    if (!bytes) throw new errors.badRequest(`${upload.file_name}: the file has not been uploaded`);
    const mime = checkFileBytes(bytes, upload.file_name);
    out.push({ generated_name: name, file_name: upload.file_name || displayName(name), mime_type: mime, size: bytes.length });
  }
  return out;
}
