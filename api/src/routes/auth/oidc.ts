import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import * as oidc from 'openid-client';
import { createHash } from 'node:crypto';
import { Type } from '@sinclair/typebox';
import { oidcIssuer } from '@cc/shared/config.ts';
import { MESSAGES } from '@cc/shared/constants.ts';
import { findUserById, markEmailVerified } from '@cc/shared/db/users.ts';

const FLOW_COOKIE = 'oidc_flow';
/** Where the provider sends the user back; registered with the provider (the local one accepts no other). */
export const OIDC_CALLBACK_PATH = '/v1/auth/oidc/callback';
// The provider's answer; openid-client reads it from the full URL, these are only declared for the docs.
const CallbackQuery = Type.Object({
  code: Type.Optional(Type.String()),
  state: Type.Optional(Type.String()),
  iss: Type.Optional(Type.String()),
  error: Type.Optional(Type.String()),
  error_description: Type.Optional(Type.String()),
});
const policy = { permission: 'public', tenant: 'none' } as const;

interface Flow {
  state: string;
  nonce: string;
  verifier: string;
}

/**
 * Social sign-in (spec 001 §2.3, §8) as an authorization-code + PKCE flow through openid-client.
 * The web opens `/v1/auth/oidc/start` in a popup; the callback page hands the result to the opener
 * with postMessage and closes. The flow's secrets ride in a short-lived signed cookie, so any api
 * instance can finish a flow another one started.
 */
const oidcRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const issuer = oidcIssuer(app.config);
  const redirectUri = `${app.config.PUBLIC_URL}${OIDC_CALLBACK_PATH}`;
  let discovered: Promise<oidc.Configuration> | null = null;
  // Discovered lazily: the local provider is this very server, which is not listening yet at boot.
  const configuration = () => {
    discovered ??= oidc
      .discovery(new URL(issuer), app.config.OIDC_CLIENT_ID, app.config.OIDC_CLIENT_SECRET, undefined, {
        execute: issuer.startsWith('http:') ? [oidc.allowInsecureRequests] : [],
      })
      .catch((err) => {
        discovered = null;
        throw err;
      });
    return discovered;
  };

  app.get('/v1/auth/oidc/start', { config: policy, schema: { tags: ['auth'], summary: 'Begin social sign-in (opens in a popup)' } }, async (_req, reply) => {
    const config = await configuration();
    const flow: Flow = { state: oidc.randomState(), nonce: oidc.randomNonce(), verifier: oidc.randomPKCECodeVerifier() };
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: redirectUri,
      scope: 'openid email profile',
      code_challenge: await oidc.calculatePKCECodeChallenge(flow.verifier),
      code_challenge_method: 'S256',
      state: flow.state,
      nonce: flow.nonce,
    });
    const signed = app.jwt.sign({ sub: 'oidc-flow', claims: null, ...flow } as never, { expiresIn: '10m' });
    reply.setCookie(FLOW_COOKIE, signed, { path: '/v1/auth/oidc', httpOnly: true, sameSite: 'lax', maxAge: 600 });
    return reply.redirect(url.toString(), 302);
  });

  app.get(OIDC_CALLBACK_PATH, { config: policy, schema: { tags: ['auth'], summary: 'Finish social sign-in', querystring: CallbackQuery } }, async (req, reply) => {
    reply.clearCookie(FLOW_COOKIE, { path: '/v1/auth/oidc' });
    let flow: Flow;
    try {
      flow = app.jwt.verify<Flow>(req.cookies[FLOW_COOKIE] ?? '');
    } catch {
      return finish(reply, 400, { error: 'The sign-in took too long or was started elsewhere; please try again.' });
    }
    let claims: oidc.IDToken | undefined;
    try {
      const config = await configuration();
      const tokens = await oidc.authorizationCodeGrant(config, new URL(req.url, app.config.PUBLIC_URL), {
        pkceCodeVerifier: flow.verifier,
        expectedState: flow.state,
        expectedNonce: flow.nonce,
      });
      claims = tokens.claims();
    } catch (err) {
      req.log.warn({ err }, 'social sign-in failed');
      return finish(reply, 400, { error: (err as Error).message });
    }
    const email = typeof claims?.email === 'string' ? claims.email.toLowerCase() : '';
    if (claims?.email_verified !== true) return finish(reply, 403, { error: MESSAGES.providerEmailNotVerified });
    const user = email ? await findUserById(app.pg, email) : null;
    if (!user) return finish(reply, 403, { error: MESSAGES.invalidLogin });
    if (!user.email_verified) {
      // The provider vouches for the address, which is what our own verification would prove.
      await markEmailVerified(app.pg, user.id);
    }
    // The token travels only in the httpOnly cookie issueToken sets: the page tells its opener that, never the token.
    await app.issueToken({ ...user, email_verified: true }, reply);
    return finish(reply, 200, { signedIn: true });
  });

  function finish(reply: FastifyReply, status: number, result: { signedIn?: true; error?: string }) {
    const payload = JSON.stringify({ type: 'cc-oidc', ...result }).replace(/</g, '\\u003c');
    const origin = JSON.stringify(new URL(app.config.PUBLIC_URL).origin);
    const script = `const r=${payload};if(window.opener){window.opener.postMessage(r,${origin});window.close();}`;
    // The one inline script of the product runs by its hash; nothing else may run, load or frame this page.
    const hash = createHash('sha256').update(script).digest('base64');
    return reply
      .code(status)
      .type('text/html')
      .header('cache-control', 'no-store')
      .header('content-security-policy', `default-src 'none'; script-src 'sha256-${hash}'; base-uri 'none'; frame-ancestors 'none'`)
      // The opener (our web app) must stay reachable for postMessage after the provider's pages.
      .header('cross-origin-opener-policy', 'unsafe-none')
      .send(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Signing in…</title></head>
<body><p id="result" data-result='${payload.replace(/'/g, '&#39;')}'>${result.error ? 'Sign-in failed. You can close this window.' : 'Signed in. You can close this window.'}</p>
<script>${script}</script></body></html>`);
  }
};
export default oidcRoutes;
