/**
 * The local mail server (MAIL=local) as its own process: `make start` runs it once, and every worker on the machine
 * sends to it (local-smtp.ts). Exits 0 when another process already serves it on LOCAL_SMTP_PORT.
 */
import { loadConfigOrExit } from '@cc/shared/config.ts';
import { createPool } from '@cc/shared/db/pool.ts';
import { createLogger } from '@cc/shared/logger.ts';
import { localSmtp } from '@cc/shared/adapters/mail/from-config.ts';

const config = loadConfigOrExit();

const log = createLogger(config.LOG_LEVEL, { process: 'mail' });
const pool = createPool(config.DATABASE_URL, 2);
const smtp = await localSmtp(pool, config.LOCAL_SMTP_PORT);
if (!smtp.own) {
  log.info({ port: smtp.port }, 'local mail server already running in another process');
  await pool.end();
  process.exit(0);
}
log.info({ port: smtp.port }, 'local mail server started');

const shutdown = async () => {
  await smtp.close();
  await pool.end();
  process.exit(0);
};
process.once('SIGINT', () => void shutdown());
process.once('SIGTERM', () => void shutdown());
