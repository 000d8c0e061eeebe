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

/** The record of one e-mail to send (migration 040): written before the first SMTP attempt. */
export interface MailIntent {
  id: string;
  attempts: number;
  sent_at: Date | null;
  /** The last attempt handed the whole message over (see markIntentData). */
  data_at: Date | null;
  uncertain_at: Date | null;
}

/** The intent of `key`, created on first sight; the same key always gives the same intent (and Message-ID). */
export async function openMailIntent(db: Queryable, m: { key: string; recipients: string[]; subject: string }): Promise<MailIntent> {
  const { rows } = await db.query<MailIntent>(
    `INSERT INTO mail_intent (key, recipients, subject) VALUES ($1, $2, $3)
     ON CONFLICT (key) DO UPDATE SET key = EXCLUDED.key
     RETURNING id, attempts, sent_at, data_at, uncertain_at`,
    [m.key, m.recipients, m.subject],
  );
  return rows[0];
}

/** Recorded before the SMTP transaction: a new attempt has not handed anything over yet. */
export async function startMailAttempt(db: Queryable, id: string): Promise<void> {
  await db.query('UPDATE mail_intent SET attempts = attempts + 1, attempted_at = now(), data_at = NULL WHERE id = $1', [id]);
}

/**
 * Recorded after the last byte of the message and before its end-of-data mark: from here until markIntentSent the
 * outcome is uncertain (the server may hold the message), before it the server cannot.
 */
export async function markIntentData(db: Queryable, id: string): Promise<void> {
  await db.query('UPDATE mail_intent SET data_at = now() WHERE id = $1', [id]);
}

/** A retry met an uncertain attempt and counted it as sent (MAIL_RESEND_UNCERTAIN=false). */
export async function markIntentUncertain(db: Queryable, id: string): Promise<void> {
  await db.query('UPDATE mail_intent SET uncertain_at = COALESCE(uncertain_at, now()) WHERE id = $1', [id]);
}

/** After the SMTP server's 250 (or after the receiving store confirmed it holds the message). */
export async function markIntentSent(db: Queryable, id: string, accepted: string[]): Promise<void> {
  await db.query('UPDATE mail_intent SET sent_at = COALESCE(sent_at, now()), accepted = $2 WHERE id = $1', [id, accepted]);
}

/** Whether the local SMTP server (MAIL=local) stored a message of this Message-ID. */
export async function localMailHas(db: Queryable, messageId: string): Promise<boolean> {
  const { rowCount } = await db.query('SELECT 1 FROM mail_message WHERE message_id = $1 LIMIT 1', [messageId]);
  return (rowCount ?? 0) > 0;
}
