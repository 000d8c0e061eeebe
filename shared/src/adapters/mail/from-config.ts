/**
 * The mailer MAIL names. Both modes send over SMTP (smtp-mailer.ts): `real` to SMTP_URL; `local` to the local mail
 * server (local-smtp.ts), which keeps every message in PostgreSQL and is served once per machine, so a send cut
 * short by a crash is checked there instead of being guessed.
 */
import type { Config } from '../../config.ts';
import type { Pool } from '../../db/pool.ts';
import { localMailHas } from '../../db/mail.ts';
import type { Mailer } from '../../ports/mailer.ts';
import { localSmtp } from './local-smtp.ts';
import { smtpMailer } from './smtp-mailer.ts';

export interface ConfiguredMailer {
  mailer: Mailer;
  /** Closes the mailer's connection and, when this process serves it, the local mail server. */
  close(): Promise<void>;
}

export async function mailerFromConfig(
  config: Pick<Config, 'MAIL' | 'SMTP_URL' | 'LOCAL_SMTP_PORT' | 'MAIL_FROM' | 'MAIL_RESEND_UNCERTAIN'>,
  pool: Pool,
  /** False in a process that sends no mail (a worker without the notify queue): it does not start the local server. */
  sends = true,
): Promise<ConfiguredMailer> {
  const server = config.MAIL === 'local' && sends ? await localSmtp(pool, config.LOCAL_SMTP_PORT) : null;
  const relay = smtpMailer(server ? `smtp://127.0.0.1:${server.port}` : config.SMTP_URL, config.MAIL_FROM);
  const mailer: Mailer = server
    ? { ...relay, wasDelivered: (messageId: string) => localMailHas(pool, messageId) }
    : { ...relay, resendUncertain: config.MAIL_RESEND_UNCERTAIN === 'true' };
  return {
    mailer,
    close: async () => {
      await mailer.close();
      await server?.close();
    },
  };
}

/** The local mail server's own process (workers/src/mail/main.ts) starts it, or finds it served already. */
export { localSmtp } from './local-smtp.ts';
