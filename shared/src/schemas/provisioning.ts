/**
 * Request and response schemas of project provisioning (spec 000 §2 /projectprovisioning, §7 Project provisioning;
 * docs/decisions-provisioning.md). The 'New Project' form and the list are built from this file.
 *
 * | method | path                                            | permission                 | tenant             |
 * |--------|-------------------------------------------------|----------------------------|--------------------|
 * | POST   | /v1/asset-inventory/project/create              | projectprovisioning_create | body customer_id   |
 * | GET    | /v1/projectprovisioning/:customer/              | projectprovisioning_create | params customer    |
 * | GET    | /v1/projectprovisioning/:customer/choices       | projectprovisioning_create | params customer    |
 * | GET    | /v1/projectprovisioning/:customer/check         | projectprovisioning_create | params customer    |
 * | POST   | /v1/projectprovisioning/:customer/approve       | admin                      | params customer    |
 * | POST   | /v1/projectprovisioning/:customer/reject        | admin                      | params customer    |
 * | POST   | /v1/projectprovisioning/:customer/retry         | admin                      | params customer    |
 *
 * - Create: blank choices answer 400 '{Business Unit|Product|Environment|Cost Owner|Project Template}: This field
 *   is required'; a choice not in the customer's lists, a generated id or label against Google's rules → 400 with
 *   the rule's message; an id held by a live request → 409 'A request for project '{id}' already exists' (this
 *   customer) or 'Project id '{id}' is already taken' (another). The body's folder and template are ignored: the
 *   template is the customer's of that name.
 * - List: one page by project name (`limit`, default 100, up to 500; `offset`); X-Total-Count holds the count of all.
 * - Check: the same checks without saving; `problem` is the message create would answer, or null.
 * - Approve / reject / retry take the selected ids; ids that are not pending (reject: pending or Failed; retry:
 *   Failed), unknown or of another customer are refused with their state (null when unknown) and never moved.
 */
import { Type, type Static } from '@sinclair/typebox';
import { PROJECT_STATES, PROVISIONING_STEPS } from '../provisioning/rules.ts';
import { ProjectTemplate } from './customers.ts';
import { Limit, Offset } from './common.ts';

export const ProvisioningParams = Type.Object({ customer: Type.String({ minLength: 1 }) });
/** One page of the project list; the count of all rides in X-Total-Count. */
export const ProjectListQuery = Type.Object({ limit: Type.Optional(Limit(500, 100)), offset: Type.Optional(Offset()) });

const Choice = Type.Optional(Type.String({ maxLength: 200 }));
const NewProjectFields = { bu: Choice, product: Choice, env: Choice, owner_value: Choice, template_name: Choice };

/** Spec 000 §7's body. folder_name, folder_number, project_type and project_template are accepted and ignored. */
export const ProjectCreateBody = Type.Object({
  customer_id: Type.String({ minLength: 1 }),
  ...NewProjectFields,
  folder_name: Type.Optional(Type.Unknown()),
  folder_number: Type.Optional(Type.Unknown()),
  project_type: Type.Optional(Type.Unknown()),
  project_template: Type.Optional(Type.Unknown()),
});
export type ProjectCreateBody = Static<typeof ProjectCreateBody>;

export const ProjectCheckQuery = Type.Object(NewProjectFields);
export type ProjectCheckQuery = Static<typeof ProjectCheckQuery>;

export const ProjectCheck = Type.Object({
  /** The generated id; null when a choice is missing or not the customer's. */
  project_name: Type.Union([Type.String(), Type.Null()]),
  labels: Type.Union([Type.Record(Type.String(), Type.String()), Type.Null()]),
  problem: Type.Union([Type.String(), Type.Null()]),
});
export type ProjectCheck = Static<typeof ProjectCheck>;

export const ProvisioningChoices = Type.Object({
  business_units: Type.Array(Type.String()),
  products: Type.Array(Type.String()),
  env: Type.Array(Type.String()),
  owner_values: Type.Array(Type.String()),
  project_provisioning: Type.Array(ProjectTemplate),
  /** The budget's currency (the customer's billing_currency). */
  billing_currency: Type.String(),
});
export type ProvisioningChoices = Static<typeof ProvisioningChoices>;

const Nullable = <T extends ReturnType<typeof Type.String>>(t: T) => Type.Union([t, Type.Null()]);
const StateSchema = Type.Union(PROJECT_STATES.map((s) => Type.Literal(s)));
const StepSchema = Type.Union(PROVISIONING_STEPS.map((s) => Type.Literal(s)));

/** Spec 000 §3's Project record (project_name, state, project_type, folder_name, project_template, customer_id, id) and its progress. */
export const ProjectRecord = Type.Object({
  id: Type.String(),
  customer_id: Type.String(),
  project_name: Type.String(),
  state: StateSchema,
  project_type: Type.String(),
  folder_name: Type.String(),
  folder_number: Type.String(),
  template_name: Type.String(),
  project_template: ProjectTemplate.properties.project_template,
  bu: Type.String(),
  product: Type.String(),
  env: Type.String(),
  owner_value: Type.String(),
  requester: Type.String(),
  current_step: Type.Union([StepSchema, Type.Null()]),
  /** What the row shows while Creating (the current step) or when Failed (the failing step). */
  step_label: Nullable(Type.String()),
  failed_step: Type.Union([StepSchema, Type.Null()]),
  error: Nullable(Type.String()),
  /**
   * How the budget was set, once it was: the amount in the billing account's currency and, when that is not the
   * portal's, the rate it was converted at (e.g. "1087.00 USD a month (the billing account's currency): the
   * template's 1000 EUR at 1.087 USD per EUR of 2026-11-27").
   */
  budget_note: Nullable(Type.String()),
  project_number: Nullable(Type.String()),
  decided_by: Nullable(Type.String()),
  decided_at: Nullable(Type.String()),
  created_at: Type.String(),
  completed_at: Nullable(Type.String()),
});
export type ProjectRecord = Static<typeof ProjectRecord>;
export const ProjectRecordList = Type.Array(ProjectRecord);

export const ProjectIdsBody = Type.Object({ ids: Type.Array(Type.String({ maxLength: 100 }), { minItems: 1, maxItems: 500 }) });
export type ProjectIdsBody = Static<typeof ProjectIdsBody>;

const Refused = Type.Array(Type.Object({ id: Type.String(), state: Type.Union([StateSchema, Type.Null()]) }));
export const ProjectApproveAnswer = Type.Object({ approved: ProjectRecordList, refused: Refused });
export type ProjectApproveAnswer = Static<typeof ProjectApproveAnswer>;
export const ProjectRejectAnswer = Type.Object({ rejected: ProjectRecordList, refused: Refused });
export const ProjectRetryAnswer = Type.Object({ retried: ProjectRecordList, refused: Refused });
export type ProjectRejectAnswer = Static<typeof ProjectRejectAnswer>;
export type ProjectRetryAnswer = Static<typeof ProjectRetryAnswer>;
