import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { TenantCustomer } from '@cc/shared/db/customers.ts';
import { playbookFromConfig } from '@cc/shared/adapters/playbook/from-config.ts';
import { withErrors } from '@cc/shared/schemas/common.ts';
import { CustomerParams, PlaybookDocParams, PlaybookList } from '@cc/shared/schemas/playbook.ts';
import { errors } from '../../errors.ts';

const docPath = (customer: string, id: string) => `/v1/gdrive/customers/${encodeURIComponent(customer)}/folders/playbooks/${encodeURIComponent(id)}`;

/**
 * The Playbook (spec 001 §2.11, §7): the documents of the customer's drive folder (drive_id), or of the built-in
 * folder (PLAYBOOK_BUILTIN_FOLDER) when it has none. Locally the api also serves each document for the preview.
 */
const playbook: FastifyPluginAsyncTypebox = async (app) => {
  const adapter = await playbookFromConfig(app.config);
  const folderOf = (customer: TenantCustomer) => customer.drive_id || app.config.PLAYBOOK_BUILTIN_FOLDER;
  // The customer's documentation flag gates the area (spec 001 §2.11, `feature`).
  const config = { permission: 'playbook_read', tenant: { params: 'customer' }, feature: 'documentation' } as const;

  app.get(
    '/v1/gdrive/customers/:customer/folders/playbooks/',
    {
      config,
      schema: { tags: ['playbook'], summary: 'The documents of the customer’s playbook folder', params: CustomerParams, response: withErrors({ 200: PlaybookList }) },
    },
    async (req) => {
      const files = await adapter.list(folderOf(req.customer));
      return files.map((f) => ({ id: f.id, name: f.name, url: f.webViewLink ?? docPath(req.customer.customer_id, f.id) }));
    },
  );

  app.get(
    '/v1/gdrive/customers/:customer/folders/playbooks/:id',
    {
      config,
      schema: { tags: ['playbook'], summary: 'One playbook document, for the preview (local playbooks)', params: PlaybookDocParams },
    },
    async (req, reply) => {
      const doc = await adapter.open(folderOf(req.customer), req.params.id);
      if (!doc) throw new errors.notFound('Document not found');
      return reply
        .header('content-type', doc.contentType)
        .header('content-disposition', `inline; filename*=UTF-8''${encodeURIComponent(doc.name)}`)
        .header('x-content-type-options', 'nosniff')
        // A document is shown, never run: no scripts, no requests of its own, its own origin.
        .header('content-security-policy', "default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'; sandbox")
        .send(doc.bytes);
    },
  );
};

export default playbook;
