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
  close(): Promise<void>;
}
