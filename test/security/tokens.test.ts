/**
 * Tokens: none forged from public knowledge is accepted. The app here is built from a configuration
 * that sets no JWT_SECRET at all, as a fresh clone runs it: the README's old example key must not work.
 */
import t from 'tap';
import { createHmac, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '@cc/shared/config.ts';
import { buildApp } from '../../api/src/app.ts';
import { testEnv, login, bearer } from '../helper.ts';
import { REDIS_URL } from '../db.ts';

const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
const now = () => Math.floor(Date.now() / 1000);
const adminClaims = () => ({ sub: 'admin@commandcenter.local', claims: null, jti: randomUUID(), iat: now(), exp: now() + 3600 });

function hs256(payload: object, secret: string): string {
  const head = `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64(payload)}`;
  return `${head}.${createHmac('sha256', secret).update(head).digest('base64url')}`;
}

t.test('forged tokens are refused', async (t) => {
  const env = await testEnv(t);
  const dir = mkdtempSync(join(tmpdir(), 'cc-jwt-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  // No JWT_SECRET in the environment: what `make start` on a fresh clone gets.
  const config = loadConfig({
    NODE_ENV: 'development', LOG_LEVEL: 'silent', DATABASE_URL: env.config.DATABASE_URL, REDIS_URL,
    QUEUE_PREFIX: env.config.QUEUE_PREFIX, JWT_SECRET_FILE: join(dir, 'jwt-secret'),
  });
  const app = await buildApp(config, { logger: false });
  t.teardown(() => app.close());
  await app.ready();
  const me = (token: string) => app.inject({ method: 'GET', url: '/v1/auth/me', headers: bearer(token) });

  t.test('a token signed with the once-documented default secret', async (t) => {
    const res = await me(hs256(adminClaims(), 'dev-only-secret-change-me-dev-only-secret'));
    t.equal(res.statusCode, 401);
  });

  t.test('a token signed with the once-documented OIDC client secret', async (t) => {
    t.equal((await me(hs256(adminClaims(), 'commandcenter-local-secret'))).statusCode, 401);
  });

  t.test('alg none', async (t) => {
    const res = await me(`${b64({ alg: 'none', typ: 'JWT' })}.${b64(adminClaims())}.`);
    t.equal(res.statusCode, 401);
  });

  t.test('a real token with its payload altered', async (t) => {
    const token = await login(app, 'alice@acme.example');
    t.equal((await me(token)).statusCode, 200, 'the genuine token works');
    const [head, body, sig] = token.split('.');
    const payload = JSON.parse(Buffer.from(body, 'base64url').toString());
    const altered = `${head}.${b64({ ...payload, sub: 'admin@commandcenter.local' })}.${sig}`;
    t.equal((await me(altered)).statusCode, 401);
  });

  t.test('a genuinely signed token that names no session (as every token did before sessions)', async (t) => {
    const old = app.jwt.sign({ sub: 'admin@commandcenter.local', claims: null }, { expiresIn: '10m', jti: randomUUID() });
    const res = await me(old);
    t.same([res.statusCode, res.json()], [401, { detail: 'Invalid token' }]);
  });

  t.test('a token with its signature cut off', async (t) => {
    const token = await login(app, 'alice@acme.example');
    t.equal((await me(token.slice(0, token.lastIndexOf('.') + 1))).statusCode, 401);
  });
});
