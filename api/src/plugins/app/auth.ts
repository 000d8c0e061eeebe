import fp from 'fastify-plugin';
import cookie from '@fastify/cookie';
import jwt from '@fastify/jwt';
import { randomUUID } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Claims, CustomerFilter } from '@cc/shared/claims.ts';
import type { Role } from '@cc/shared/permissions.ts';
import { buildClaims, findUserById, type UserRow } from '@cc/shared/db/users.ts';
import { createSession } from '@cc/shared/db/sessions.ts';
import { errors } from '../../errors.ts';
import { crossSiteRefusal } from './same-origin.ts';
import { sessionStore, type SessionStore } from './session-store.ts';

/** The caller as the server sees it on this request: read from the store, not trusted from the token. */
export interface AuthUser {
  email: string;
  /** null until the account's claims are initialised (set_claims). */
  role: Role | null;
  perms: string[];
  admin: boolean;
  filters: CustomerFilter[];
  jti: string;
  /** The sign-in session the token belongs to; every token refreshed from one sign-in carries the same. */
  sid: string;
  exp: number;
  /** The access epoch this request was admitted at (null: Redis unavailable); the tenant guard caches against it. */
  epoch: string | null;
}

/**
 * What an access token carries: who and which session, nothing more. Claims are not in it: the server reads them
 * from the store on every request, and the web from the answer that hands out the token (and /v1/auth/me). With
 * the customer list inside, an admin's token grew with every customer (~43 KB with 500: past Node's 16 KB header
 * limit, and its decoding dominated every request).
 */
interface TokenPayload {
  sub: string;
  /** Only in tokens signed before claims left the token (and by hand in tests); never read. */
  claims?: unknown;
  sid?: string;
  jti?: string;
  exp?: number;
  iat?: number;
}

/** The session a token is issued for: its id and absolute end (no token outlives it). */
export interface SessionRef {
  id: string;
  expires_at: Date;
}

declare module '@fastify/jwt' {
  interface FastifyJWT {
    payload: TokenPayload;
    user: TokenPayload;
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Verifies the bearer token (or `token` cookie) and loads the caller; throws 401 otherwise. */
    authenticate(req: FastifyRequest): Promise<AuthUser>;
    /**
     * Signs an access token for the user, sets the `token` cookie and answers with the user's current claims. Without
     * a session this is a sign-in and opens one; with one (refresh) the token keeps its sid and ends no later than it.
     */
    issueToken(user: UserRow, reply: FastifyReply, session?: SessionRef): Promise<{ token: string; claims: Claims | null; expires_in: number }>;
    sessions: SessionStore;
  }
  interface FastifyRequest {
    auth: AuthUser | null;
  }
}

export const TOKEN_COOKIE = 'token';

