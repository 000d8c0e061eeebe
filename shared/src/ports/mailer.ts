/** Port for sending e-mail; the notify queue is its only user. */
export interface OutgoingMail {
  to: string[];
  subject: string;
  text: string;
  html?: string;
  /** Stable Message-ID so a retried send is recognisable as the same message. */
  messageId: string;
}

export interface SendHooks {
  /**
   * Called once the whole message has been handed to the SMTP server and before the end-of-data mark (the final
   * `.`) goes out; the mark waits for it. Until then the server can hold no copy (RFC 5321 §4.1.1.4: a message
   * without its end-of-data mark is discarded), so a crash before this point is safe to send again.
   */
  beforeEndOfData?(): Promise<void>;
}

export interface Mailer {
  send(mail: OutgoingMail, hooks?: SendHooks): Promise<{ accepted: string[] }>;
  /**
   * Whether the receiving server already holds a message of this Message-ID, when the adapter can tell (the local
   * SMTP server keeps its mail in PostgreSQL); a relay cannot, and then an uncertain attempt is not sent again
   * unless MAIL_RESEND_UNCERTAIN (workers/src/jobs/notify.ts).
   */
  wasDelivered?(messageId: string): Promise<boolean>;
  /** When the adapter cannot tell: send an uncertain attempt again (true, at least once) or count it as sent. */
  resendUncertain?: boolean;
  close(): Promise<void>;
}
