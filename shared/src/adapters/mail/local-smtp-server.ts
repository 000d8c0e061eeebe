import { SMTPServer } from 'smtp-server';
import { simpleParser } from 'mailparser';
import type { Pool } from '../../db/pool.ts';
import { insertMail } from '../../db/mail.ts';

/**
 * The local mail adapter: a real SMTP server in-process that stores every message in `mail_message`,
 * so e-mail sent through nodemailer can be read by admins (/v1/ops/mail) without the internet.
 */
/** The server's greeting says whose it is, so a process finding the port taken can tell ours from another program. */
export const LOCAL_SMTP_BANNER = 'CommandCenter local mail';

export async function startLocalSmtpServer(pool: Pool, port: number, host = '127.0.0.1'): Promise<{ port: number; close(): Promise<void> }> {
  const server = new SMTPServer({
    banner: LOCAL_SMTP_BANNER,
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    size: 10 * 1024 * 1024,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('error', callback);
      stream.on('end', () => {
        const raw = Buffer.concat(chunks);
        simpleParser(raw)
          .then((parsed) =>
            insertMail(pool, {
              message_id: parsed.messageId ?? null,
              mail_from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
              rcpt_to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
              subject: parsed.subject ?? '',
              text_body: parsed.text ?? '',
              html_body: typeof parsed.html === 'string' ? parsed.html : '',
              raw: raw.toString('utf8'),
            }),
          )
          .then(() => callback(), callback);
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.server.address();
  return {
    port: typeof address === 'object' && address ? address.port : port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
