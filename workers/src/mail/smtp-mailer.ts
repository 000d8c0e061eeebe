import nodemailer from 'nodemailer';
import type { Mailer, OutgoingMail } from '@cc/shared/ports/mailer.ts';

/** Sends through any SMTP server (the real relay, or the local one) with nodemailer. */
export function smtpMailer(smtpUrl: string, from: string): Mailer {
  const transport = nodemailer.createTransport(smtpUrl);
  return {
    async send(mail: OutgoingMail) {
      const info = await transport.sendMail({ from, to: mail.to, subject: mail.subject, text: mail.text, html: mail.html, messageId: mail.messageId });
      return { accepted: (info.accepted as (string | { address: string })[]).map((a) => (typeof a === 'string' ? a : a.address)) };
    },
    async close() {
      transport.close();
    },
  };
}
