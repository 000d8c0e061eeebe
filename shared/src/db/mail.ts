import type { Queryable } from './pool.ts';

export interface StoredMail {
  id: string;
  received_at: string;
  message_id: string | null;
  mail_from: string;
  rcpt_to: string[];
  subject: string;
  text_body: string;
  html_body: string;
}

export async function insertMail(db: Queryable, m: Omit<StoredMail, 'id' | 'received_at'> & { raw: string }): Promise<void> {
  await db.query(
    `INSERT INTO mail_message (message_id, mail_from, rcpt_to, subject, text_body, html_body, raw)
     VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [m.message_id, m.mail_from, m.rcpt_to, m.subject, m.text_body, m.html_body, m.raw],
  );
}

/** Newest first; `to` narrows to one recipient. */
export async function listMail(db: Queryable, opts: { to?: string; limit: number; offset: number }): Promise<StoredMail[]> {
  const { rows } = await db.query<StoredMail & { received_at: Date }>(
    `SELECT id, received_at, message_id, mail_from, rcpt_to, subject, text_body, html_body FROM mail_message
      WHERE $1::text IS NULL OR $1 = ANY(rcpt_to) ORDER BY id DESC LIMIT $2 OFFSET $3`,
    [opts.to?.toLowerCase() ?? null, opts.limit, opts.offset],
  );
  return rows.map((r) => ({ ...r, received_at: r.received_at.toISOString() }));
}

export async function wasMailSent(db: Queryable, key: string): Promise<boolean> {
  const { rowCount } = await db.query('SELECT 1 FROM mail_sent WHERE key = $1', [key]);
  return (rowCount ?? 0) > 0;
}

export async function markMailSent(db: Queryable, key: string, recipients: string[]): Promise<void> {
  await db.query('INSERT INTO mail_sent (key, recipients) VALUES ($1, $2) ON CONFLICT DO NOTHING', [key, recipients]);
}
