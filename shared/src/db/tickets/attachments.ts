/**
 * Ticket attachments and the uploads waiting to be attached (a signed URL per file, used once).
 */
import type { Queryable } from '../pool.ts';
import { isUuid } from './read.ts';

export interface AttachmentRow {
  id: string;
  ticket_id: string;
  file_name: string;
  stored_name: string;
  mime_type: string;
  size: number;
  author: string;
  created_at: Date;
  deleted_at: Date | null;
  jira_attachment_id: string | null;
}

export interface UploadRow {
  generated_name: string;
  file_name: string;
  issued_to: string;
  expires_at: Date;
  uploaded_at: Date | null;
  attached_to: string | null;
}

export async function listAttachments(db: Queryable, ticketId: string): Promise<AttachmentRow[]> {
  const { rows } = await db.query<AttachmentRow>(
    'SELECT *, size::float8 AS size FROM ticket_attachment WHERE ticket_id = $1 AND deleted_at IS NULL ORDER BY created_at, id',
    [ticketId],
  );
  return rows;
}

export async function countAttachments(db: Queryable, ticketId: string): Promise<number> {
  const { rows } = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM ticket_attachment WHERE ticket_id = $1 AND deleted_at IS NULL', [ticketId]);
  return rows[0].n;
}

export async function findAttachment(db: Queryable, ticketId: string, attachmentId: string): Promise<AttachmentRow | null> {
  if (!isUuid(attachmentId)) return null;
  const { rows } = await db.query<AttachmentRow>(
    'SELECT *, size::float8 AS size FROM ticket_attachment WHERE id = $1 AND ticket_id = $2 AND deleted_at IS NULL',
    [attachmentId, ticketId],
  );
  return rows[0] ?? null;
}

export async function insertAttachment(
  tx: Queryable,
  a: { id: string; ticket_id: string; file_name: string; stored_name: string; mime_type: string; size: number; author: string },
): Promise<void> {
  await tx.query(
    // clock_timestamp, not now(): files attached in one transaction keep the order they were given in
    `INSERT INTO ticket_attachment (id, ticket_id, file_name, stored_name, mime_type, size, author, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, clock_timestamp())`,
    [a.id, a.ticket_id, a.file_name, a.stored_name, a.mime_type, a.size, a.author],
  );
  await tx.query('UPDATE ticket_upload SET attached_to = $2 WHERE generated_name = $1', [a.stored_name, a.ticket_id]);
}

export async function softDeleteAttachment(tx: Queryable, attachmentId: string): Promise<void> {
  await tx.query(`UPDATE ticket_attachment SET deleted_at = now(), sync_state = 'pending' WHERE id = $1`, [attachmentId]);
}

export async function insertUpload(db: Queryable, u: { generated_name: string; file_name: string; issued_to: string; expires_at: Date }): Promise<void> {
  await db.query('INSERT INTO ticket_upload (generated_name, file_name, issued_to, expires_at) VALUES ($1, $2, $3, $4)', [
    u.generated_name,
    u.file_name,
    u.issued_to,
    u.expires_at,
  ]);
}

/** Locks the upload row: one attach at a time per file. */
export async function findUpload(db: Queryable, generatedName: string, opts: { forUpdate?: boolean } = {}): Promise<UploadRow | null> {
  const { rows } = await db.query<UploadRow>(
    `SELECT generated_name, file_name, issued_to, expires_at, uploaded_at, attached_to FROM ticket_upload WHERE generated_name = $1${opts.forUpdate ? ' FOR UPDATE' : ''}`,
    [generatedName],
  );
  return rows[0] ?? null;
}

/** Marks the upload received; false when it already was (a signed URL is used once). */
export async function markUploaded(db: Queryable, generatedName: string, size: number, mime: string): Promise<boolean> {
  const { rowCount } = await db.query(
    'UPDATE ticket_upload SET uploaded_at = now(), size = $2, mime_type = $3 WHERE generated_name = $1 AND uploaded_at IS NULL',
    [generatedName, size, mime],
  );
  return rowCount === 1;
}
