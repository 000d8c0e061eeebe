import t from 'tap';
import { join } from 'node:path';
import { loadConfig, readEnvironment, ConfigError } from './config.ts';

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

t.test('.env is read under the environment: the environment wins', async (t) => {
  const dir = t.testdir({ '.env': 'PORT=9090\nLOG_LEVEL=debug\n# a comment\nMAIL_FROM="Ops <ops@example.com>"\n' });
  const env = readEnvironment(join(dir, '.env'), { PORT: '7070' });
  t.equal(env.PORT, '7070');
  t.equal(env.LOG_LEVEL, 'debug');
  const c = loadConfig(env);
  t.equal(c.PORT, 7070);
  t.equal(c.LOG_LEVEL, 'debug');
  t.equal(c.MAIL_FROM, 'Ops <ops@example.com>');
});

t.test('no .env file: only the environment', async (t) => {
  const dir = t.testdir({});
  t.same(readEnvironment(join(dir, '.env'), { PORT: '7070' }), { PORT: '7070' });
});

t.test('the api listens on loopback unless HOST says otherwise', async (t) => {
  t.equal(loadConfig({}).HOST, '127.0.0.1');
  t.equal(loadConfig({ HOST: '0.0.0.0' }).HOST, '0.0.0.0');
});

t.test('no setting hands out a session without a credential', async (t) => {
  t.equal(loadConfig({}).JWT_SECRET, '', 'no signing key in the code: an empty one is generated and kept at start');
  t.equal(loadConfig({}).OIDC_CLIENT_SECRET, '', 'nor a client secret');
  t.throws(() => loadConfig({ JWT_SECRET: 'dev-only-secret-change-me-dev-only-secret' }), /JWT_SECRET is a published example value/);
  t.throws(() => loadConfig({ OIDC_CLIENT_SECRET: 'commandcenter-local-secret' }), /OIDC_CLIENT_SECRET is a published example value/);
  const secret = 'x'.repeat(40);
  t.throws(
    () => loadConfig({ NODE_ENV: 'production', JWT_SECRET: secret }),
    new ConfigError('OIDC=local is the development identity provider and cannot run in production; set OIDC=real with OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET'),
  );
  t.throws(() => loadConfig({ OIDC: 'real', OIDC_ISSUER: 'https://id.example' }), /OIDC_CLIENT_SECRET is required when OIDC=real/);
  const prod = loadConfig({ NODE_ENV: 'production', JWT_SECRET: secret, OIDC: 'real', OIDC_ISSUER: 'https://id.example', OIDC_CLIENT_SECRET: 'from-the-provider', SECRETS_KEY: 's'.repeat(40) });
  t.equal(prod.OIDC, 'real');
});

t.test('monitoring settings: no sealing key in the code, Grafana needs its connection', async (t) => {
  const c = loadConfig({});
  t.equal(c.MONITORING, 'local');
  t.equal(c.SECRETS_KEY, '', 'empty: generated and kept at start (shared/src/secrets-key.ts)');
  t.same(c.SECRETS_KEY_PREVIOUS, []);
  t.throws(() => loadConfig({ SECRETS_KEY: 'short' }), /SECRETS_KEY must be at least 32 characters/);
  t.throws(() => loadConfig({ SECRETS_KEY_PREVIOUS: 'short' }), /SECRETS_KEY_PREVIOUS: every key must be at least 32 characters/);
  const prod = { NODE_ENV: 'production', JWT_SECRET: 'j'.repeat(40), OIDC: 'real', OIDC_ISSUER: 'https://id.example', OIDC_CLIENT_SECRET: 'from-the-provider' };
  t.throws(() => loadConfig(prod), /SECRETS_KEY must be set in production/);
  t.equal(loadConfig({ ...prod, SECRETS_KEY: 'x'.repeat(40) }).SECRETS_KEY, 'x'.repeat(40));
  t.throws(() => loadConfig({ MONITORING: 'grafana' }), /GRAFANA_URL is required when MONITORING=grafana/);
  t.throws(() => loadConfig({ MONITORING: 'grafana', GRAFANA_URL: 'https://grafana.example' }), /GRAFANA_ADMIN_PASSWORD is required/);
  t.throws(() => loadConfig({ GRAFANA_URL: 'ftp://grafana.example' }), /GRAFANA_URL must use http: or https:/);
  const g = loadConfig({ MONITORING: 'grafana', GRAFANA_URL: 'https://grafana.example/', GRAFANA_ADMIN_PASSWORD: 'pw' });
  t.equal(g.GRAFANA_URL, 'https://grafana.example');
  t.equal(g.GRAFANA_PUBLIC_URL, '');
});
