import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { hash, verify } from '@node-rs/argon2';
import { EMAIL_PATTERN, MIN_PASSWORD_LENGTH } from '@cc/shared/constants.ts';
import { findUserById, buildClaims } from '@cc/shared/db/users.ts';
import { revokeToken } from '@cc/shared/db/tokens.ts';
import { Claims, TokenAnswer, withErrors } from '@cc/shared/schemas/common.ts';
import { errors } from '../../errors.ts';
import { TOKEN_COOKIE } from '../../plugins/app/auth.ts';

export const ARGON2_OPTIONS = { algorithm: 2 /* Argon2id; the enum is an ambient const enum */, memoryCost: 19456, timeCost: 2, parallelism: 1 };

/** Hashes a password with argon2id (OWASP's minimum parameters). */
export const hashPassword = (password: string) => hash(password, ARGON2_OPTIONS);

const LoginBody = Type.Object({
  email: Type.String({ pattern: EMAIL_PATTERN }),
  password: Type.String({ minLength: MIN_PASSWORD_LENGTH }),
});

const auth: FastifyPluginAsyncTypebox = async (app) => {
  // Verifying against a throwaway hash for unknown users keeps the answer time the same,
  // so the response time does not reveal which e-mails have accounts.
  const decoyHash = await hashPassword('decoy-password-not-used');

  app.post(
    '/v1/auth/login',
    {
      config: { permission: 'public', tenant: 'none' },
      schema: { tags: ['auth'], summary: 'Sign in with e-mail and password', body: LoginBody, response: withErrors({ 200: TokenAnswer }) },
    },
    async (req, reply) => {
      const user = await findUserById(app.pg, req.body.email.trim());
      const ok = await verify(user?.password_hash ?? decoyHash, req.body.password).catch(() => false);
      if (!user || !user.password_hash || !ok) throw new errors.invalidLogin();
      if (!user.email_verified) throw new errors.unverifiedEmail();
      return app.issueToken(user, reply);
    },
  );

  app.post(
    '/v1/auth/refresh',
    {
      config: { permission: 'authenticated', tenant: 'none' },
      schema: { tags: ['auth'], summary: 'A new access token with current claims', response: withErrors({ 200: TokenAnswer }) },
    },
    async (req, reply) => {
      const user = await findUserById(app.pg, req.auth!.email);
      if (!user) throw new errors.userNotFound();
      return app.issueToken(user, reply);
    },
  );

  app.post(
    '/v1/auth/logout',
    {
      config: { permission: 'authenticated', tenant: 'none' },
      schema: { tags: ['auth'], summary: 'Revoke the current token', response: withErrors({ 204: Type.Null() }) },
    },
    async (req, reply) => {
      await revokeToken(app.pg, req.auth!.jti, new Date(req.auth!.exp * 1000));
      reply.clearCookie(TOKEN_COOKIE, { path: '/' });
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/v1/auth/me',
    {
      config: { permission: 'authenticated', tenant: 'none' },
      schema: {
        tags: ['auth'],
        summary: 'The caller’s current claims (null while the account is being initialised)',
        response: withErrors({ 200: Type.Object({ claims: Type.Union([Claims, Type.Null()]) }) }),
      },
    },
    async (req) => {
      const user = await findUserById(app.pg, req.auth!.email);
      if (!user) throw new errors.userNotFound();
      return { claims: await buildClaims(app.pg, user) };
    },
  );
};
export default auth;
