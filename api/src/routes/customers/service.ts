import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { findCustomerRecord } from '@cc/shared/db/customers-write.ts';
import { InputError } from '@cc/shared/input-error.ts';
import { parseProjectIds, serviceAccountScript } from '@cc/shared/customers/service-script.ts';
import { CustomerParams, ScriptAnswer, ScriptRequest, ServiceAccessAnswer } from '@cc/shared/schemas/customers.ts';
import { withErrors } from '@cc/shared/schemas/common.ts';
import { errors } from '../../errors.ts';
import { cloudProjectsFromConfig } from '@cc/shared/adapters/cloud-projects/from-config.ts';

const NO_SERVICE_ACCOUNT = 'This customer has no service account';

/** Advanced Settings (spec 001 §2.4): granted GCP projects, and the grant / revoke script generator. */
const serviceAccess: FastifyPluginAsyncTypebox = async (app) => {
  const projects = cloudProjectsFromConfig(app.config, app.pg);

  async function withServiceAccount(customerId: string) {
    const customer = await findCustomerRecord(app.pg, customerId);
    if (!customer) throw new errors.customerNotFound();
    if (!customer.gcp_service_account || !customer.service_account_email) throw new InputError(NO_SERVICE_ACCOUNT);
    return customer;
  }

  app.get(
    '/v1/customers/:id/service/access/',
    {
      config: { permission: 'customermanagement_read', tenant: { params: 'id' } },
      schema: {
        tags: ['customers'],
        summary: 'GCP projects the customer’s service account has been granted',
        params: CustomerParams,
        response: withErrors({ 200: ServiceAccessAnswer }),
      },
    },
    async (req) => {
      const customer = await withServiceAccount(req.customer.customer_id);
      return { service_account_email: customer.service_account_email, projects: await projects.grantedProjects(customer) };
    },
  );

  app.post(
    '/v1/customers/:id/service/script/',
    {
      config: { permission: 'customermanagement_update', tenant: { params: 'id' } },
      schema: {
        tags: ['customers'],
        summary: 'Cloud-shell script granting or revoking the service account’s access to projects',
        params: CustomerParams,
        body: ScriptRequest,
        response: withErrors({ 200: ScriptAnswer }),
      },
    },
    async (req) => {
      if (req.body.customer_id !== undefined && req.body.customer_id !== req.customer.customer_id) {
        throw new InputError('customer_id does not match the customer in the path');
      }
      const customer = await withServiceAccount(req.customer.customer_id);
      const ids = parseProjectIds(req.body.project_ids);
      return { script: serviceAccountScript(req.body.action, customer.service_account_email, ids) };
    },
  );
};
export default serviceAccess;
