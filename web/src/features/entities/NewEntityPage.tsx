import { useLocation } from 'wouter';
import type { PageProps } from '../../app/route-types.ts';
import { serverDetail } from '../../common/api-error.ts';
import { Page } from '../../common/Page.tsx';
import { useSnackbar } from '../../common/Snackbar.tsx';
import { EntityForm } from './EntityForm.tsx';
import { useCreateEntityMutation } from './entitiesApi.ts';

/** Creates an entity (spec 001 §2.6, §8), then returns to the list. */
export function NewEntityPage({ route }: PageProps) {
  const [, navigate] = useLocation();
  const { show } = useSnackbar();
  const [create, { isLoading }] = useCreateEntityMutation();
  return (
    <Page title={route.title}>
      <EntityForm
        initial={{ name: '', email_domain_allowed: '' }}
        submitLabel="Save"
        busy={isLoading}
        onCancel={() => navigate('/entitymanagement')}
        onSubmit={async (value) => {
          const result = await create(value);
          if ('error' in result) {
            show({ message: serverDetail(result.error) ?? 'Error saving Entity', variant: 'error' });
            return;
          }
          show({ message: `${value.name} successfully saved`, variant: 'success' });
          navigate(`/entitymanagement/update/${encodeURIComponent(result.data.id)}`);
        }}
      />
    </Page>
  );
}
