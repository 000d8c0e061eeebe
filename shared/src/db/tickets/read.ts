/**
 * Tickets, the local read view: rows, ticket lookup by id or Jira key, and a customer's page of tickets.
 * The other ticket repositories sit beside this one (write, comments, attachments, sync, local).
 */
import type { Queryable } from '../pool.ts';

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (s: string) => UUID_RE.test(s);

export interface TicketRow {
  id: string;
  customer_id: string;
  customer_name: string;
  jira_key: string | null;
  /** An issue create was sent at this time and its outcome is unknown (cleared once the key is recorded). */
  jira_create_sent_at: Date | null;
  /** The highest issue number recorded when that create was sent (migration 085). */
  jira_create_after_number: string | null;
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

/** Ticket columns plus the customer's name; the sync repository reads tickets through it too. */
export const SELECT_TICKET = `
  SELECT t.*, c.customer_name
    FROM ticket t JOIN customer c ON c.customer_id = t.customer_id`;

/** `key` is the ticket id (UUID) or its Jira key. */
const keyWhere = (key: string) => (isUuid(key) ? 't.id = $1::uuid' : 't.jira_key = $1');

/** The customer of the ticket `key` names, or null when no such ticket: the tenant guard's resolver. */
export async function findTicketCustomer(db: Queryable, key: string): Promise<string | null> {
  const { rows } = await db.query<{ customer_id: string }>(`SELECT t.customer_id FROM ticket t WHERE ${keyWhere(key)}`, [key]);
  return rows[0]?.customer_id ?? null;
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
