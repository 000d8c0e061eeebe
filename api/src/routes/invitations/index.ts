import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { MIN_PASSWORD_LENGTH, MESSAGES } from '@cc/shared/constants.ts';
import { withTransaction } from '@cc/shared/db/pool.ts';
import { acceptInvitation, findOpenInvitation } from '@cc/shared/db/invitations.ts';
import { hashInvitationToken } from '@cc/shared/invitations/link.ts';
import { InputError, required } from '@cc/shared/input-error.ts';
import { InvitationAccept, InvitationInfo, InvitationParams } from '@cc/shared/schemas/invitations.ts';
import { withErrors } from '@cc/shared/schemas/common.ts';
import { errors } from '../../errors.ts';

const NOT_FOUND = 'Invitation not found or expired';
/**
 * The link is the credential, so guessing links is throttled per client address: 30 looks and 10
 * password settings (each runs argon2) a minute are far more than a person clicking a link needs and far too few
 * to search 256-bit tokens or to load the server.
 */
const lookLimit = { max: 30, timeWindow: 60_000 };
const acceptLimit = { max: 10, timeWindow: 60_000 };

/**
 * The invitation link (`${PUBLIC_URL}/invitation/{token}`): public, the token is the credential. Setting
 * the password also verifies the e-mail, so the user can sign in right after.
 */
const invitations: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/v1/invitations/:token',
    {
      config: { permission: 'public', tenant: 'none', rateLimit: lookLimit },
      schema: { tags: ['auth'], summary: 'Is this invitation link still valid, and for whom', params: InvitationParams, response: withErrors({ 200: InvitationInfo }) },
    },
    async (req) => {
      const userId = await findOpenInvitation(app.pg, hashInvitationToken(req.params.token));
      if (!userId) throw new errors.notFound(NOT_FOUND);
      return { email: userId };
    },
  );

  app.post(
    '/v1/invitations/:token',
    {
      config: { permission: 'public', tenant: 'none', rateLimit: acceptLimit },
      schema: { tags: ['auth'], summary: 'Set the password (verifies the e-mail); the link then stops working', params: InvitationParams, body: InvitationAccept, response: withErrors({ 200: InvitationInfo }) },
    },
    async (req) => {
      const password = req.body.password;
      if (password === '') throw required('password');
      if (password.length < MIN_PASSWORD_LENGTH) throw new InputError(MESSAGES.passwordTooShort);
      const tokenHash = hashInvitationToken(req.params.token);
      // Hash before the transaction: argon2 is slow on purpose, and a row lock should not wait for it.
      if (!(await findOpenInvitation(app.pg, tokenHash))) throw new errors.notFound(NOT_FOUND);
      const passwordHash = await app.passwords.hash(password);
      const userId = await withTransaction(app.pg, (tx) => acceptInvitation(tx, tokenHash, passwordHash));
      if (!userId) throw new errors.notFound(NOT_FOUND);
      return { email: userId };
    },
  );
};
export default invitations;
