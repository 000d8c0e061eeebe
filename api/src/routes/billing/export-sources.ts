import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { withErrors } from '@cc/shared/schemas/common.ts';
import { ExportSourceBody, ExportSourceList, ExportSourceView, KIND_SETTINGS, REQUIRED_SETTINGS } from '@cc/shared/schemas/billing-export-sources.ts';
import { deleteExportSource, findExportSource, saveExportSource, type ExportSourceRow } from '@cc/shared/db/billing-export-sources.ts';
import { parseAccessKey } from '@cc/shared/adapters/billing-exports/aws-data-exports/from-config.ts';
import { secretBoxFromConfig } from '@cc/shared/secrets-key.ts';
import { errors } from '../../errors.ts';

const Params = Type.Object({ customer: Type.String({ minLength: 1, maxLength: 200 }) });
const AccountParams = Type.Object({ customer: Type.String({ minLength: 1, maxLength: 200 }), account: Type.String({ minLength: 1, maxLength: 200 }) });

const view = (r: ExportSourceRow): ExportSourceView => ({
  billing_account_id: r.billing_account_id,
  kind: r.kind,
  settings: r.settings,
  has_secret: r.secret_sealed !== null,
  last_checked_at: r.last_checked_at,
  last_error: r.last_error,
  last_delivery: r.last_delivery,
});

/**
 * Admin: where each billing account's AWS or Azure FOCUS export is read from (the nightly job reads it). The secret
 * is sealed with the secrets key, bound to the billing account, and never answered.
 */
const exportSources: FastifyPluginAsyncTypebox = async (app) => {
  const box = secretBoxFromConfig(app.config);
  const accountOf = (customer: { billing_account_ids: string[] }, account: string) => {
    if (!customer.billing_account_ids.includes(account)) throw new errors.notFound(`billing account ${account} is not an account of this customer`);
  };

  app.get(
    '/v2/billing/export-sources/:customer',
    {
      config: { permission: 'admin', tenant: { params: 'customer' }, readOnly: true },
      schema: { tags: ['billing'], summary: 'AWS and Azure export settings of a customer (admin)', params: Params, response: withErrors({ 200: ExportSourceList }) },
    },
    async (req) => {
      const sources: ExportSourceView[] = [];
      for (const account of req.customer.billing_account_ids) {
        const row = await findExportSource(app.pg, account);
        if (row && row.customer_id === req.customer.customer_id) sources.push(view(row));
      }
      return { sources };
    },
  );

  app.put(
    '/v2/billing/export-sources/:customer/:account',
    {
      config: { permission: 'admin', tenant: { params: 'customer' } },
      schema: { tags: ['billing'], summary: "Set where a billing account's AWS or Azure export is read (admin)", params: AccountParams, body: ExportSourceBody, response: withErrors({ 200: ExportSourceView }) },
    },
    async (req) => {
      const { account } = req.params;
      accountOf(req.customer, account);
      const { kind, secret } = req.body;
      const settings: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.body.settings)) {
        if (v === undefined || v.trim() === '') continue;
        if (!(KIND_SETTINGS[kind] as string[]).includes(k)) throw new errors.badRequest(`settings.${k}: not a setting of ${kind}`);
        settings[k] = v.trim();
      }
      const missing = REQUIRED_SETTINGS[kind].filter((k) => !settings[k]);
      if (missing.length) throw new errors.badRequest(`settings.${missing[0]}: This field is required for ${kind}`);
      if (kind === 'aws-data-exports' && secret) {
        try {
          parseAccessKey(secret);
        } catch (err) {
          throw new errors.badRequest(`secret: ${(err as Error).message}`);
        }
      }
      const existing = await findExportSource(app.pg, account);
      if (existing && existing.customer_id !== req.customer.customer_id) throw new errors.notFound(`billing account ${account} is not an account of this customer`);
      await saveExportSource(app.pg, {
        billingAccountId: account,
        customerId: req.customer.customer_id,
        kind,
        settings,
        // a secret is kept only for the kind it was given for
        secretSealed: secret === undefined && existing?.kind === kind ? undefined : secret ? box.seal(secret, account) : null,
      });
      return view((await findExportSource(app.pg, account))!);
    },
  );

  app.delete(
    '/v2/billing/export-sources/:customer/:account',
    {
      config: { permission: 'admin', tenant: { params: 'customer' } },
      schema: { tags: ['billing'], summary: "Stop reading a billing account's AWS or Azure export (admin)", params: AccountParams, response: withErrors({ 204: Type.Null() }) },
    },
    async (req, reply) => {
      accountOf(req.customer, req.params.account);
      const existing = await findExportSource(app.pg, req.params.account);
      if (!existing || existing.customer_id !== req.customer.customer_id) throw new errors.notFound('no export is configured for this billing account');
      await deleteExportSource(app.pg, req.params.account);
      return reply.code(204).send(null);
    },
  );
};
export default exportSources;
