/**
 * Sync bookkeeping of the ticket-sync job: what is still to write to the system of record, what it answered,
 * the pull cursor and webhook deliveries.
 */
import type { Queryable } from '../pool.ts';
import { findTicket, isUuid, SELECT_TICKET, type TicketRow } from './read.ts';
import { setFirstResponse } from './write.ts';
import type { CommentRow } from './comments.ts';
import type { AttachmentRow } from './attachments.ts';

export async function findTicketById(db: Queryable, id: string): Promise<TicketRow | null> {
  if (!isUuid(id)) return null;
  return findTicket(db, id);
}

export async function markCreated(db: Queryable, id: string, jiraKey: string): Promise<void> {
  await db.query('UPDATE ticket SET jira_key = $2, jira_create_sent_at = NULL WHERE id = $1 AND jira_key IS NULL', [id, jiraKey]);
}

/** An issue create is about to be sent: recorded first, so a crash before its answer is recorded is known after. */
export async function markCreateSent(db: Queryable, id: string): Promise<void> {
  // With it, the highest issue number recorded so far: every issue recorded before this create was made before it.
  await db.query(
    `UPDATE ticket SET jira_create_sent_at = now(),
       jira_create_after_number = (SELECT max(substring(jira_key from '-(\\d+)$')::bigint) FROM ticket WHERE jira_key IS NOT NULL)
     WHERE id = $1`,
    [id],
  );
}

/** The create was refused (nothing was made there): the next run may create at once. */
export async function clearCreateSent(db: Queryable, id: string): Promise<void> {
  await db.query('UPDATE ticket SET jira_create_sent_at = NULL WHERE id = $1', [id]);
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

/**
 * A comment written in the system of record; once per remote id. `by_provider`: an engineer's answer (the ticket's
 * first response when it is the earliest), not one of the customer's own users writing there.
 */
export async function insertRemoteComment(
  db: Queryable,
  c: { id: string; ticket_id: string; message: string; author: string; created: string; jira_comment_id: string; by_provider: boolean },
): Promise<boolean> {
  const { rowCount } = await db.query(
    `INSERT INTO ticket_comment (id, ticket_id, message, author, by_provider, created_at, jira_comment_id, sync_state)
     VALUES ($1, $2, $3, $4, $5, $6, $7, 'synced') ON CONFLICT (ticket_id, jira_comment_id) DO NOTHING`,
    [c.id, c.ticket_id, c.message || ' ', c.author, c.by_provider, c.created, c.jira_comment_id],
  );
  if (rowCount === 1) {
    if (c.by_provider) await setFirstResponse(db, c.ticket_id, new Date(c.created), c.author);
    await db.query('UPDATE ticket SET updated_at = GREATEST(updated_at, $2) WHERE id = $1', [c.ticket_id, c.created]);
  }
  return rowCount === 1;
}

/**
 * A comment pulled while public and since made internal in the system of record (an internal note, a group or role
 * restriction): it leaves the portal, and the ticket's first response is the earliest provider comment left (none:
 * unanswered again). `tx`: both writes in one transaction, so the ticket never counts a response the portal no longer shows.
 */
export async function withdrawRemoteComment(tx: Queryable, ticketId: string, jiraCommentId: string): Promise<boolean> {
  const { rows } = await tx.query<{ by_provider: boolean }>('DELETE FROM ticket_comment WHERE ticket_id = $1 AND jira_comment_id = $2 RETURNING by_provider', [ticketId, jiraCommentId]);
  if (rows.length === 0) return false;
  if (rows[0].by_provider) {
    await tx.query(
      `UPDATE ticket SET (first_response_at, first_response_by) =
         (SELECT created_at, author FROM ticket_comment WHERE ticket_id = $1 AND by_provider ORDER BY created_at, id LIMIT 1)
       WHERE id = $1`,
      [ticketId],
    );
  }
  return true;
}

/** The system's ids of the comments already stored for the ticket (a pull skips them before any other work). */
export async function storedRemoteCommentIds(db: Queryable, ticketId: string): Promise<Set<string>> {
  const { rows } = await db.query<{ id: string }>('SELECT jira_comment_id AS id FROM ticket_comment WHERE ticket_id = $1 AND jira_comment_id IS NOT NULL', [ticketId]);
  return new Set(rows.map((r) => r.id));
}

/** True when `email` is one of the customer's own users (its access list, admins excepted: they are the provider). */
export async function isCustomerUser(db: Queryable, customerId: string, email: string): Promise<boolean> {
  const { rows } = await db.query(
    `SELECT 1 FROM customer_member m LEFT JOIN app_user u ON u.id = m.user_id
      WHERE m.customer_id = $1 AND m.list = 'users' AND m.user_id = lower($2) AND u.role IS DISTINCT FROM 'admin'`,
    [customerId, email],
  );
  return rows.length > 0;
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
