import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { createProjectRequest, findProvisioningChoices, projectNameHolder, projectRequestPageJson, ProjectNameTaken } from '@cc/shared/db/provisioning.ts';
import { InputError } from '@cc/shared/input-error.ts';
import { checkNewProject, generateProjectId, type NewProjectInput, type ProjectTemplate } from '@cc/shared/provisioning/rules.ts';
import { ErrorBody, withErrors } from '@cc/shared/schemas/common.ts';
import {
  ProjectCheck,
  ProjectCheckQuery,
  ProjectCreateBody,
  ProjectListQuery,
  ProjectRecord,
  ProjectRecordList,
  ProvisioningChoices,
  ProvisioningParams,
} from '@cc/shared/schemas/provisioning.ts';
import { errors } from '../../errors.ts';
import { toRecord } from '../../provisioning/present.ts';
import decisions from './decide.ts';

const tags = ['provisioning'];

async function choicesOf(app: FastifyInstance, customerId: string) {
  const c = await findProvisioningChoices(app.pg, customerId);
  if (!c) throw new errors.customerNotFound();
  return { ...c, project_provisioning: c.project_provisioning as ProjectTemplate[] };
}

/** The id the choices make, when a template and the three placeholders' choices are there (even a bad one, to show it). */
function generatedId(input: NewProjectInput, templates: ProjectTemplate[]): string | null {
  const t = templates.find((x) => x.template_name === input.template_name?.trim());
  const [bu, product, env] = [input.bu, input.product, input.env].map((v) => v?.trim() ?? '');
  return t && bu && product && env ? generateProjectId(t.project_template.project_name, { bu, product, env }) : null;
}

/**
 * Project provisioning (spec 000 §2, §7; docs/decisions-provisioning.md): a customer requests a project from one
 * of its templates; the provider's admins approve (decide.ts); the provisioning worker creates it.
 */
const provisioning: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/v1/asset-inventory/project/create',
    {
      config: { permission: 'projectprovisioning_create', tenant: { body: 'customer_id' } },
      schema: {
        tags,
        summary: 'Request a new GCP project from one of the customer’s templates (Pending approval)',
        body: ProjectCreateBody,
        response: withErrors({ 201: ProjectRecord, 409: ErrorBody }),
      },
    },
    async (req, reply) => {
      const customerId = req.customer.customer_id;
      const checked = checkNewProject(req.body, await choicesOf(app, customerId));
      const row = await createProjectRequest(app.pg, { customerId, requester: req.auth!.email, checked });
      return reply.code(201).send(toRecord(row));
    },
  );

  app.get(
    '/v1/projectprovisioning/:customer/',
    {
      config: { permission: 'projectprovisioning_create', tenant: { params: 'customer' } },
      schema: {
        tags,
        summary: 'The customer’s project requests, by project name (one page: limit/offset; X-Total-Count holds the count of all)',
        params: ProvisioningParams,
        querystring: ProjectListQuery,
        response: withErrors({ 200: ProjectRecordList }),
      },
    },
    async (req, reply) => {
      const id = req.customer.customer_id;
      const page = { offset: req.query.offset ?? 0, limit: req.query.limit ?? 100 };
      const { total, items } = await app.pgRead.fresh((db) => projectRequestPageJson(db, id, page));
      // the body stays the list it was; the screen pages on the server with the count from the header
      void reply.header('x-total-count', String(total));
      // JSON text made by PostgreSQL in the schema's shape, sent as it is (Fastify serialises only non-strings)
      reply.type('application/json; charset=utf-8');
      return reply.send(items as unknown as Static<typeof ProjectRecordList>);
    },
  );

  app.get(
    '/v1/projectprovisioning/:customer/choices',
    {
      config: { permission: 'projectprovisioning_create', tenant: { params: 'customer' } },
      schema: { tags, summary: 'What the New Project form chooses from, and the budget currency', params: ProvisioningParams, response: withErrors({ 200: ProvisioningChoices }) },
    },
    async (req) => choicesOf(app, req.customer.customer_id),
  );

  app.get(
    '/v1/projectprovisioning/:customer/check',
    {
      config: { permission: 'projectprovisioning_create', tenant: { params: 'customer' } },
      schema: {
        tags,
        summary: 'The generated project id and labels of these choices, and what create would refuse (before submit)',
        params: ProvisioningParams,
        querystring: ProjectCheckQuery,
        response: withErrors({ 200: ProjectCheck }),
      },
    },
    async (req) => {
      const customerId = req.customer.customer_id;
      const choices = await choicesOf(app, customerId);
      try {
        const c = checkNewProject(req.query, choices);
        const holder = await projectNameHolder(app.pg, c.project_name);
        return {
          project_name: c.project_name,
          labels: { [c.template.project_template.owner_label]: c.owner_value },
          problem: holder ? new ProjectNameTaken(c.project_name, holder === customerId).message : null,
        };
      } catch (err) {
        if (!(err instanceof InputError)) throw err;
        return { project_name: generatedId(req.query, choices.project_provisioning), labels: null, problem: err.message };
      }
    },
  );

  await app.register(decisions);
};

export default provisioning;
