/** The local ticket system (TICKETS=local): issues, comments and attachments kept in PostgreSQL instead of Jira. */
import type { Queryable } from '../pool.ts';

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