export default fp(
  async (app) => {
    await app.register(cookie);
    await app.register(jwt, {
      secret: app.config.JWT_SECRET,
      cookie: { cookieName: TOKEN_COOKIE, signed: false },
      sign: { algorithm: 'HS256' },
      // Verified tokens are remembered (fast-jwt's LRU, never past their `exp`): the HMAC is checked once per token,
      // not per request. Revocation does not depend on it: the session marker is read on every request.
      verify: { algorithms: ['HS256'], cache: 10_000 },
    });
    app.decorateRequest('auth', null);
    app.decorate('sessions', sessionStore(app));
    const secure = app.config.PUBLIC_URL.startsWith('https:');

    // Tokens already verified, by their text (hot path): a hit skips @fastify/jwt's per-request decode and option
    // merging, which cost more than the cached HMAC it guards. Kept only until the token's `exp`; revocation does not
    // depend on it (the session marker is read on every request, below).
    const verified = new Map<string, TokenPayload>();
    // the token @fastify/jwt reads: a well-formed Bearer header first, else the cookie
    const tokenOf = (req: FastifyRequest): string | undefined => {
      const header = req.headers.authorization;
      if (header && /^Bearer\s/i.test(header)) {
        const parts = header.split(' ');
        return parts.length === 2 && parts[1] ? parts[1] : undefined;
      }
      return req.cookies?.[TOKEN_COOKIE];
    };
    const knownPayload = (token: string | undefined): TokenPayload | null => {
      const payload = token === undefined ? undefined : verified.get(token);
      if (!payload) return null;
      if ((payload.exp ?? 0) * 1000 > Date.now()) return payload;
      verified.delete(token!);
      return null;
    };

    app.decorate('authenticate', async (req: FastifyRequest) => {
      if (req.auth) return req.auth;
      let payload: TokenPayload;
      try {
        const token = tokenOf(req);
        const known = knownPayload(token);
        if (known) payload = known;
        else {
          payload = await req.jwtVerify<TokenPayload>();
          if (token !== undefined && payload.exp) {
            if (verified.size >= 10_000) verified.clear();
            verified.set(token, payload);
          }
        }
      } catch (err) {
        const code = (err as { code?: string }).code ?? '';
        if (code === 'FST_JWT_NO_AUTHORIZATION_IN_HEADER' || code === 'FST_JWT_NO_AUTHORIZATION_IN_COOKIE') throw new errors.unauthenticated();
        if (code === 'FST_JWT_AUTHORIZATION_TOKEN_EXPIRED') throw new errors.invalidToken('Token expired');
        throw new errors.invalidToken('Invalid token');
      }
      // Tokens from before sessions existed, or made by hand, name no session and cannot be ended: refused.
      if (!payload.jti || !payload.exp || !payload.sid) throw new errors.invalidToken('Invalid token');
      // @fastify/jwt reads a Bearer header first and the cookie only without one.
      if (!/^Bearer\s/i.test(req.headers.authorization ?? '')) {
        const refusal = crossSiteRefusal(req, app.config.PUBLIC_URL);
        if (refusal) throw new errors.forbidden(refusal);
      }
      // One Redis round trip: has the session ended, and which access epoch holds (the user row is kept in process
      // for that epoch; any change to users, grants or customers moves it: access-cache.ts).
      // On a route that confirms access in its own lookup (the cached charts), the last epoch seen stands in until then.
      const deferred = app.access.deferredEpoch(req);
      const state = deferred !== null ? { epoch: deferred, ended: false } : await app.access.state(payload.sid);
      if (state.ended) throw new errors.invalidToken('Token revoked');
      const sub = payload.sub;
      const user = await app.access.remember(`user:${sub.toLowerCase()}`, state.epoch, () => findUserById(app.pg, sub));
      if (!user) throw new errors.invalidToken('User no longer exists');
      req.auth = {
        email: user.id,
        role: user.claims?.role ?? null,
        perms: user.claims?.perms ?? [],
        admin: user.claims?.admin ?? false,
        filters: user.claims?.filters ?? [],
        jti: payload.jti,
        sid: payload.sid,
        exp: payload.exp,
        epoch: state.epoch,
      };
      return req.auth;
    });

    app.decorate('issueToken', async (user: UserRow, reply: FastifyReply, given?: SessionRef) => {
      const session = given ?? (await createSession(app.pg, user.id, app.config.SESSION_MAX_HOURS));
      const claims = await buildClaims(app.pg, user);
      const left = Math.floor((session.expires_at.getTime() - Date.now()) / 1000);
      if (left < 1) throw new errors.invalidToken('Session expired');
      const ttl = Math.min(app.config.TOKEN_TTL_SECONDS, left);
      const token = app.jwt.sign({ sub: user.id, sid: session.id }, { expiresIn: `${ttl}s`, jti: randomUUID() });
      reply.setCookie(TOKEN_COOKIE, token, { path: '/', httpOnly: true, sameSite: 'strict', secure, maxAge: ttl });
      // An answer carrying a token is never kept by a browser or proxy cache.
      reply.header('cache-control', 'no-store');
      return { token, claims, expires_in: ttl };
    });
  },
  { name: 'auth', dependencies: ['config', 'pg', 'queues', 'access-cache'] },
);
