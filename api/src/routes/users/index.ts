import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { withTransaction } from '@cc/shared/db/pool.ts';
import { addMembers, existingCustomerIds } from '@cc/shared/db/customers-write.ts';
import {
  addressInUse, deleteUsers, existingUserIds, findAdminUser, insertInvitedUser, listAdminUsers, membersOfAny,
  renameUser, setUserAccess, setUserRole, type AdminUserRow,
} from '@cc/shared/db/users-admin.ts';
import { findUserById, refreshClaims } from '@cc/shared/db/users.ts';
import { endUserSessions } from '@cc/shared/db/sessions.ts';
import { normaliseEmail, parseEmail, parseEmailList } from '@cc/shared/emails.ts';
import { InputError } from '@cc/shared/input-error.ts';
import { emailsExist, entityNames, parseCustomers, parseRole } from '@cc/shared/users/rules.ts';
import {
  AdminUser, DeleteUsersAnswer, DeleteUsersBody, InvitationSent, InviteAnswer, InviteBody, UserListQuery, UserPage, UserParams, UserUpdate,
} from '@cc/shared/schemas/users.ts';
import { withErrors } from '@cc/shared/schemas/common.ts';
import { Type } from '@sinclair/typebox';
import { errors } from '../../errors.ts';
import { issueInvitation, reinvite } from '../../users/invite.ts';
import usersEvents from './events.ts';

const shape = (u: AdminUserRow) => ({ ...u, email: u.id, entities: entityNames(u.customers) });

async function checkCustomersExist(db: Parameters<typeof existingCustomerIds>[0], ids: string[]): Promise<void> {
  const known = await existingCustomerIds(db, ids);
  const unknown = ids.filter((c) => !known.includes(c));
  if (unknown.length) throw new InputError(`Unknown customer(s): ${unknown.join(', ')}`);
}

const isUniqueViolation = (err: unknown) => (err as { code?: string }).code === '23505';

/**
 * User management (spec 001 §2.7, §4, §5, §7). Every change refreshes the stored claims of the users it
 * touches, so it is effective on their next request, and is announced on the users event stream.
 */
