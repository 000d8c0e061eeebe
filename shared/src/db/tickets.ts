/**
 * Tickets: the local read view (`ticket`, `ticket_comment`, `ticket_attachment`), uploads waiting to be attached,
 * the sync bookkeeping of the ticket-sync queue, and the local ticket system (`local_issue*`, TICKETS=local).
 * Callers own transactions: writes that must land together take the caller's `tx`.
 */
import type { Queryable } from './pool.ts';

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (s: string) => UUID_RE.test(s);

export interface TicketRow {
  id: string;
  customer_id: string;
  customer_name: string;
  jira_key: string | null;
  summary: string;
  description: string;
  priority: string;
  status: string;
  assignee: string | null;
  created_at: Date;
  created_by: string;
  updated_at: Date;
  updated_by: string | null;
  status_changed_at: Date;
  first_response_at: Date | null;
  first_response_by: string | null;
  satisfaction_score: number | null;
  satisfaction_message: string | null;
  satisfaction_by: string | null;
  satisfaction_at: Date | null;
  local_version: number;
  synced_version: number;
  sync_state: 'pending' | 'synced' | 'failed';
  sync_error: string | null;
}

export interface CommentRow {
  id: string;
  ticket_id: string;
  message: string;
  author: string;
  by_provider: boolean;
  created_at: Date;
  previous_status: string | null;
  current_status: string | null;
  previous_priority: string | null;
  current_priority: string | null;
  jira_comment_id: string | null;
  sync_state: string;
}

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

const SELECT_TICKET = `
  SELECT t.*, c.customer_name
    FROM ticket t JOIN customer c ON c.customer_id = t.customer_id`;

/** `key` is the ticket id (UUID) or its Jira key. */
const keyWhere = (key: string) => (isUuid(key) ? 't.id = $1::uuid' : 't.jira_key = $1');

/** The customer of the ticket `key` names, or null when no such ticket: the tenant guard's resolver. */
export async function findTicketCustomer(db: Queryable, key: string): Promise<string | null> {
  const { rows } = await db.query<{ customer_id: string }>(`SELECT t.customer_id FROM ticket t WHERE ${keyWhere(key)}`, [key]);
  return rows[0]?.customer_id ?? null;
}

/** The customer's support_request flag (spec 000 §6: the Support feature is on for the customer). */
export async function supportEnabled(db: Queryable, customerId: string): Promise<boolean> {
  const { rows } = await db.query<{ on: boolean }>('SELECT support_request AS on FROM customer WHERE customer_id = $1', [customerId]);
  return rows[0]?.on ?? false;
}

export async function findTicket(db: Queryable, key: string, opts: { forUpdate?: boolean } = {}): Promise<TicketRow | null> {
  const sql = opts.forUpdate
    ? `${SELECT_TICKET} WHERE ${keyWhere(key)} FOR UPDATE OF t`
    : `${SELECT_TICKET} WHERE ${keyWhere(key)}`;
  const { rows } = await db.query<TicketRow>(sql, [key]);
  return rows[0] ?? null;
}

