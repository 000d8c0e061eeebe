import t from 'tap';
import { loadConfig, ConfigError } from './config.ts';

t.test('defaults are valid', async (t) => {
  const c = loadConfig({});
  t.equal(c.PORT, 8080);
  t.equal(c.DATABASE_URL, 'postgres://postgres@127.0.0.1:5432/commandcenter');
  t.same(c.WORKER_QUEUES, []);
});

t.test('bad values name the variable', async (t) => {
  t.throws(() => loadConfig({ PORT: 'eighty' }), new ConfigError("PORT must be an integer between 0 and 65535, got 'eighty'"));
  t.throws(() => loadConfig({ DATABASE_URL: 'mysql://x/y' }), /DATABASE_URL must use postgres: or postgresql:/);
  t.throws(() => loadConfig({ OIDC: 'google' }), /OIDC must be one of local, real/);
  t.throws(() => loadConfig({ OIDC: 'real' }), /OIDC_ISSUER is required/);
  t.throws(() => loadConfig({ JWT_SECRET: 'short' }), /JWT_SECRET must be at least 32 characters/);
  t.throws(() => loadConfig({ NODE_ENV: 'production' }), /JWT_SECRET must be set in production/);
});
