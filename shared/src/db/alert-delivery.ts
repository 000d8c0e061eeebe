/**
 * Alert notice delivery, none lost: a notice is `queued` once its e-mail is recorded in the outbox, and `notified`
 * only when the e-mail was delivered (a trigger on mail_sent, migration 040), never on queueing.
 */
import type { Queryable } from './pool.ts';

/** Ids among `ids` whose e-mail is already queued (durably): an evaluation does not queue them again. */
export async function queuedNoticeIds(db: Queryable, ids: string[]): Promise<Set<string>> {
  const { rows } = await db.query<{ id: string }>('SELECT id::text FROM alert_notice WHERE id = ANY($1::bigint[]) AND queued_at IS NOT NULL', [ids]);
  return new Set(rows.map((r) => r.id));
}

export async function markNoticeQueued(db: Queryable, id: string, recipients: string[]): Promise<void> {
  await db.query('UPDATE alert_notice SET queued_at = now(), recipients = $2 WHERE id = $1 AND queued_at IS NULL', [id, recipients]);
}
