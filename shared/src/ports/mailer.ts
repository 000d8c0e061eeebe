/** Port for sending e-mail; the notify queue is its only user. */
export interface OutgoingMail {
  to: string[];
  subject: string;
  text: string;
  html?: string;
  /** Stable Message-ID so a retried send is recognisable as the same message. */
  messageId: string;
}

export interface Mailer {
  send(mail: OutgoingMail): Promise<{ accepted: string[] }>;
  /**
   * Whether the receiving server already holds a message of this Message-ID, when the adapter can tell (the local
   * SMTP server keeps its mail in PostgreSQL); a relay cannot, and then an uncertain attempt is sent again.
   */
  wasDelivered?(messageId: string): Promise<boolean>;
  close(): Promise<void>;
}
