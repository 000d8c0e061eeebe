import { Readable } from 'node:stream';
import SMTPConnection from 'nodemailer/lib/smtp-connection';
import MailComposer from 'nodemailer/lib/mail-composer';
import { parseConnectionUrl } from 'nodemailer/lib/shared';
import type { Mailer, OutgoingMail, SendHooks } from '../../ports/mailer.ts';

/**
 * The message body as a stream that ends only after `beforeEndOfData` resolved. nodemailer reads it only after the
 * server's 354 and writes the end-of-data mark when it ends, so the hook runs between the last byte of the body
 * and the mark: the one point after which the server may hold the message whatever happens to this process.
 */
function bodyThenHook(raw: Buffer, hooks: SendHooks | undefined): Readable {
  let pushed = false;
  return new Readable({
    read() {
      if (!pushed) {
        pushed = true;
        this.push(raw);
        return;
      }
      const before = hooks?.beforeEndOfData ? hooks.beforeEndOfData() : Promise.resolve();
      before.then(() => this.push(null), (err: unknown) => this.destroy(err instanceof Error ? err : new Error(String(err))));
    },
  });
}

const call = <T>(fn: (cb: (err: Error | null | undefined, v?: T) => void) => void) =>
  new Promise<T>((resolve, reject) => fn((err, v) => (err ? reject(err) : resolve(v as T))));

/**
 * Sends through any SMTP server (the real relay, or the local one): one connection per message, nodemailer's
 * SMTP client, the MIME message built by nodemailer's composer.
 */
export function smtpMailer(smtpUrl: string, from: string): Mailer {
  const options = parseConnectionUrl(smtpUrl);
  return {
    async send(mail: OutgoingMail, hooks?: SendHooks) {
      const node = new MailComposer({ from, to: mail.to, subject: mail.subject, text: mail.text, html: mail.html, messageId: mail.messageId }).compile();
      const raw = await call<Buffer>((cb) => node.build(cb));
      const envelope = node.getEnvelope();
      const conn = new SMTPConnection({ ...options, connectionTimeout: 30_000, socketTimeout: 60_000 });
      conn.on('error', () => undefined); // reported through the callbacks below
      try {
        await call<void>((cb) => conn.connect((err) => cb(err)));
        if (options.auth) await call<void>((cb) => conn.login(options.auth as SMTPConnection.Credentials, (err) => cb(err)));
        const info = await call<SMTPConnection.SentMessageInfo>((cb) => conn.send({ from: envelope.from || from, to: envelope.to }, bodyThenHook(raw, hooks), cb));
        conn.quit();
        return { accepted: info.accepted.map((a) => String(a)) };
      } catch (err) {
        conn.close();
        throw err;
      }
    },
    async close() {},
  };
}
