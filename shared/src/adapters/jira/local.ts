/**
 * The local ticket system (TICKETS=local, the default): what Jira would hold, kept in PostgreSQL, so the whole
 * ticket flow (queue, sync, pull) runs offline exactly as with Jira. Keys are `{JIRA_PROJECT}-{n}`.
 */
import type { Pool } from '../../db/pool.ts';
import {
  localAddAttachment,
  localAddComment,
  localCreateIssue,
  localDeleteAttachment,
  localFindIssueByLabel,
  localGetIssue,
  localListAttachments,
  localListComments,
  localSearchUpdated,
  localUpdateIssue,
  type LocalIssueRow,
} from '../../db/tickets/local.ts';
import type { RemoteIssue, TicketSystem } from '../../ports/ticket-system.ts';
import { isTicketPriority } from '../../tickets/rules.ts';

const PAGE = 50;

export function localTicketSystem(pool: Pool, opts: { project: string; author?: string }): TicketSystem {
  const author = opts.author ?? 'commandcenter';
  const toRemote = async (row: LocalIssueRow): Promise<RemoteIssue> => ({
    key: row.key,
    summary: row.summary,
    description: row.description,
    status: row.status,
    priority: isTicketPriority(row.priority) ? row.priority : null,
    assignee: row.assignee,
    labels: row.labels,
    satisfaction: row.satisfaction_score,
    created: row.created.toISOString(),
    updated: row.updated.toISOString(),
    attachments: (await localListAttachments(pool, row.key)).map((a) => ({
      id: a.id,
      filename: a.filename,
      mimeType: a.mime_type,
      size: a.size,
      created: a.created.toISOString(),
    })),
  });
  return {
    name: 'local',
    async findIssueByLabel(label) {
      const row = await localFindIssueByLabel(pool, label);
      return row ? toRemote(row) : null;
    },
    async createIssue(issue) {
      return { key: await localCreateIssue(pool, opts.project, issue) };
    },
    async getIssue(key) {
      const row = await localGetIssue(pool, key);
      return row ? toRemote(row) : null;
    },
    async *searchUpdatedSince(since) {
      let after: { updated: Date; id: string } | null = null;
      for (;;) {
        const rows = await localSearchUpdated(pool, since, after, PAGE);
        for (const row of rows) yield await toRemote(row);
        if (rows.length < PAGE) return;
        const last = rows[rows.length - 1];
        after = { updated: last.updated, id: last.id };
      }
    },
    async listComments(key) {
      return (await localListComments(pool, key)).map((c) => ({ id: c.id, body: c.body, author: c.author, created: c.created.toISOString(), marker: c.marker }));
    },
    async addComment(key, comment) {
      const c = await localAddComment(pool, key, { body: comment.body, author, marker: comment.marker });
      return { id: c.id, body: c.body, author: c.author, created: c.created.toISOString(), marker: c.marker };
    },
    async transitionTo(key, status) {
      await localUpdateIssue(pool, key, { status });
    },
    async setPriority(key, priority) {
      await localUpdateIssue(pool, key, { priority });
    },
    async setSatisfaction(key, score) {
      await localUpdateIssue(pool, key, { satisfaction_score: score });
    },
    async addAttachment(key, file) {
      const a = await localAddAttachment(pool, key, file);
      return { id: a.id, filename: a.filename, mimeType: a.mime_type, size: a.size, created: a.created.toISOString() };
    },
    async deleteAttachment(id) {
      await localDeleteAttachment(pool, id);
    },
  };
}