/** One page of a customer's tickets, last modified first, and how many the customer has in all. */
export async function listTickets(db: Queryable, customerId: string, page: { limit: number; offset: number }): Promise<{ rows: TicketRow[]; total: number }> {
  const [{ rows }, count] = await Promise.all([
    db.query<TicketRow>(`${SELECT_TICKET} WHERE t.customer_id = $1 ORDER BY t.updated_at DESC, t.id LIMIT $2 OFFSET $3`, [customerId, page.limit, page.offset]),
    db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ticket WHERE customer_id = $1`, [customerId]),
  ]);
  return { rows, total: count.rows[0].n };
}

export interface NewTicketRow {
  id: string;
  customer_id: string;
  summary: string;
  description: string;
  priority: string;
  created_by: string;
}

/** Inserts the ticket unless its id exists; true when this call created it (a retried create answers false). */
export async function insertTicket(tx: Queryable, t: NewTicketRow): Promise<boolean> {
  const { rowCount } = await tx.query(
    `INSERT INTO ticket (id, customer_id, summary, description, priority, created_by, updated_by)
     VALUES ($1, $2, $3, $4, $5, $6, $6) ON CONFLICT (id) DO NOTHING`,
    [t.id, t.customer_id, t.summary, t.description, t.priority, t.created_by],
  );
  return rowCount === 1;
}

/** Records a local change: bumps the version the sync job compares with what it last wrote. */
async function touch(tx: Queryable, id: string, by: string, set: string, params: unknown[]): Promise<void> {
  await tx.query(
    `UPDATE ticket SET ${set ? `${set}, ` : ''}updated_at = now(), updated_by = $2, local_version = local_version + 1, sync_state = 'pending'
      WHERE id = $1`,
    [id, by, ...params],
  );
}

export const updateStatus = (tx: Queryable, id: string, status: string, by: string) =>
  touch(tx, id, by, 'status = $3, status_changed_at = now()', [status]);
export const updatePriority = (tx: Queryable, id: string, priority: string, by: string) => touch(tx, id, by, 'priority = $3', [priority]);
export const saveSatisfaction = (tx: Queryable, id: string, s: { score: number; message: string }, by: string) =>
  touch(tx, id, by, 'satisfaction_score = $3, satisfaction_message = $4, satisfaction_by = $2, satisfaction_at = now()', [s.score, s.message]);

/** A comment, attachment or other change that is not pushed as a field: only the Last Modified moves. */
export async function markTicketUpdated(tx: Queryable, id: string, by: string): Promise<void> {
  await tx.query('UPDATE ticket SET updated_at = now(), updated_by = $2 WHERE id = $1', [id, by]);
}

/** The first answer from the provider is the ticket's first response; later ones do not move it. */
export async function setFirstResponse(tx: Queryable, id: string, at: Date, by: string): Promise<void> {
  await tx.query(
    `UPDATE ticket SET first_response_at = $2, first_response_by = $3
      WHERE id = $1 AND (first_response_at IS NULL OR first_response_at > $2)`,
    [id, at, by],
  );
}

export interface NewCommentRow {
  id: string;
  ticket_id: string;
  message: string;
  author: string;
  by_provider: boolean;
  previous_status?: string | null;
  current_status?: string | null;
  previous_priority?: string | null;
  current_priority?: string | null;
  used_by_change?: boolean;
}

export async function insertComment(tx: Queryable, c: NewCommentRow): Promise<CommentRow> {
  const { rows } = await tx.query<CommentRow>(
    `INSERT INTO ticket_comment (id, ticket_id, message, author, by_provider, previous_status, current_status,
                                 previous_priority, current_priority, used_by_change)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING *`,
    [
      c.id,
      c.ticket_id,
      c.message,
      c.author,
      c.by_provider,
      c.previous_status ?? null,
      c.current_status ?? null,
      c.previous_priority ?? null,
      c.current_priority ?? null,
      c.used_by_change ?? false,
    ],
  );
  if (c.by_provider) await setFirstResponse(tx, c.ticket_id, rows[0].created_at, c.author);
  return rows[0];
}

/**
 * Spec 000 §4 flow: the comment carrying (previous, current) status is posted, then the status is patched.
 * Finds that comment (by the same author, since the last status change, not used yet) and marks it used.
 */
export async function claimStatusComment(tx: Queryable, ticketId: string, author: string, from: string, to: string): Promise<boolean> {
  const { rowCount } = await tx.query(
    `UPDATE ticket_comment SET used_by_change = true
      WHERE id = (SELECT c.id FROM ticket_comment c JOIN ticket t ON t.id = c.ticket_id
                   WHERE c.ticket_id = $1 AND c.author = $2 AND c.previous_status = $3 AND c.current_status = $4
                     AND NOT c.used_by_change AND c.created_at >= t.status_changed_at
                   ORDER BY c.created_at DESC LIMIT 1)`,
    [ticketId, author, from, to],
  );
  return rowCount === 1;
}

/** Newest first (spec 000 §2). */
export async function listComments(db: Queryable, ticketId: string): Promise<CommentRow[]> {
  const { rows } = await db.query<CommentRow>('SELECT * FROM ticket_comment WHERE ticket_id = $1 ORDER BY created_at DESC, id', [ticketId]);
  return rows;
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

/* ---------------------------------------------------------------- sync bookkeeping (ticket-sync job) */

export async function findTicketById(db: Queryable, id: string): Promise<TicketRow | null> {
  if (!isUuid(id)) return null;
  return findTicket(db, id);
}

export async function markCreated(db: Queryable, id: string, jiraKey: string): Promise<void> {
  await db.query('UPDATE ticket SET jira_key = $2 WHERE id = $1 AND jira_key IS NULL', [id, jiraKey]);
}

/** The job wrote every local change up to `version`. */
export async function markSynced(db: Queryable, id: string, version: number): Promise<void> {
  await db.query(
    `UPDATE ticket SET synced_version = GREATEST(synced_version, $2), sync_error = NULL,
            sync_state = CASE WHEN GREATEST(synced_version, $2) >= local_version THEN 'synced' ELSE 'pending' END
      WHERE id = $1`,
    [id, version],
  );
}

export async function markSyncFailed(db: Queryable, id: string, error: string): Promise<void> {
  await db.query(`UPDATE ticket SET sync_state = 'failed', sync_error = $2 WHERE id = $1`, [id, error.slice(0, 2000)]);
}

export async function pendingComments(db: Queryable, ticketId: string): Promise<CommentRow[]> {
  const { rows } = await db.query<CommentRow>(
    'SELECT * FROM ticket_comment WHERE ticket_id = $1 AND jira_comment_id IS NULL ORDER BY created_at, id',
    [ticketId],
  );
  return rows;
}

export async function markCommentSynced(db: Queryable, commentId: string, jiraCommentId: string): Promise<void> {
  await db.query(`UPDATE ticket_comment SET jira_comment_id = $2, sync_state = 'synced' WHERE id = $1`, [commentId, jiraCommentId]);
}

/** Attachments not yet in the system of record (and not deleted), and deleted ones still there. */
export async function attachmentsToSync(db: Queryable, ticketId: string): Promise<{ add: AttachmentRow[]; remove: AttachmentRow[] }> {
  const { rows } = await db.query<AttachmentRow>(
    `SELECT *, size::float8 AS size FROM ticket_attachment
      WHERE ticket_id = $1 AND ((deleted_at IS NULL AND jira_attachment_id IS NULL) OR (deleted_at IS NOT NULL AND sync_state <> 'synced'))
      ORDER BY created_at, id`,
    [ticketId],
  );
  return { add: rows.filter((r) => !r.deleted_at), remove: rows.filter((r) => r.deleted_at) };
}

export async function markAttachmentSynced(db: Queryable, attachmentId: string, jiraAttachmentId: string | null): Promise<void> {
  await db.query(
    `UPDATE ticket_attachment SET jira_attachment_id = COALESCE($2, jira_attachment_id), sync_state = 'synced' WHERE id = $1`,
    [attachmentId, jiraAttachmentId],
  );
}

/** Uploads never attached, a day past their URL's expiry: their rows go, the caller removes the bytes. */
export async function dropAbandonedUploads(db: Queryable): Promise<string[]> {
  const { rows } = await db.query<{ generated_name: string }>(
    `DELETE FROM ticket_upload u
      WHERE u.attached_to IS NULL AND u.expires_at < now() - interval '1 day'
        AND NOT EXISTS (SELECT 1 FROM ticket_attachment a WHERE a.stored_name = u.generated_name)
      RETURNING u.generated_name`,
  );
  return rows.map((r) => r.generated_name);
}

/** Tickets the queue has not finished writing (a lost enqueue is caught up by the periodic pull). */
export async function unsyncedTicketIds(db: Queryable, olderThanSeconds: number): Promise<string[]> {
  const { rows } = await db.query<{ id: string }>(
    `SELECT t.id FROM ticket t
      WHERE (t.sync_state = 'pending' OR t.jira_key IS NULL
             OR EXISTS (SELECT 1 FROM ticket_comment c WHERE c.ticket_id = t.id AND c.jira_comment_id IS NULL)
             OR EXISTS (SELECT 1 FROM ticket_attachment a WHERE a.ticket_id = t.id AND a.sync_state <> 'synced'))
        AND t.sync_state <> 'failed' AND t.updated_at < now() - make_interval(secs => $1)
      ORDER BY t.updated_at LIMIT 100`,
    [olderThanSeconds],
  );
  return rows.map((r) => r.id);
}

export async function findTicketByJiraKey(db: Queryable, key: string): Promise<TicketRow | null> {
  const { rows } = await db.query<TicketRow>(`${SELECT_TICKET} WHERE t.jira_key = $1`, [key]);
  return rows[0] ?? null;
}

/** What the system of record says now; status, priority and satisfaction only when no local change is waiting. */
export async function applyRemoteIssue(
  db: Queryable,
  id: string,
  remote: { key: string; status: string; priority: string | null; assignee: string | null; satisfaction: number | null; updated: string },
  statuses: readonly string[],
): Promise<void> {
  await db.query(
    `UPDATE ticket SET
        jira_key = COALESCE(jira_key, $2),
        assignee = $5,
        status = CASE WHEN local_version = synced_version AND $3 = ANY($8::text[]) AND status <> $3 THEN $3 ELSE status END,
        status_changed_at = CASE WHEN local_version = synced_version AND $3 = ANY($8::text[]) AND status <> $3 THEN now() ELSE status_changed_at END,
        priority = CASE WHEN local_version = synced_version AND $4::text IS NOT NULL THEN $4 ELSE priority END,
        satisfaction_score = CASE WHEN local_version = synced_version AND satisfaction_score IS NULL THEN $6 ELSE satisfaction_score END,
        remote_updated_at = $7,
        updated_at = GREATEST(updated_at, $7)
      WHERE id = $1 AND (remote_updated_at IS NULL OR remote_updated_at <= $7)`,
    [id, remote.key, remote.status, remote.priority, remote.assignee, remote.satisfaction, remote.updated, statuses],
  );
}

/** A comment written in the system of record (an engineer's answer); once per remote id. */
export async function insertRemoteComment(
  db: Queryable,
  c: { id: string; ticket_id: string; message: string; author: string; created: string; jira_comment_id: string },
): Promise<boolean> {
  const { rowCount } = await db.query(
    `INSERT INTO ticket_comment (id, ticket_id, message, author, by_provider, created_at, jira_comment_id, sync_state)
     VALUES ($1, $2, $3, $4, true, $5, $6, 'synced') ON CONFLICT (ticket_id, jira_comment_id) DO NOTHING`,
    [c.id, c.ticket_id, c.message || ' ', c.author, c.created, c.jira_comment_id],
  );
  if (rowCount === 1) {
    await setFirstResponse(db, c.ticket_id, new Date(c.created), c.author);
    await db.query('UPDATE ticket SET updated_at = GREATEST(updated_at, $2) WHERE id = $1', [c.ticket_id, c.created]);
  }
  return rowCount === 1;
}

export async function readCursor(db: Queryable, name: string): Promise<Date | null> {
  const { rows } = await db.query<{ last_updated: Date }>('SELECT last_updated FROM ticket_sync_cursor WHERE name = $1', [name]);
  return rows[0]?.last_updated ?? null;
}

export async function writeCursor(db: Queryable, name: string, lastUpdated: Date): Promise<void> {
  await db.query(
    `INSERT INTO ticket_sync_cursor (name, last_updated) VALUES ($1, $2)
     ON CONFLICT (name) DO UPDATE SET last_updated = GREATEST(ticket_sync_cursor.last_updated, EXCLUDED.last_updated), last_run_at = now()`,
    [name, lastUpdated],
  );
}

/** True the first time a webhook delivery id is seen. */
export async function recordWebhookDelivery(db: Queryable, identifier: string): Promise<boolean> {
  const { rowCount } = await db.query('INSERT INTO ticket_webhook_delivery (identifier) VALUES ($1) ON CONFLICT DO NOTHING', [identifier]);
  return rowCount === 1;
}

/* ---------------------------------------------------------------- the local ticket system (TICKETS=local) */

export interface LocalIssueRow {
  id: string;
  key: string;
  summary: string;
  description: string;
  priority: string;
  status: string;
  labels: string[];
  assignee: string | null;
  satisfaction_score: number | null;
  created: Date;
  updated: Date;
}

export async function localFindIssueByLabel(db: Queryable, label: string): Promise<LocalIssueRow | null> {
  const { rows } = await db.query<LocalIssueRow>('SELECT * FROM local_issue WHERE labels @> ARRAY[$1]::text[] ORDER BY id LIMIT 1', [label]);
  return rows[0] ?? null;
}

export async function localCreateIssue(db: Queryable, project: string, i: { summary: string; description: string; priority: string; labels: string[] }): Promise<string> {
  const { rows } = await db.query<{ key: string }>(
    `WITH n AS (SELECT nextval(pg_get_serial_sequence('local_issue', 'id')) AS id)
     INSERT INTO local_issue (id, key, summary, description, priority, labels)
     SELECT n.id, $1 || '-' || n.id, $2, $3, $4, $5 FROM n RETURNING key`,
    [project, i.summary, i.description, i.priority, i.labels],
  );
  return rows[0].key;
}

export async function localGetIssue(db: Queryable, key: string): Promise<LocalIssueRow | null> {
  const { rows } = await db.query<LocalIssueRow>('SELECT * FROM local_issue WHERE key = $1', [key]);
  return rows[0] ?? null;
}

/** Keyset page of issues updated at or after `since`, oldest first. */
export async function localSearchUpdated(db: Queryable, since: Date, after: { updated: Date; id: string } | null, limit: number): Promise<LocalIssueRow[]> {
  const { rows } = await db.query<LocalIssueRow>(
    `SELECT * FROM local_issue WHERE updated >= $1 AND ($2::timestamptz IS NULL OR (updated, id) > ($2, $3::bigint))
      ORDER BY updated, id LIMIT $4`,
    [since, after?.updated ?? null, after?.id ?? null, limit],
  );
  return rows;
}

export async function localUpdateIssue(db: Queryable, key: string, fields: { status?: string; priority?: string; satisfaction_score?: number }): Promise<void> {
  await db.query(
    `UPDATE local_issue SET status = COALESCE($2, status), priority = COALESCE($3, priority),
            satisfaction_score = COALESCE($4, satisfaction_score), updated = now() WHERE key = $1`,
    [key, fields.status ?? null, fields.priority ?? null, fields.satisfaction_score ?? null],
  );
}

export interface LocalCommentRow {
  id: string;
  body: string;
  author: string;
  marker: string | null;
  created: Date;
}

export async function localListComments(db: Queryable, key: string): Promise<LocalCommentRow[]> {
  const { rows } = await db.query<LocalCommentRow>(
    `SELECT c.id::text, c.body, c.author, c.marker, c.created FROM local_issue_comment c JOIN local_issue i ON i.id = c.issue_id
      WHERE i.key = $1 ORDER BY c.created, c.id`,
    [key],
  );
  return rows;
}

export async function localAddComment(db: Queryable, key: string, c: { body: string; author: string; marker: string }): Promise<LocalCommentRow> {
  const { rows } = await db.query<LocalCommentRow>(
    `WITH i AS (UPDATE local_issue SET updated = now() WHERE key = $1 RETURNING id)
     INSERT INTO local_issue_comment (issue_id, body, author, marker) SELECT i.id, $2, $3, $4 FROM i
     RETURNING id::text, body, author, marker, created`,
    [key, c.body, c.author, c.marker],
  );
  if (!rows[0]) throw new Error(`local issue ${key} does not exist`);
  return rows[0];
}

export interface LocalAttachmentRow {
  id: string;
  filename: string;
  mime_type: string;
  size: number;
  created: Date;
}

export async function localListAttachments(db: Queryable, key: string): Promise<LocalAttachmentRow[]> {
  const { rows } = await db.query<LocalAttachmentRow>(
    `SELECT a.id::text, a.filename, a.mime_type, a.size::float8 AS size, a.created FROM local_issue_attachment a
       JOIN local_issue i ON i.id = a.issue_id WHERE i.key = $1 ORDER BY a.id`,
    [key],
  );
  return rows;
}

export async function localAddAttachment(db: Queryable, key: string, f: { filename: string; mimeType: string; content: Buffer }): Promise<LocalAttachmentRow> {
  const { rows } = await db.query<LocalAttachmentRow>(
    `WITH i AS (UPDATE local_issue SET updated = now() WHERE key = $1 RETURNING id)
     INSERT INTO local_issue_attachment (issue_id, filename, mime_type, size, content) SELECT i.id, $2, $3, $4, $5 FROM i
     RETURNING id::text, filename, mime_type, size::float8 AS size, created`,
    [key, f.filename, f.mimeType, f.content.length, f.content],
  );
  if (!rows[0]) throw new Error(`local issue ${key} does not exist`);
  return rows[0];
}

export async function localDeleteAttachment(db: Queryable, id: string): Promise<void> {
  if (!/^\d+$/.test(id)) return;
  await db.query(
    `WITH a AS (DELETE FROM local_issue_attachment WHERE id = $1 RETURNING issue_id)
     UPDATE local_issue SET updated = now() WHERE id IN (SELECT issue_id FROM a)`,
    [id],
  );
}
