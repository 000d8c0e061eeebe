/** Ticket comments: written locally (and pushed by the sync job), claimed by status changes, listed newest first. */
import type { Queryable } from '../pool.ts';
import { setFirstResponse } from './write.ts';

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
