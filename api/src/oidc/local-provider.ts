import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import formbody from '@fastify/formbody';
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { exportJWK, generateKeyPair, SignJWT, type JWK } from 'jose';
import { MESSAGES } from '@cc/shared/constants.ts';

/**
 * A small OpenID Connect provider served in-process (OIDC=local, development only: loadConfig refuses it
 * in production): discovery, authorize, token (authorization code + PKCE S256), JWKS and userinfo. The api
 * talks to it with openid-client exactly as it talks to a real provider. Like a real provider it
 * authenticates its users: the authorize page asks for the e-mail and password, checked against the stored
 * password hash through the sign-in lockout, and `email_verified` is the account's own flag, never something the form can claim.
 * Codes live in memory: one process, one developer, one minute.
 */
export interface LocalProviderOptions {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** The client's registered redirect URIs; any other is refused (400, no redirect), or codes could be sent to any site. */
  redirectUris: string[];
}

interface PendingCode {
  email: string;
  emailVerified: boolean;
  nonce?: string;
  codeChallenge?: string;
  redirectUri: string;
  expires: number;
}

const UNREGISTERED = 'redirect_uri is not registered for this client';
const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const policy = { permission: 'public', tenant: 'none' } as const;
const hidden = { hide: true };
const opt = Type.Optional(Type.String());
const AuthorizeQuery = Type.Object({
  client_id: opt, response_type: opt, redirect_uri: opt, state: opt, nonce: opt, code_challenge: opt, code_challenge_method: opt, scope: opt,
});
const KEPT = ['client_id', 'redirect_uri', 'state', 'nonce', 'code_challenge', 'code_challenge_method'] as const;
const AuthorizeForm = Type.Object({
  email: opt, password: opt, client_id: opt, redirect_uri: opt, state: opt, nonce: opt, code_challenge: opt, code_challenge_method: opt,
});
const TokenForm = Type.Object({ grant_type: opt, code: opt, redirect_uri: opt, code_verifier: opt, client_id: opt, client_secret: opt });
const OAuthError = Type.Object({ error: Type.String(), error_description: Type.Optional(Type.String()) });
const Detail = Type.Object({ detail: Type.String() });
const TokenAnswer = Type.Object({
  access_token: Type.String(), token_type: Type.String(), expires_in: Type.Integer(), id_token: Type.String(), scope: Type.String(),
});
const UserInfo = Type.Object({ sub: Type.String(), email: Type.String(), email_verified: Type.Boolean() });

/**
 * One signing key per process, made at the first app's start: an RSA key takes 0.1–0.3 s of CPU, which every app built
 * in a process (tests build hundreds) paid again, and under load it could push the plugin past Fastify's start-up limit.
 * Tokens are still checked against the issuer and audience of the app that reads them.
 */
let processKey: ReturnType<typeof generateKeyPair> | undefined;
const signingKey = () => (processKey ??= generateKeyPair('RS256'));

export const localOidcProvider: FastifyPluginAsyncTypebox<LocalProviderOptions> = async (app, opts) => {
  await app.register(formbody);
  const { privateKey, publicKey } = await signingKey();
  const jwk: JWK = { ...(await exportJWK(publicKey)), kid: 'local-1', alg: 'RS256', use: 'sig' };
  const codes = new Map<string, PendingCode>();
  // Exact string comparison, as OAuth 2.1 requires: no prefix, no wildcard, no normalisation.
  const registered = (uri: string | undefined): uri is string => uri !== undefined && opts.redirectUris.includes(uri);
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

  const page = (fields: Partial<Record<(typeof KEPT)[number], string>>, failure?: { email: string; message: string }) => {
    const keep = KEPT.map((k) => `<input type="hidden" name="${k}" value="${escapeHtml(fields[k] ?? '')}">`).join('');
    const error = failure ? `<p role="alert" style="color:#b00020">${escapeHtml(failure.message)}</p>` : '';
    return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Local identity provider</title>
<style>body{font-family:system-ui;max-width:26rem;margin:4rem auto}label{display:block;margin:.75rem 0}input[type=email],input[type=password]{width:100%;padding:.4rem}</style></head>
<body><h1>Local identity provider</h1><p>Development stand-in for the social sign-in: sign in with your CommandCenter account.</p>${error}
<form method="post" action="${escapeHtml(opts.issuer)}/authorize">${keep}
<label>E-mail <input type="email" name="email" required autofocus value="${escapeHtml(failure?.email ?? '')}" autocomplete="username"></label>
<label>Password <input type="password" name="password" required autocomplete="current-password"></label>
<button type="submit">Continue</button></form></body></html>`;
  };
  // A sign-in form must not be framed by another site (clickjacking), nor cached.
  const htmlHeaders = { 'content-type': 'text/html; charset=utf-8', 'x-frame-options': 'DENY', 'content-security-policy': "frame-ancestors 'none'", 'cache-control': 'no-store' };

  app.get('/authorize', { config: policy, schema: { ...hidden, querystring: AuthorizeQuery, response: { 200: Type.String(), 400: Detail } } }, async (req, reply) => {
    const q = req.query;
    if (q.client_id !== opts.clientId) return reply.code(400).send({ detail: 'unknown client_id' });
    if (!registered(q.redirect_uri)) return reply.code(400).send({ detail: UNREGISTERED });
    if (q.response_type !== 'code') return reply.code(400).send({ detail: 'response_type must be code' });
    return reply.headers(htmlHeaders).send(page(q));
  });

  app.post('/authorize', { config: policy, schema: { ...hidden, body: AuthorizeForm, response: { 400: Detail, 401: Type.String(), 429: Type.String() } } }, async (req, reply) => {
    const b = req.body ?? {};
    if (b.client_id !== opts.clientId) return reply.code(400).send({ detail: 'unknown client_id' });
    if (!registered(b.redirect_uri)) return reply.code(400).send({ detail: UNREGISTERED });
    const email = (b.email ?? '').trim().toLowerCase();
    // The same lockout as /v1/auth/login (per account and per address): this form must not be a way around it.
    let user;
    try {
      user = await app.passwords.authenticate(req, email, b.password ?? '');
    } catch (err) {
      const locked = err as { statusCode?: number; headers?: Record<string, string>; message: string };
      if (locked.statusCode !== 429) throw err;
      return reply.code(429).headers({ ...htmlHeaders, ...locked.headers }).send(page(b, { email, message: locked.message }));
    }
    if (!user) return reply.code(401).headers(htmlHeaders).send(page(b, { email, message: MESSAGES.invalidLogin }));
    const code = randomBytes(24).toString('base64url');
    codes.set(code, {
      email: user.id,
      emailVerified: user.email_verified,
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
    if (b.grant_type !== 'authorization_code' || !pending || pending.expires < Date.now() || !registered(b.redirect_uri) || pending.redirectUri !== b.redirect_uri) {
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
