import { UnderlinePanels } from '@primer/react/experimental';
import { useLocation } from 'wouter';
import type { PageProps } from '../../app/routes.ts';
import { errorDetail } from '../../app/api.ts';
import { Page, PageMessage } from '../../common/Page.tsx';
import { useSnackbar } from '../../common/Snackbar.tsx';
import { useListEntitiesQuery } from '../entities/entitiesApi.ts';
import { CustomerInfoForm } from './CustomerInfoForm.tsx';
import { MEMBER_TABS } from './CustomerMemberTab.tsx';
import { EMPTY_CUSTOMER_FORM } from './customer-form.ts';
import { useCreateCustomerMutation } from './customerManagementApi.ts';

/** Creates a customer (spec 001 §2.4, 000 §8): '{customer name} successfully saved', then the list. */
export function NewCustomerPage({ route }: PageProps) {
  const [, navigate] = useLocation();
  const { show } = useSnackbar();
  const { data: entities } = useListEntitiesQuery();
  const [create, { isLoading }] = useCreateCustomerMutation();

  return (
    <Page title={route.title}>
      <UnderlinePanels aria-label="Customer">
        <UnderlinePanels.Tab>Customer Info</UnderlinePanels.Tab>
        {MEMBER_TABS.map((t) => (
          <UnderlinePanels.Tab key={t.list}>{t.title}</UnderlinePanels.Tab>
        ))}
        <UnderlinePanels.Panel>
          <CustomerInfoForm
            mode="new"
            initial={EMPTY_CUSTOMER_FORM}
            entities={entities ?? []}
            busy={isLoading}
            onCancel={() => navigate('/customermanagement')}
            onSubmit={async (input) => {
              const result = await create(input);
              if ('error' in result) {
                show({ message: errorDetail(result.error) ?? 'Error saving Customer', variant: 'error' });
                return;
              }
              show({ message: `${input.customer_name} successfully saved`, variant: 'success' });
              navigate('/customermanagement');
            }}
          />
        </UnderlinePanels.Panel>
        {MEMBER_TABS.map((t) => (
          <UnderlinePanels.Panel key={t.list}>
            <PageMessage>Save the customer first; its {t.title} list can then be managed from the customer list.</PageMessage>
          </UnderlinePanels.Panel>
        ))}
      </UnderlinePanels>
    </Page>
  );
}
