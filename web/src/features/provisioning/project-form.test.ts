import t from 'tap';
import type { ProjectTemplate } from '@cc/shared/provisioning/rules.ts';
import { EMPTY_CHOICE, deriveProject, missingFields } from './project-form.ts';

const TEMPLATE: ProjectTemplate = {
  template_name: 'Standard',
  folder_name: 'analytics',
  folder_number: '123',
  project_template: { project_type: 'analytics', default_admin: 'a@x.example', budget: 10, owner_label: 'cost-owner', project_name: 'acme-{bu}-{product}-{env}', quota: { bigquery_analysis: 1, compute_engine_cpus: 2 } },
};

t.test('spec 000 §5: all five selects are required', async (t) => {
  const req = 'This field is required';
  t.same(missingFields(EMPTY_CHOICE), { bu: req, product: req, env: req, owner_value: req, template_name: req });
  t.same(missingFields({ bu: 'retail', product: 'shop', env: 'dev', owner_value: 'alice', template_name: 'Standard' }), {});
});

t.test('the id and label come from the chosen template; an id breaking Google’s rules is named', async (t) => {
  t.equal(deriveProject(EMPTY_CHOICE, [TEMPLATE]), null, 'nothing before a template is chosen');
  t.match(deriveProject({ ...EMPTY_CHOICE, template_name: 'Standard', bu: 'retail' }, [TEMPLATE]), {
    projectId: 'acme-retail-{product}-{env}',
    label: 'cost-owner',
    idProblem: null,
  });
  t.match(deriveProject({ bu: 'retail', product: 'shop', env: 'dev', owner_value: 'alice', template_name: 'Standard' }, [TEMPLATE]), {
    projectId: 'acme-retail-shop-dev',
    label: 'cost-owner = alice',
    idProblem: null,
  });
  t.equal(
    deriveProject({ bu: 'Retail', product: 'shop', env: 'dev', owner_value: 'alice', template_name: 'Standard' }, [TEMPLATE])?.idProblem,
    "Project id 'acme-Retail-shop-dev' may contain only lower-case letters, digits and hyphens",
  );
});
