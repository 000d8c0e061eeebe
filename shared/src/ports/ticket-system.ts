/**
 * Port of the ticket system of record: Jira Cloud (shared/src/adapters/jira/real.ts) or the local ticket
 * system in PostgreSQL (shared/src/adapters/jira/local.ts). Only the ticket-sync job calls it; the screens read
 * the local `ticket` rows it keeps current.
 *
 * Every write is safe to repeat after a crash between "done there" and "recorded here": issues are found again by
 * their label, comments by their marker, attachments by their (unique) file name.
 */
import type { TicketPriority } from '../tickets/rules.ts';

export interface RemoteAttachment {
  id: string;
  filename: string;
  mimeType: string;
  size: number;
  created: string;
}

export interface RemoteIssue {
  key: string;
  summary: string;
  description: string;
  /** Status name as the system names it (the portal's names: Open, In Progress, Resolved, Closed, Cancel). */
  status: string;
  /** The portal priority, or null when the system holds one the portal does not map. */
  priority: TicketPriority | null;
  assignee: string | null;
  labels: string[];
  satisfaction: number | null;
  created: string;
  updated: string;
  attachments: RemoteAttachment[];
}

export interface RemoteComment {
  id: string;
  body: string;
  author: string;
  created: string;
  /** The portal's id of the comment when the portal wrote it; null for comments written in the system itself. */
  marker: string | null;
  /** The author's e-mail where the system shows it (Jira: as the user's privacy settings allow); else absent or null. */
  authorEmail?: string | null;
  /** The system knows the author as a customer of the service desk (Jira Service Management's 'customer' accounts). */
  authorIsCustomer?: boolean;
  /**
   * Hidden from the customer in the system itself (Jira: a service desk internal note, `jsdPublic: false`, or a
   * comment restricted to a group or project role, `visibility`). The portal never shows, notifies or counts it.
   */
  internal?: boolean;
}

export interface NewIssue {
  summary: string;
  description: string;
  priority: TicketPriority;
  labels: string[];
}

export interface TicketSystem {
  readonly name: 'jira' | 'local';
  /**
   * The issue carrying `label`, if any (check-before-create). `reconcile` names issue ids that must be seen even if
   * the system's search has not caught up with them yet (Jira's `reconcileIssues`).
   */
  findIssueByLabel(label: string, opts?: { reconcile?: string[] }): Promise<RemoteIssue | null>;
  /** `id` is the system's own id of the new issue, when it has one besides the key. */
  createIssue(issue: NewIssue): Promise<{ key: string; id?: string }>;
  /**
   * The issue of `label` among those numbered above `afterNumber`, read one by one by key (not through search, so
   * an index however far behind does not hide it); null when none is. Systems without search lag leave it out.
   */
  findCreatedAfter?(label: string, afterNumber: number): Promise<RemoteIssue | null>;
  getIssue(key: string): Promise<RemoteIssue | null>;
  /** Issues updated at or after `since`, oldest first, page by page. */
  searchUpdatedSince(since: Date): AsyncGenerator<RemoteIssue>;
  listComments(key: string): Promise<RemoteComment[]>;
  addComment(key: string, comment: { body: string; marker: string }): Promise<RemoteComment>;
  /** Moves the issue to `status` (no-op when it is there already). */
  transitionTo(key: string, status: string): Promise<void>;
  setPriority(key: string, priority: TicketPriority): Promise<void>;
  setSatisfaction(key: string, score: number): Promise<void>;
  addAttachment(key: string, file: { filename: string; mimeType: string; content: Buffer }): Promise<RemoteAttachment>;
  deleteAttachment(id: string): Promise<void>;
}

/** The label that ties a Jira issue to the portal's ticket id (check-before-create on retried creates). */
export const ticketLabel = (ticketId: string) => `cc-${ticketId}`;
export const ticketIdFromLabels = (labels: string[]): string | null => {
  const l = labels.find((x) => /^cc-[0-9a-f-]{36}$/.test(x));
  return l ? l.slice(3) : null;
};
