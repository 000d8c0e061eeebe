import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { EMAIL_PATTERN, MIN_PASSWORD_LENGTH } from '@cc/shared/constants.ts';
import { findUserById, buildClaims } from '@cc/shared/db/users.ts';
import { endSession, endUserSessions, findOpenSession } from '@cc/shared/db/sessions.ts';
import { Claims, TokenAnswer, withErrors } from '@cc/shared/schemas/common.ts';
import { errors } from '../../errors.ts';
import { TOKEN_COOKIE } from '../../plugins/app/auth.ts';
import passwordRoutes from './password.ts';
import meCustomers from './me-customers.ts';

const LoginBody = Type.Object({
  email: Type.String({ pattern: EMAIL_PATTERN }),
  password: Type.String({ minLength: MIN_PASSWORD_LENGTH }),
});

const SessionsEnded = Type.Object({ ended: Type.Integer({ description: 'how many open sessions were ended' }) });

const auth: FastifyPluginAsyncTypebox = async (app) => {
  await app.register(passwordRoutes);
  await app.register(meCustomers);

  app.post(
    '/v1/auth/login',
    {
      config: { permission: 'public', tenant: 'none' },
      schema: { tags: ['auth'], summary: 'Sign in with e-mail and password', body: LoginBody, response: withErrors({ 200: TokenAnswer }) },
    },
    async (req, reply) => {
      // Through the lockout, as every presented password (locked accounts and addresses answer 429).
      const user = await app.passwords.authenticate(req, req.body.email, req.body.password);
      if (!user) throw new errors.invalidLogin();
      if (!user.email_verified) throw new errors.unverifiedEmail();
      return app.issueToken(user, reply);
    },
  );

  app.post(
    '/v1/auth/refresh',
    {
      config: { permission: 'authenticated', tenant: 'none' },
      schema: { tags: ['auth'], summary: 'A new access token with current claims, in the same session (never past its end)', response: withErrors({ 200: TokenAnswer }) },
    },
    async (req, reply) => {
      const user = await findUserById(app.pg, req.auth!.email);
      if (!user) throw new errors.userNotFound();
      // The row, not only the Redis marker: a session past its absolute lifetime or ended while Redis was away stops here.
      const session = await findOpenSession(app.pg, req.auth!.sid, user.id);
      if (!session) throw new errors.invalidToken('Session expired');
      return app.issueToken(user, reply, session);
    },
  );

  app.post(
    '/v1/auth/logout',
    {
      config: { permission: 'authenticated', tenant: 'none' },
      schema: { tags: ['auth'], summary: 'Sign out: ends the session, so every token refreshed from this sign-in is refused', response: withErrors({ 204: Type.Null() }) },
    },
    async (req, reply) => {
      await app.sessions.markEnded(await endSession(app.pg, req.auth!.sid, req.auth!.email, 'logout'));
      reply.clearCookie(TOKEN_COOKIE, { path: '/' });
      return reply.code(204).send(null);
    },
  );

  app.delete(
    '/v1/auth/sessions',
    {
      config: { permission: 'authenticated', tenant: 'none' },
      schema: { tags: ['auth'], summary: 'Sign out everywhere: ends every session of the caller, this one included', response: withErrors({ 200: SessionsEnded }) },
    },
    async (req, reply) => {
      const ended = await endUserSessions(app.pg, req.auth!.email, 'everywhere');
      await app.sessions.markEnded(ended);
      reply.clearCookie(TOKEN_COOKIE, { path: '/' });
      return { ended: ended.length };
    },
  );

  app.get(
    '/v1/auth/me',
    {
      config: { permission: 'authenticated', tenant: 'none' },
      schema: {
        tags: ['auth'],
        summary: 'The caller’s current claims (null while the account is being initialised); the first customers only, the rest through /v1/auth/me/customers',
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
