import { useState, type FormEvent } from 'react';
import { Banner, Button, FormControl, Select } from '@primer/react';
import { useLocation } from 'wouter';
import { FIELD_LABELS } from '@cc/shared/provisioning/rules.ts';
import type { ProvisioningChoices } from '@cc/shared/schemas/provisioning.ts';
import type { PageProps } from '../../app/route-types.ts';
import { useSelectedCustomer } from '../../app/selection/useCustomerContext.ts';
import { errorDetail, serverDetail } from '../../common/api-error.ts';
import { Page, PageLoading } from '../../common/Page.tsx';
import { useSnackbar } from '../../common/Snackbar.tsx';
import styles from '../../common/forms.module.css';
import { DerivedDetails } from './DerivedDetails.tsx';
import { EMPTY_CHOICE, PROJECT_FIELDS, deriveProject, missingFields, type ProjectChoice, type ProjectField } from './project-form.ts';
import { useCheckProjectQuery, useCreateProjectMutation, useGetProvisioningChoicesQuery } from './provisioningApi.ts';

const OPTIONS: Record<ProjectField, (c: ProvisioningChoices) => string[]> = {
  bu: (c) => c.business_units,
  product: (c) => c.products,
  env: (c) => c.env,
  owner_value: (c) => c.owner_values,
  template_name: (c) => c.project_provisioning.map((t) => t.template_name),
};

/**
 * 'New Project' (spec 000 §2 /projectprovisioning/new, §5): five required selects; what the chosen template makes
 * of them (generated id, label, quotas, budget, folder) is shown, and the id is checked before submit — against
 * Google's rules here, and against existing requests by the api — so a bad id is a message, not a failed job.
 */
export function NewProjectPage({ route }: PageProps) {
  const { selected } = useSelectedCustomer();
  const customer = selected?.id ?? '';
  const { currentData: choices, error } = useGetProvisioningChoicesQuery(customer, { skip: !customer });
  if (error) {
    return (
      <Page title={route.title}>
        <Banner variant="critical" title="The project templates could not be loaded" description={errorDetail(error) ?? 'Please try again...'} />
      </Page>
    );
  }
  if (!choices) return <PageLoading />;
  if (choices.project_provisioning.length === 0) {
    // five required choices with nothing to choose from would look broken: say why, and who can change it
    return (
      <Page title={route.title}>
        <Banner
          variant="info"
          title={`${selected?.name ?? 'This customer'} has no project templates yet`}
          description="A project is created from one of the customer's templates. Your provider's administrator adds them in Customer Management."
        />
      </Page>
    );
  }
  return (
    <Page title={route.title}>
      <NewProjectForm customer={customer} choices={choices} />
    </Page>
  );
}

function NewProjectForm({ customer, choices }: { customer: string; choices: ProvisioningChoices }) {
  const [, navigate] = useLocation();
  const { show } = useSnackbar();
  const [choice, setChoice] = useState<ProjectChoice>(EMPTY_CHOICE);
  const [submitted, setSubmitted] = useState(false);
  const [create, { isLoading }] = useCreateProjectMutation();
  const derived = deriveProject(choice, choices.project_provisioning);
  const missing = missingFields(choice);
  const complete = Object.keys(missing).length === 0;
  const check = useCheckProjectQuery({ customer, choice }, { skip: !complete || derived?.idProblem != null });
  // Only the answer for these very choices counts: a stale one could clear or show the wrong message.
  const checked = complete && !check.isFetching ? check.currentData : undefined;
  const idProblem = derived?.idProblem ?? checked?.problem ?? null;
  const errors = submitted ? missing : {};

  async function submit(event: FormEvent) {
    event.preventDefault();
    setSubmitted(true);
    if (!complete || idProblem || !checked) return;
    const result = await create({ customer_id: customer, ...choice });
    if ('error' in result) {
      show({ message: `Error creating Project ${serverDetail(result.error) ?? errorDetail(result.error) ?? ''}`.trim(), variant: 'error' });
      return;
    }
    show({ message: 'Project successfully created', variant: 'success' });
    navigate('/projectprovisioning');
  }

  return (
    <form className={styles.form} onSubmit={(e) => void submit(e)} noValidate aria-label="New Project">
      {PROJECT_FIELDS.map((field) => (
        <FormControl key={field} required id={`project-${field}`}>
          <FormControl.Label>{FIELD_LABELS[field]}</FormControl.Label>
          <Select block value={choice[field]} onChange={(e) => setChoice({ ...choice, [field]: e.target.value })} validationStatus={errors[field] ? 'error' : undefined}>
            <Select.Option value="">Choose…</Select.Option>
            {OPTIONS[field](choices).map((v) => (
              <Select.Option key={v} value={v}>
                {v}
              </Select.Option>
            ))}
          </Select>
          {errors[field] ? <FormControl.Validation variant="error">{errors[field]}</FormControl.Validation> : null}
        </FormControl>
      ))}
      {derived ? <DerivedDetails derived={derived} currency={choices.billing_currency} idProblem={idProblem} checking={complete && !idProblem && !checked} /> : null}
      <div className={styles.buttons}>
        <Button type="submit" variant="primary" loading={isLoading} disabled={Boolean(idProblem)}>
          Save
        </Button>
        <Button onClick={() => navigate('/projectprovisioning')}>Cancel</Button>
      </div>
    </form>
  );
}
