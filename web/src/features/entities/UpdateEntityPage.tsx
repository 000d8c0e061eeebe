import { UnderlinePanels } from '@primer/react/experimental';
import { useLocation } from 'wouter';
import { routeParam } from '../../common/route-param.ts';
import type { PageProps } from '../../app/route-types.ts';
import { errorDetail, serverDetail } from '../../common/api-error.ts';
import { Page, PageLoading, PageMessage } from '../../common/Page.tsx';
import { MemberList, type MemberChange } from '../../common/MemberList.tsx';
import { useSnackbar } from '../../common/Snackbar.tsx';
import { useAllUserIds } from '../users/usersApi.ts';
import { EntityForm } from './EntityForm.tsx';
import { useChangeEntityAdminsMutation, useGetEntityQuery, useUpdateEntityMutation } from './entitiesApi.ts';

/** Tabs Entity Info and Entity Admin (spec 001 §2.6); admin changes go through 'Please confirm'. */
export function UpdateEntityPage({ route, params }: PageProps) {
  const id = routeParam(params.id);
  const [, navigate] = useLocation();
  const { show } = useSnackbar();
  const { data: entity, error, isLoading, refetch } = useGetEntityQuery(id);
  const users = useAllUserIds();
  const [update, { isLoading: saving }] = useUpdateEntityMutation();
  const [changeAdmins] = useChangeEntityAdminsMutation();

  if (isLoading) return <PageLoading />;
  if (!entity) {
    return (
      <Page title={route.title}>
        <PageMessage>{errorDetail(error) ?? 'Entity not found'}</PageMessage>
      </Page>
    );
  }

  async function onAdminsChange(change: MemberChange): Promise<boolean> {
    const result = await changeAdmins({ id, action: change.action, admins: change.users });
    // The data is reloaded after the dialog whatever happened (spec 001 §4).
    void refetch();
    if ('error' in result) {
      show({ message: serverDetail(result.error) ?? 'Error updating Entity', variant: 'error' });
      return false;
    }
    show({ message: `${entity!.name} successfully updated`, variant: 'success' });
    return true;
  }

  return (
    <Page title={route.title} subtitle={entity.name}>
      <UnderlinePanels aria-label="Entity">
        <UnderlinePanels.Tab>Entity Info</UnderlinePanels.Tab>
        <UnderlinePanels.Tab>Entity Admin</UnderlinePanels.Tab>
        <UnderlinePanels.Panel>
          <EntityForm
            key={`${entity.id}:${entity.name}:${entity.email_domain_allowed}`}
            initial={{ name: entity.name, email_domain_allowed: entity.email_domain_allowed }}
            submitLabel="Update"
            busy={saving}
            onCancel={() => navigate('/entitymanagement')}
            onSubmit={async (value) => {
              const result = await update({ id, ...value });
              if ('error' in result) {
                show({ message: serverDetail(result.error) ?? 'Error updating Entity', variant: 'error' });
                return;
              }
              show({ message: `${value.name} successfully updated`, variant: 'success' });
            }}
          />
        </UnderlinePanels.Panel>
        <UnderlinePanels.Panel>
          <MemberList title="Entity Admin" members={entity.admins} users={users} onChange={onAdminsChange} />
        </UnderlinePanels.Panel>
      </UnderlinePanels>
    </Page>
  );
}
