import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { InputError, required } from '@cc/shared/input-error.ts';
import { checkNewPassword, MAX_PASSWORD_LENGTH } from '@cc/shared/auth/password-rules.ts';
import { passwordChangedMail } from '@cc/shared/auth/password-changed-mail.ts';
import { updatePasswordHash } from '@cc/shared/db/passwords.ts';
import { endOtherSessions } from '@cc/shared/db/sessions.ts';
import { withErrors } from '@cc/shared/schemas/common.ts';
import { errors } from '../../errors.ts';

export const WRONG_CURRENT_PASSWORD = 'The current password is not correct';

const PasswordChange = Type.Object({
  current_password: Type.String({ maxLength: MAX_PASSWORD_LENGTH }),
  new_password: Type.String({ description: 'at least 6 characters' }),
});
const PasswordChanged = Type.Object({ ended: Type.Integer({ description: 'how many other open sessions were ended' }) });

/**
 * A user changes their own password. The current one is checked through the sign-in lockout (a stolen session must
 * not become a way to guess it), a wrong one is a 400 (a 401 would read as "session over" to the web). The new hash,
 * the end of every other session and the notice e-mail commit together; this session goes on.
 */
const passwordRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/v1/auth/password',
    {
      config: { permission: 'authenticated', tenant: 'none' },
      schema: {
        tags: ['auth'],
        summary: 'Change the caller’s password: ends the caller’s other sessions and e-mails a notice',
        body: PasswordChange,
        response: withErrors({ 200: PasswordChanged }),
      },
    },
    async (req) => {
      const { current_password: current, new_password: next } = req.body;
      if (current === '') throw required('current_password');
      checkNewPassword(next, 'new_password');
      const email = req.auth!.email;
      const user = await app.passwords.authenticate(req, email, current);
      if (!user) throw new InputError(WRONG_CURRENT_PASSWORD);
      // Hashed before the transaction: argon2 is slow on purpose, and row locks should not wait for it.
      const hash = await app.passwords.hash(next);
      const ended = await app.outbox.transaction(async (tx, enqueue) => {
        if (!(await updatePasswordHash(tx, user.id, hash))) throw new errors.userNotFound();
        const others = await endOtherSessions(tx, user.id, req.auth!.sid, 'password');
        await enqueue('notify', 'notify.send', passwordChangedMail(app.config.PUBLIC_URL, user.id, new Date(), hash, others.length));
        return others;
      });
      await app.sessions.markEnded(ended);
      return { ended: ended.length };
    },
  );
};
export default passwordRoutes;
