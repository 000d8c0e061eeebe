import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { withTransaction } from '@cc/shared/db/pool.ts';
import { addEntityAdmins, entityIdsLike, findEntity, insertEntity, listEntities, removeEntityAdmins, updateEntity } from '@cc/shared/db/entities.ts';
import { existingUserIds } from '@cc/shared/db/users-admin.ts';
import { entityIdFrom, parseEmailDomains } from '@cc/shared/entities/rules.ts';
import { isEmail, normaliseEmail, EMAIL_NOT_VALID } from '@cc/shared/emails.ts';
import { InputError, required } from '@cc/shared/input-error.ts';
import { Entity, EntityAdminsBody, EntityInput, EntityParams } from '@cc/shared/schemas/entities.ts';
import { withErrors } from '@cc/shared/schemas/common.ts';
import { errors } from '../../errors.ts';

const entityNotFound = () => new errors.notFound('Entity not found');

function nameOf(raw: string): string {
  const name = raw.trim();
  if (name === '') throw required('name');
  return name;
}

/** Entity management (spec 001 §2.6, §7): list, create, update, admins. */
const entities: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/v1/entities/',
    {
      config: { permission: 'entitymanagement_read', tenant: 'none' },
      schema: { tags: ['entities'], summary: 'Every entity, ordered by name', response: withErrors({ 200: Type.Array(Entity) }) },
    },
    async () => listEntities(app.pg),
  );

  app.post(
    '/v1/entities/',
    {
      config: { permission: 'entitymanagement_create', tenant: 'none' },
      schema: { tags: ['entities'], summary: 'Create an entity (id derived from the name)', body: EntityInput, response: withErrors({ 201: Entity }) },
    },
    async (req, reply) => {
      const name = nameOf(req.body.name);
      const email_domain_allowed = parseEmailDomains(req.body.email_domain_allowed ?? '');
      const id = await withTransaction(app.pg, async (tx) => {
        // Serialises concurrent creates of the same name so both get distinct ids rather than a conflict.
        await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', ['entity-create']);
        const base = entityIdFrom(name);
        const id = freeId(base, await entityIdsLike(tx, base));
        await insertEntity(tx, { id, name, email_domain_allowed });
        return id;
      });
      return reply.code(201).send((await findEntity(app.pg, id))!);
    },
  );

  app.get(
    '/v1/entities/:id/',
    {
      config: { permission: 'entitymanagement_read', tenant: 'none' },
      schema: { tags: ['entities'], summary: 'One entity with its admins', params: EntityParams, response: withErrors({ 200: Entity }) },
    },
    async (req) => (await findEntity(app.pg, req.params.id)) ?? Promise.reject(entityNotFound()),
  );

  app.put(
    '/v1/entities/:id/',
    {
      config: { permission: 'entitymanagement_update', tenant: 'none' },
      schema: { tags: ['entities'], summary: 'Update an entity’s name and allowed e-mail domains', params: EntityParams, body: EntityInput, response: withErrors({ 200: Entity }) },
    },
    async (req) => {
      const name = nameOf(req.body.name);
      const current = await findEntity(app.pg, req.params.id);
      if (!current) throw entityNotFound();
      const email_domain_allowed =
        req.body.email_domain_allowed === undefined ? current.email_domain_allowed : parseEmailDomains(req.body.email_domain_allowed);
      if (!(await updateEntity(app.pg, { id: req.params.id, name, email_domain_allowed }))) throw entityNotFound();
      return (await findEntity(app.pg, req.params.id))!;
    },
  );

  for (const [method, summary] of [
    ['POST', 'Add admins to an entity'],
    ['DELETE', 'Remove admins from an entity'],
  ] as const) {
    app.route({
      method,
      url: '/v1/entities/:id/admins/',
      config: { permission: 'entitymanagement_update', tenant: 'none' },
      schema: { tags: ['entities'], summary, params: EntityParams, body: EntityAdminsBody, response: withErrors({ 200: Entity }) },
      handler: async (req) => {
        const admins = [...new Set(req.body.admins.map(normaliseEmail))];
        const bad = admins.filter((a) => !isEmail(a));
        if (bad.length) throw new InputError(`${EMAIL_NOT_VALID}: ${bad.join(', ')}`);
        if (!(await findEntity(app.pg, req.params.id))) throw entityNotFound();
        if (method === 'POST') {
          const known = await existingUserIds(app.pg, admins);
          const unknown = admins.filter((a) => !known.includes(a));
          if (unknown.length) throw new InputError(`Unknown user(s): ${unknown.join(', ')}`);
          await addEntityAdmins(app.pg, req.params.id, admins);
        } else {
          await removeEntityAdmins(app.pg, req.params.id, admins);
        }
        return (await findEntity(app.pg, req.params.id))!;
      },
    });
  }
};
export default entities;

function freeId(base: string, taken: string[]): string {
  if (!taken.includes(base)) return base;
  for (let n = 2; ; n++) if (!taken.includes(`${base}-${n}`)) return `${base}-${n}`;
}
