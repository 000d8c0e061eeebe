import fp from 'fastify-plugin';
import cookie from '@fastify/cookie';
import jwt from '@fastify/jwt';
import { randomUUID } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Claims, CustomerFilter } from '@cc/shared/claims.ts';
import type { Role } from '@cc/shared/permissions.ts';
import { buildClaims, findUserById, type UserRow } from '@cc/shared/db/users.ts';
import { isTokenRevoked } from '@cc/shared/db/tokens.ts';
import { errors } from '../../errors.ts';

/** The caller as the server sees it on this request: read from the store, not trusted from the token. */
export interface AuthUser {
  email: string;
  /** null until the account's claims are initialised (set_claims). */
  role: Role | null;
  perms: string[];
  admin: boolean;
  filters: CustomerFilter[];
  jti: string;
  exp: number;
}

interface TokenPayload {
  sub: string;
  claims: Claims | null;
  jti?: string;
  exp?: number;
  iat?: number;
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
    /** Signs an access token carrying the user's current claims, and sets the `token` cookie. */
    issueToken(user: UserRow, reply: FastifyReply): Promise<{ token: string; claims: Claims | null; expires_in: number }>;
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
      verify: { algorithms: ['HS256'] },
    });
    app.decorateRequest('auth', null);

    app.decorate('authenticate', async (req: FastifyRequest) => {
      if (req.auth) return req.auth;
      let payload: TokenPayload;
      try {
        payload = await req.jwtVerify<TokenPayload>();
      } catch (err) {
        const code = (err as { code?: string }).code ?? '';
        if (code === 'FST_JWT_NO_AUTHORIZATION_IN_HEADER' || code === 'FST_JWT_NO_AUTHORIZATION_IN_COOKIE') throw new errors.unauthenticated();
        if (code === 'FST_JWT_AUTHORIZATION_TOKEN_EXPIRED') throw new errors.invalidToken('Token expired');
        throw new errors.invalidToken('Invalid token');
      }
      if (!payload.jti || !payload.exp) throw new errors.invalidToken('Invalid token');
      const [user, revoked] = await Promise.all([findUserById(app.pg, payload.sub), isTokenRevoked(app.pg, payload.jti)]);
      if (revoked) throw new errors.invalidToken('Token revoked');
      if (!user) throw new errors.invalidToken('User no longer exists');
      req.auth = {
        email: user.id,
        role: user.claims?.role ?? null,
        perms: user.claims?.perms ?? [],
        admin: user.claims?.admin ?? false,
        filters: user.claims?.filters ?? [],
        jti: payload.jti,
        exp: payload.exp,
      };
      return req.auth;
    });

    app.decorate('issueToken', async (user: UserRow, reply: FastifyReply) => {
      const claims = await buildClaims(app.pg, user);
      const ttl = app.config.TOKEN_TTL_SECONDS;
      const token = app.jwt.sign({ sub: user.id, claims }, { expiresIn: `${ttl}s`, jti: randomUUID() });
      reply.setCookie(TOKEN_COOKIE, token, {
        path: '/',
        httpOnly: true,
        sameSite: 'strict',
        secure: app.config.PUBLIC_URL.startsWith('https:'),
        maxAge: ttl,
      });
      return { token, claims, expires_in: ttl };
    });
  },
  { name: 'auth', dependencies: ['config', 'pg'] },
);
