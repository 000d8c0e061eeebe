import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { EMAIL_PATTERN, MIN_PASSWORD_LENGTH } from '@cc/shared/constants.ts';
import { findUserById, buildClaims } from '@cc/shared/db/users.ts';
import { revokeToken } from '@cc/shared/db/tokens.ts';
import { Claims, TokenAnswer, withErrors } from '@cc/shared/schemas/common.ts';
import { errors } from '../../errors.ts';
import { TOKEN_COOKIE } from '../../plugins/app/auth.ts';
import { checkPassword } from '@cc/shared/admin/passwords.ts';


const LoginBody = Type.Object({
  email: Type.String({ pattern: EMAIL_PATTERN }),
  password: Type.String({ minLength: MIN_PASSWORD_LENGTH }),
});

const auth: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/v1/auth/login',
    {
      config: { permission: 'public', tenant: 'none' },
      schema: { tags: ['auth'], summary: 'Sign in with e-mail and password', body: LoginBody, response: withErrors({ 200: TokenAnswer }) },
    },
    async (req, reply) => {
      const user = await checkPassword(app.pg, req.body.email, req.body.password);
      if (!user) throw new errors.invalidLogin();
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
