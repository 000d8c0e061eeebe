import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { findCustomer } from '@cc/shared/db/customers.ts';
import { withTransaction, type Queryable } from '@cc/shared/db/pool.ts';
import { entityExists } from '@cc/shared/db/entities.ts';
import { billingAccountsOfOthers, findCustomerRecord, insertCustomer, updateCustomer } from '@cc/shared/db/customers-write.ts';
import { customerIdFrom, newCustomerBase, resolveCustomer, type CustomerRecord } from '@cc/shared/customers/rules.ts';
import { InputError } from '@cc/shared/input-error.ts';
import { customerRequired, customerSchemaMessage, type SchemaFailure } from '@cc/shared/customers/messages.ts';
import { CustomerCreate, CustomerDocument, CustomerParams, CustomerUpdate } from '@cc/shared/schemas/customers.ts';
import { withErrors } from '@cc/shared/schemas/common.ts';
import { errors } from '../../errors.ts';

/** Checks what needs the store: the entity exists, and no billing account is another customer's. */
async function checkReferences(db: Queryable, c: CustomerRecord): Promise<void> {
  if (!(await entityExists(db, c.entity!))) throw new InputError('Entity not found');
  const taken = await billingAccountsOfOthers(db, c.billing_account_ids, c.customer_id);
  if (taken.length) {
    throw new InputError(taken.map((t) => `Billing account ${t.account} already belongs to customer ${t.customer_id}`).join('; '));
  }
}

/**
 * A customer body that fails its schema answers one sentence naming the field by its form label
 * (shared/src/customers/messages.ts), not ajv's "body/… must match a schema in anyOf". Fastify answers the
 * returned error as 400 through the one error handler, so the body stays `{ detail }`.
 */
const schemaErrorFormatter = (failures: SchemaFailure[]) => new InputError(customerSchemaMessage(failures));

async function answer(app: FastifyInstance, customerId: string) {
  const doc = await findCustomer(app.pg, customerId);
  if (!doc) throw new errors.customerNotFound();
  return doc;
}

/**
 * Customer create and update (spec 000 §7 Customers, 001 §2.4, §5): every rule of the form is applied
 * here too (shared/src/customers/rules.ts), so nothing inconsistent is ever stored.
 */
const customersWrite: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/v1/customers/',
    {
      // The body's customer_id names a customer that does not exist yet: there is no tenant to check, and
      // only admins hold customermanagement_create.
      config: { permission: 'customermanagement_create', tenant: { resolve: async () => undefined } },
      schema: {
        tags: ['customers'],
        summary: 'Create a customer (customer_id derived from the name when omitted)',
        body: CustomerCreate,
        response: withErrors({ 201: CustomerDocument }),
      },
      schemaErrorFormatter,
    },
    async (req, reply) => {
      const body = req.body;
      if (!body.customer_name?.trim()) throw new InputError(customerRequired('customer_name'));
      const customerId = customerIdFrom(body.customer_id?.trim() ? body.customer_id : body.customer_name);
      const record = resolveCustomer(body, newCustomerBase(customerId));
      await withTransaction(app.pg, async (tx) => {
        await checkReferences(tx, record);
        if (!(await insertCustomer(tx, record))) throw new InputError(`Customer ${customerId} already exists`);
      });
      return reply.code(201).send(await answer(app, customerId));
    },
  );

  app.put(
    '/v1/customers/:id/',
    {
      config: { permission: 'customermanagement_update', tenant: { params: 'id' } },
      schema: {
        tags: ['customers'],
        summary: 'Update a customer’s settings (omitted fields keep their value; the id is read-only)',
        params: CustomerParams,
        body: CustomerUpdate,
        response: withErrors({ 200: CustomerDocument }),
      },
      schemaErrorFormatter,
    },
    async (req) => {
      await withTransaction(app.pg, async (tx) => {
        const stored = await findCustomerRecord(tx, req.customer.customer_id, true);
        if (!stored) throw new errors.customerNotFound();
        const record = resolveCustomer(req.body, stored);
        await checkReferences(tx, record);
        await updateCustomer(tx, record);
      });
      return answer(app, req.customer.customer_id);
    },
  );
};
export default customersWrite;
