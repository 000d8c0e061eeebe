import type { FastifyPluginAsyncTypebox, TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { randomUUID } from 'node:crypto';
import { withTransaction } from '@cc/shared/db/pool.ts';
import {
  countAttachments,
  findAttachment,
  listAttachments,
  findUpload,
  insertAttachment,
  insertUpload,
  markUploaded,
  softDeleteAttachment,
} from '@cc/shared/db/tickets/attachments.ts';
import { markTicketUpdated } from '@cc/shared/db/tickets/write.ts';
import { generatedName, verifyUploadSignature, type AttachmentStore } from '@cc/shared/ports/attachment-store.ts';
import { LIMITS, checkAttachmentCount, checkOpenForChanges } from '@cc/shared/tickets/rules.ts';
import { withErrors } from '@cc/shared/schemas/common.ts';
import {
  AddAttachmentBody,
  AttachmentDeleted,
  AttachmentParams,
  SignedUrlAnswer,
  SignedUrlQuery,
  TicketDetail,
  TicketKeyParams,
  UploadAnswer,
  UploadParams,
  UploadQuery,
} from '@cc/shared/schemas/tickets.ts';
import { errors } from '../../errors.ts';
import { enqueueSync, rule, ticketOr404, ticketTenant } from '../../tickets/context.ts';
import { checkFileBytes, checkUploads } from '../../tickets/uploads.ts';
import { detail } from '../../tickets/present.ts';

const tags = ['tickets'];
// Bodies up to twice the limit reach the handler and get the rule's 400; larger ones are cut off with 413.
const UPLOAD_BODY_LIMIT = 2 * LIMITS.attachmentBytes;

/** Attachments: signed upload URLs, the local upload target, attach and delete. */
export function ticketAttachments(store: AttachmentStore, signingKey: string): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/v1/jira/signed_url',
      {
        config: {
          permission: 'supportrequest_create',
          tenant: 'none',
          // Each answer writes a row and signs a URL: 60 a minute per user, far above a person attaching files.
          rateLimit: { max: 60, timeWindow: 60_000, keyGenerator: (req: FastifyRequest) => `upload-url:${req.auth?.email ?? req.ip}` },
        },
        schema: { tags, summary: 'A signed, expiring address to upload one file to', querystring: SignedUrlQuery, response: withErrors({ 200: SignedUrlAnswer }) },
      },
      async (req) => {
        const name = generatedName(randomUUID(), req.query.filename);
        const expires = new Date(Date.now() + app.config.UPLOAD_URL_TTL_SECONDS * 1000);
        await insertUpload(app.pg, { generated_name: name, file_name: req.query.filename.split(/[\\/]/).pop() || name.slice(37), issued_to: req.auth!.email, expires_at: expires });
        return { signed_url: await store.signedUploadUrl(name, expires), generated_name: name, expires_at: expires.toISOString() };
      },
    );

    // The local store's upload target. No sign-in: the HMAC signature over (name, expiry) is the permission, the
    // way a cloud storage signed URL is. Each URL takes one upload.
    await app.register(async (plain) => {
      const scope = plain.withTypeProvider<TypeBoxTypeProvider>();
      // Whatever the browser sends (a File's type, or none at all), the bytes are taken raw: the type is decided
      // from the content, and the json/text parsers of the parent scope must not turn a file into a string.
      scope.addHook('onRequest', async (req) => {
        req.headers['content-type'] = 'application/octet-stream';
      });
      scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: UPLOAD_BODY_LIMIT }, (_req, body, done) => done(null, body));
      scope.put(
        '/v1/jira/uploads/:generated_name',
        {
          config: { permission: 'public', tenant: 'none' },
          bodyLimit: UPLOAD_BODY_LIMIT,
          schema: { tags, summary: 'Upload target of a local signed URL (raw bytes)', params: UploadParams, querystring: UploadQuery, response: withErrors({ 201: UploadAnswer }) },
        },
        async (req, reply) => {
          const name = req.params.generated_name;
          const verdict = verifyUploadSignature(signingKey, name, req.query.expires, req.query.signature);
          if (verdict === 'invalid') throw new errors.forbidden('Invalid upload signature');
          if (verdict === 'expired') throw new errors.forbidden('The upload URL has expired');
          const upload = await findUpload(app.pg, name);
          if (!upload) throw new errors.forbidden('Invalid upload signature');
          if (upload.uploaded_at) throw new errors.badRequest('This upload URL has already been used');
          const bytes = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
          const mime = checkFileBytes(bytes, upload.file_name);
          if (!(await markUploaded(app.pg, name, bytes.length, mime))) throw new errors.badRequest('This upload URL has already been used');
          await store.put(name, bytes);
          return reply.code(201).send({ generated_name: name, size: bytes.length, mime_type: mime });
        },
      );
    });

    app.patch(
      '/v1/jira/msp_tickets/:key/attachment',
      {
        config: { permission: 'supportrequest_update', tenant: ticketTenant(app), feature: 'support_request' },
        schema: { tags, summary: 'Attach an uploaded file', params: TicketKeyParams, body: AddAttachmentBody, response: withErrors({ 200: TicketDetail }) },
      },
      async (req) => {
        const user = req.auth!;
        const result = await withTransaction(app.pg, async (tx) => {
          const t = await ticketOr404(tx, req.params.key, { forUpdate: true });
          rule(() => checkOpenForChanges(t.status));
          const existing = await countAttachments(tx, t.id);
          rule(() => checkAttachmentCount(existing, 1));
          const [u] = await checkUploads(tx, store, [req.body.name], user.email);
          const id = randomUUID();
          await insertAttachment(tx, { id, ticket_id: t.id, file_name: u.file_name, stored_name: u.generated_name, mime_type: u.mime_type, size: u.size, author: user.email });
          await markTicketUpdated(tx, t.id, user.email);
          return { ticketId: t.id, attachmentId: id };
        });
        await enqueueSync(app, { op: 'attachment', ticket_id: result.ticketId, ref: result.attachmentId });
        const t = await ticketOr404(app.pg, result.ticketId);
        return detail(t, await listAttachments(app.pg, t.id));
      },
    );

    app.delete(
      '/v1/jira/msp_tickets/:key/attachment/:attachment_id',
      {
        config: { permission: 'supportrequest_update', tenant: ticketTenant(app), feature: 'support_request' },
        schema: { tags, summary: 'Delete an attachment', params: AttachmentParams, response: withErrors({ 200: AttachmentDeleted }) },
      },
      async (req) => {
        const user = req.auth!;
        const result = await withTransaction(app.pg, async (tx) => {
          const t = await ticketOr404(tx, req.params.key, { forUpdate: true });
          rule(() => checkOpenForChanges(t.status));
          const a = await findAttachment(tx, t.id, req.params.attachment_id);
          if (!a) throw new errors.notFound('Attachment not found');
          await softDeleteAttachment(tx, a.id);
          await markTicketUpdated(tx, t.id, user.email);
          return { ticketId: t.id, attachmentId: a.id };
        });
        await enqueueSync(app, { op: 'attachment-delete', ticket_id: result.ticketId, ref: result.attachmentId });
        return { id: result.attachmentId, deleted: true as const };
      },
    );
  };
}
