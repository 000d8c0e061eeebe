import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import formbody from '@fastify/formbody';
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { exportJWK, generateKeyPair, SignJWT, type JWK } from 'jose';

/**
 * A small OpenID Connect provider served in-process (OIDC=local): discovery, authorize (a page where
 * the developer types the e-mail to sign in as, and whether the provider calls it verified), token
 * (authorization code + PKCE S256), JWKS and userinfo. The api talks to it with openid-client exactly
 * as it talks to a real provider. Codes live in memory: one process, one developer, one minute.
 */
export interface LocalProviderOptions {
  issuer: string;
  clientId: string;
  clientSecret: string;
}

interface PendingCode {
  email: string;
  emailVerified: boolean;
  nonce?: string;
  codeChallenge?: string;
  redirectUri: string;
  expires: number;
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const policy = { permission: 'public', tenant: 'none' } as const;
const hidden = { hide: true };
const opt = Type.Optional(Type.String());
const AuthorizeQuery = Type.Object({
  client_id: opt, response_type: opt, redirect_uri: opt, state: opt, nonce: opt, code_challenge: opt, code_challenge_method: opt, scope: opt,
});
const AuthorizeForm = Type.Object({
  email: opt, email_verified: opt, redirect_uri: opt, state: opt, nonce: opt, code_challenge: opt, code_challenge_method: opt,
});
const TokenForm = Type.Object({ grant_type: opt, code: opt, redirect_uri: opt, code_verifier: opt, client_id: opt, client_secret: opt });
const OAuthError = Type.Object({ error: Type.String(), error_description: Type.Optional(Type.String()) });
const Detail = Type.Object({ detail: Type.String() });
const TokenAnswer = Type.Object({
  access_token: Type.String(), token_type: Type.String(), expires_in: Type.Integer(), id_token: Type.String(), scope: Type.String(),
});
const UserInfo = Type.Object({ sub: Type.String(), email: Type.String(), email_verified: Type.Boolean() });

export const localOidcProvider: FastifyPluginAsyncTypebox<LocalProviderOptions> = async (app, opts) => {
  await app.register(formbody);
  const { privateKey, publicKey } = await generateKeyPair('RS256');
  const jwk: JWK = { ...(await exportJWK(publicKey)), kid: 'local-1', alg: 'RS256', use: 'sig' };
  const codes = new Map<string, PendingCode>();
  const accessTokens = new Map<string, { email: string; emailVerified: boolean; expires: number }>();

  app.get('/.well-known/openid-configuration', { config: policy, schema: hidden }, async () => ({
    issuer: opts.issuer,
    authorization_endpoint: `${opts.issuer}/authorize`,
    token_endpoint: `${opts.issuer}/token`,
    userinfo_endpoint: `${opts.issuer}/userinfo`,
    jwks_uri: `${opts.issuer}/jwks`,
    response_types_supported: ['code'],
    subject_types_supported: ['public'],
    id_token_signing_alg_values_supported: ['RS256'],
    scopes_supported: ['openid', 'email', 'profile'],
    token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
    code_challenge_methods_supported: ['S256'],
    claims_supported: ['sub', 'email', 'email_verified'],
  }));

  app.get('/jwks', { config: policy, schema: hidden }, async () => ({ keys: [jwk] }));

  app.get('/authorize', { config: policy, schema: { ...hidden, querystring: AuthorizeQuery, response: { 200: Type.String(), 400: Detail } } }, async (req, reply) => {
    const q = req.query;
    if (q.client_id !== opts.clientId) return reply.code(400).send({ detail: 'unknown client_id' });
    if (q.response_type !== 'code') return reply.code(400).send({ detail: 'response_type must be code' });
    const keep = (['redirect_uri', 'state', 'nonce', 'code_challenge', 'code_challenge_method'] as const)
      .map((k) => `<input type="hidden" name="${k}" value="${escapeHtml(q[k] ?? '')}">`)
      .join('');
    reply.type('text/html').send(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Local identity provider</title>
<style>body{font-family:system-ui;max-width:26rem;margin:4rem auto}label{display:block;margin:.75rem 0}input[type=email]{width:100%;padding:.4rem}</style></head>
<body><h1>Local identity provider</h1><p>Development stand-in for the social sign-in. Sign in as:</p>
<form method="post" action="${opts.issuer}/authorize">${keep}
<label>E-mail <input type="email" name="email" required autofocus></label>
<label><input type="checkbox" name="email_verified" value="true" checked> The provider has verified this e-mail</label>
<button type="submit">Continue</button></form></body></html>`);
  });

  app.post('/authorize', { config: policy, schema: { ...hidden, body: AuthorizeForm, response: { 400: Detail } } }, async (req, reply) => {
    const b = req.body ?? {};
    if (!b.email || !b.redirect_uri) return reply.code(400).send({ detail: 'email and redirect_uri are required' });
    const code = randomBytes(24).toString('base64url');
    codes.set(code, {
      email: b.email.trim().toLowerCase(),
      emailVerified: b.email_verified === 'true',
      nonce: b.nonce || undefined,
      codeChallenge: b.code_challenge || undefined,
      redirectUri: b.redirect_uri,
      expires: Date.now() + 60_000,
    });
    const target = new URL(b.redirect_uri);
    target.searchParams.set('code', code);
    if (b.state) target.searchParams.set('state', b.state);
    target.searchParams.set('iss', opts.issuer);
    return reply.redirect(target.toString(), 302);
  });

  app.post('/token', { config: policy, schema: { ...hidden, body: TokenForm, response: { 200: TokenAnswer, 400: OAuthError, 401: OAuthError } } }, async (req, reply) => {
    const b = req.body ?? {};
    const [id, secret] = clientCredentials(req.headers.authorization, b);
    if (id !== opts.clientId || !safeEqual(secret, opts.clientSecret)) {
      return reply.code(401).send({ error: 'invalid_client' });
    }
    const pending = codes.get(b.code ?? '');
    codes.delete(b.code ?? '');
    if (b.grant_type !== 'authorization_code' || !pending || pending.expires < Date.now() || pending.redirectUri !== b.redirect_uri) {
      return reply.code(400).send({ error: 'invalid_grant' });
    }
    if (pending.codeChallenge) {
      const expected = createHash('sha256').update(b.code_verifier ?? '').digest('base64url');
      if (expected !== pending.codeChallenge) return reply.code(400).send({ error: 'invalid_grant', error_description: 'PKCE verification failed' });
    }
    const now = Math.floor(Date.now() / 1000);
    const idToken = await new SignJWT({ email: pending.email, email_verified: pending.emailVerified, ...(pending.nonce ? { nonce: pending.nonce } : {}) })
      .setProtectedHeader({ alg: 'RS256', kid: jwk.kid })
      .setIssuer(opts.issuer)
      .setAudience(opts.clientId)
      .setSubject(pending.email)
      .setIssuedAt(now)
      .setExpirationTime(now + 300)
      .sign(privateKey);
    const accessToken = randomBytes(24).toString('base64url');
    accessTokens.set(accessToken, { email: pending.email, emailVerified: pending.emailVerified, expires: Date.now() + 300_000 });
    reply.header('cache-control', 'no-store');
    return { access_token: accessToken, token_type: 'Bearer', expires_in: 300, id_token: idToken, scope: 'openid email' };
  });

  app.get('/userinfo', { config: policy, schema: { ...hidden, response: { 200: UserInfo, 401: OAuthError } } }, async (req, reply) => {
    const token = req.headers.authorization?.replace(/^Bearer /i, '') ?? '';
    const info = accessTokens.get(token);
    if (!info || info.expires < Date.now()) return reply.code(401).send({ error: 'invalid_token' });
    return { sub: info.email, email: info.email, email_verified: info.emailVerified };
  });
};

function clientCredentials(header: string | undefined, body: { client_id?: string; client_secret?: string }): [string, string] {
  if (header?.startsWith('Basic ')) {
    const decoded = Buffer.from(header.slice(6), 'base64').toString();
    const i = decoded.indexOf(':');
    return [decodeURIComponent(decoded.slice(0, i)), decodeURIComponent(decoded.slice(i + 1))];
  }
  return [body.client_id ?? '', body.client_secret ?? ''];
}

function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