const users: FastifyPluginAsyncTypebox = async (app) => {
  await app.register(usersEvents);

  app.get(
    '/v1/users/',
    {
      config: { permission: 'usermanagement_read', tenant: 'none' },
      schema: { tags: ['users'], summary: 'Users sorted by e-mail, one page at a time', querystring: UserListQuery, response: withErrors({ 200: UserPage }) },
    },
    async (req) => {
      const page = req.query.page ?? 0;
      const pageSize = req.query.page_size ?? 100;
      const { users, total } = await app.pgRead.fresh((db) => listAdminUsers(db, { offset: page * pageSize, limit: pageSize, q: (req.query.q ?? '').trim() }));
      return { users: users.map(shape), total, page, page_size: pageSize };
    },
  );

  app.get(
    '/v1/users/:id/',
    {
      config: { permission: 'usermanagement_read', tenant: 'none' },
      schema: { tags: ['users'], summary: 'One user', params: UserParams, response: withErrors({ 200: AdminUser }) },
    },
    async (req) => {
      const user = await findAdminUser(app.pg, normaliseEmail(req.params.id));
      if (!user) throw new errors.userNotFound();
      return shape(user);
    },
  );

  app.post(
    '/v1/users/',
    {
      config: { permission: 'usermanagement_create', tenant: 'none' },
      schema: { tags: ['users'], summary: 'Invite users: create them with a role and customer access, e-mail each a link to set a password', body: InviteBody, response: withErrors({ 201: InviteAnswer }) },
    },
    async (req, reply) => {
      const role = parseRole(req.body.role);
      const emails = parseEmailList(req.body.emails);
      const customers = parseCustomers(req.body.customers);
      // The users and their invitation e-mails commit together (the e-mails as outbox rows): with Redis away the
      // request still answers 201 and the e-mails go when it returns; a failure before COMMIT leaves nothing.
      const invited = await app.outbox.transaction(async (tx, enqueue) => {
        await checkCustomersExist(tx, customers);
        const taken = [...new Set([...(await existingUserIds(tx, emails)), ...(await membersOfAny(tx, emails, customers))])].sort();
        if (taken.length) throw emailsExist(taken);
        for (const email of emails) {
          await insertInvitedUser(tx, email, role).catch((err: unknown) => {
            throw isUniqueViolation(err) ? emailsExist([email]) : err;
          });
          for (const c of customers) await addMembers(tx, c, 'users', [email]);
          await refreshClaims(tx, email);
          await issueInvitation(app, tx, enqueue, email);
        }
        // Read before COMMIT: once the users exist nothing may fail this request, or its retry would find them taken.
        const rows: (AdminUserRow | null)[] = [];
        for (const e of emails) rows.push(await findAdminUser(tx, e));
        return rows;
      });
      await app.userEvents.publish({ type: 'invited', users: emails });
      return reply.code(201).send({ invited: invited.filter((u) => u !== null).map(shape) });
    },
  );

  app.put(
    '/v1/users/:id/',
    {
      config: { permission: 'usermanagement_update', tenant: 'none' },
      schema: { tags: ['users'], summary: 'Change a user’s role, e-mail and customer access', params: UserParams, body: UserUpdate, response: withErrors({ 200: AdminUser }) },
    },
    async (req) => {
      const id = normaliseEmail(req.params.id);
      const role = parseRole(req.body.role);
      const email = parseEmail(req.body.email);
      const customers = parseCustomers(req.body.customers);
      const self = id === req.auth!.email;
      const updated = await app.outbox.transaction(async (tx, enqueue) => {
        if (!(await findAdminUser(tx, id))) throw new errors.userNotFound();
        const entry = await findUserById(tx, id);
        if (self && (role !== entry?.role || email !== id)) throw new InputError('You cannot change your own role or e-mail');
        await checkCustomersExist(tx, customers);
        if (email !== id) {
          if (await addressInUse(tx, email)) throw emailsExist([email]);
          await renameUser(tx, id, email);
        }
        if (entry) {
          await setUserRole(tx, email, role);
        } else {
          // An address that was only on an access list becomes a user: invite them to set a password.
          await insertInvitedUser(tx, email, role);
          await issueInvitation(app, tx, enqueue, email);
        }
        await setUserAccess(tx, email, customers);
        await refreshClaims(tx, email);
        return (await findAdminUser(tx, email))!;
      });
      await app.userEvents.publish({ type: 'updated', users: email === id ? [id] : [id, email] });
      return shape(updated);
    },
  );

  app.delete(
    '/v1/users/',
    {
      config: { permission: 'usermanagement_update', tenant: 'none' },
      schema: { tags: ['users'], summary: 'Delete users everywhere (every customer list, filters, entity admins)', body: DeleteUsersBody, response: withErrors({ 200: DeleteUsersAnswer }) },
    },
    async (req) => {
      const ids = [...new Set(req.body.users.map(normaliseEmail))];
      if (ids.includes(req.auth!.email)) throw new InputError('You cannot delete your own account');
      const deleted = await withTransaction(app.pg, (tx) => deleteUsers(tx, ids));
      if (deleted === 0) throw new errors.userNotFound();
      await app.userEvents.publish({ type: 'deleted', users: ids });
      return { deleted };
    },
  );

  app.post(
    '/v1/users/:id/invitation/',
    {
      config: { permission: 'usermanagement_update', tenant: 'none' },
      schema: { tags: ['users'], summary: 'Send a new invitation link (older links stop working)', params: UserParams, response: withErrors({ 202: InvitationSent }) },
    },
    async (req, reply) => {
      const user = await findUserById(app.pg, normaliseEmail(req.params.id));
      if (!user) throw new errors.userNotFound();
      if (user.password_hash && user.email_verified) throw new InputError('This user has already set a password');
      await reinvite(app, user.id);
      await app.userEvents.publish({ type: 'updated', users: [user.id] });
      return reply.code(202).send({ email: user.id });
    },
  );

  app.delete(
    '/v1/users/:id/sessions/',
    {
      config: { permission: 'usermanagement_update', tenant: 'none' },
      schema: {
        tags: ['users'],
        summary: 'End every session of a user: their tokens are refused from the next request on; they sign in again',
        params: UserParams,
        response: withErrors({ 200: Type.Object({ email: Type.String(), ended: Type.Integer() }) }),
      },
    },
    async (req) => {
      const user = await findUserById(app.pg, normaliseEmail(req.params.id));
      if (!user) throw new errors.userNotFound();
      const ended = await endUserSessions(app.pg, user.id, `admin:${req.auth!.email}`);
      await app.sessions.markEnded(ended);
      req.log.info({ user: user.id, by: req.auth!.email, ended: ended.length }, 'sessions ended by an admin');
      return { email: user.id, ended: ended.length };
    },
  );
};
export default users;
