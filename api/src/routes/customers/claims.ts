import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { EMAIL_PATTERN } from '@cc/shared/constants.ts';
import { findUserById, refreshClaims } from '@cc/shared/db/users.ts';
import { CustomerFilter, withErrors } from '@cc/shared/schemas/common.ts';
import { errors } from '../../errors.ts';

const StoredClaims = Type.Union([
  Type.Object({ role: Type.String(), perms: Type.Array(Type.String()), admin: Type.Boolean(), filters: Type.Array(CustomerFilter) }),
  Type.Null(),
]);
const ClaimsAnswer = Type.Object({ user_id: Type.String(), claims: StoredClaims });

/**
 * Claims routes (spec 000 §7, 001 §7). The server reads the stored claims on every request, so a
 * refresh here is effective on the user's next request, not at their next sign-in.
 */
const claimsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/v1/customers/update_claims/',
    {
      config: { permission: 'usermanagement_update', tenant: 'none' },
      schema: {
        tags: ['customers'],
        summary: 'Recompute a user’s claims after their role, access or filters changed',
        body: Type.Object({ user_id: Type.String({ pattern: EMAIL_PATTERN }) }),
        response: withErrors({ 200: ClaimsAnswer }),
      },
    },
    async (req) => {
      const userId = req.body.user_id.toLowerCase();
      const claims = await refreshClaims(app.pg, userId);
      if (claims === null && !(await findUserById(app.pg, userId))) throw new errors.userNotFound();
      return { user_id: userId, claims };
    },
  );

  app.post(
    '/v1/customers/set_claims/',
    {
      config: { permission: 'authenticated', tenant: 'none' },
      schema: { tags: ['customers'], summary: 'Initialise the caller’s own claims from their role', response: withErrors({ 200: ClaimsAnswer }) },
    },
    async (req) => ({ user_id: req.auth!.email, claims: await refreshClaims(app.pg, req.auth!.email) }),
  );
};
export default claimsRoutes;
