/**
 * Ticket writes: create, field changes that the ticket-sync job pushes (each bumps `local_version`), and the
 * Last Modified / first-response stamps. Callers own the transaction and pass `tx`.
 */
import type { Queryable } from '../pool.ts';

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
