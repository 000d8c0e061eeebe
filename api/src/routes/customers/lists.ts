import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { findCustomer } from '@cc/shared/db/customers.ts';
import { withTransaction, type Queryable } from '@cc/shared/db/pool.ts';
import { addMembers, listMembers, removeFromCustomer, removeMembers, type MemberList } from '@cc/shared/db/customers-write.ts';
import { existingUserIds } from '@cc/shared/db/users-admin.ts';
import { refreshClaims } from '@cc/shared/db/users.ts';
import { isEmail, normaliseEmail, EMAIL_NOT_VALID } from '@cc/shared/emails.ts';
import { InputError } from '@cc/shared/input-error.ts';
import { CustomerDocument, MemberListBody, MemberListParams } from '@cc/shared/schemas/customers.ts';
import { withErrors } from '@cc/shared/schemas/common.ts';
import { errors } from '../../errors.ts';

type Change = 'set' | 'add' | 'remove';

function emailsOf(raw: string[]): string[] {
  const emails = [...new Set(raw.map(normaliseEmail))];
  const bad = emails.filter((e) => !isEmail(e));
  if (bad.length) throw new InputError(`${EMAIL_NOT_VALID}: ${bad.join(', ')}`);
  return emails;
}

/**
 * Applies one change to a customer's list and returns the users whose access changed. Leaving `users`
 * means losing the customer: the user also leaves its notify and alert lists and their viewer filters there.
 */
async function applyChange(db: Queryable, customerId: string, list: MemberList, change: Change, emails: string[]): Promise<string[]> {
  if (list === 'users' && change !== 'remove') {
    const known = await existingUserIds(db, emails);
    const unknown = emails.filter((e) => !known.includes(e));
    if (unknown.length) throw new InputError(`Unknown user(s): ${unknown.join(', ')}`);
  }
  const current = await listMembers(db, customerId, list);
  const toRemove = change === 'remove' ? emails.filter((e) => current.includes(e)) : change === 'set' ? current.filter((e) => !emails.includes(e)) : [];
  const toAdd = change === 'remove' ? [] : emails.filter((e) => !current.includes(e));
  if (toRemove.length) await (list === 'users' ? removeFromCustomer(db, customerId, toRemove) : removeMembers(db, customerId, list, toRemove));
  if (toAdd.length) await addMembers(db, customerId, list, toAdd);
  return list === 'users' ? [...toRemove, ...toAdd] : [];
}

const SUMMARY: Record<Change, string> = {
  set: 'Replace a customer list (users = User Access, notify = R.A.T Notification, alert = Billing Alert Notification)',
  add: 'Add e-mails to a customer list',
  remove: 'Remove e-mails from a customer list (leaving users removes the user from the customer altogether)',
};

/** The User Access, R.A.T Notification and Billing Alert Notification tabs (spec 001 §2.4, §4, §7). */
const customerLists: FastifyPluginAsyncTypebox = async (app) => {
  for (const [method, change] of [['PUT', 'set'], ['POST', 'add'], ['DELETE', 'remove']] as const) {
    app.route({
      method,
      url: '/v1/customers/:id/lists/:list/',
      config: { permission: 'customermanagement_update', tenant: { params: 'id' } },
      schema: {
        tags: ['customers'],
        summary: SUMMARY[change],
        params: MemberListParams,
        body: MemberListBody,
        response: withErrors({ 200: CustomerDocument }),
      },
      handler: async (req) => {
        const id = req.customer.customer_id;
        const { list } = req.params;
        const emails = emailsOf(req.body.users);
        const changed = await withTransaction(app.pg, async (tx) => {
          const users = await applyChange(tx, id, list, change, emails);
          // Filters are part of the stored claims: refresh so the change is effective on the user's next request.
          for (const u of users) await refreshClaims(tx, u);
          return users;
        });
        await app.userEvents.publish({ type: 'access', users: changed });
        const doc = await findCustomer(app.pg, id);
        if (!doc) throw new errors.customerNotFound();
        return doc;
      },
    });
  }
};
export default customerLists;
