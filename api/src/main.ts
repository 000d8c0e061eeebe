import { loadConfigOrExit } from '@cc/shared/config.ts';
import { buildApp } from './app.ts';
import { redisOutage } from '@cc/shared/redis.ts';
import { withGeneratedSecrets } from './secrets.ts';

const config = loadConfigOrExit(withGeneratedSecrets);

const app = await buildApp(config);
// A Redis outage is logged once when it starts and once when it ends, with the api's logger.
redisOutage.useLogger(app.log);
const close = async (signal: string) => {
  app.log.info({ signal }, 'shutting down');
  await app.close();
  process.exit(0);
};
process.once('SIGINT', () => void close('SIGINT'));
process.once('SIGTERM', () => void close('SIGTERM'));

await app.listen({ host: config.HOST, port: config.PORT });
