import { UnderlinePanels } from '@primer/react/experimental';
import { useLocation } from 'wouter';
import { routeParam } from '../../common/route-param.ts';
import type { PageProps } from '../../app/route-types.ts';
import { serverDetail } from '../../common/api-error.ts';
import { Page, PageLoading } from '../../common/Page.tsx';
import { MessageDialog } from '../../common/MessageDialog.tsx';
import { useSnackbar } from '../../common/Snackbar.tsx';
import { useGetCustomerQuery } from '../../app/selection/customerApi.ts';
import { useListEntitiesQuery } from '../entities/entitiesApi.ts';
import { CustomerInfoForm } from './form/CustomerInfoForm.tsx';
import { CustomerMemberTab, MEMBER_TABS } from './CustomerMemberTab.tsx';
import { formFromCustomer } from './form/customer-convert.ts';
import { useUpdateCustomerMutation } from './customersApi.ts';
import { BillingExportSources } from './BillingExportSources.tsx';
import { ChannelsPanel } from './channels/ChannelsPanel.tsx';
import styles from './Customers.module.css';

const asList = (v: unknown): string[] => (Array.isArray(v) ? v.map(String) : []);

/** Tabs Customer Info, User Access, R.A.T Notification, Billing Alert Notification (spec 001 §2.4), Notification channels. */
export function UpdateCustomerPage({ route, params }: PageProps) {
  const id = routeParam(params.id);
  const [, navigate] = useLocation();
  const { show } = useSnackbar();
  const { data: customer, isLoading, isError, refetch } = useGetCustomerQuery(id);
  const { data: entities } = useListEntitiesQuery();
  const [update, { isLoading: saving }] = useUpdateCustomerMutation();

  if (isLoading) return <PageLoading />;
  if (isError || !customer) {
    // Spec 001 §8: 'Customer not found'; closing returns to the list.
    return (
      <Page title={route.title}>
        <MessageDialog title="Customer not found" onClose={() => navigate('/customermanagement')}>
          The customer {id} could not be loaded.
        </MessageDialog>
      </Page>
    );
  }

  return (
    <Page title={route.title} subtitle={customer.customer_name}>
      <UnderlinePanels aria-label="Customer" className={styles.tabs}>
        <UnderlinePanels.Tab>Customer Info</UnderlinePanels.Tab>
        {MEMBER_TABS.map((t) => (
          <UnderlinePanels.Tab key={t.list} counter={asList(customer[t.list]).length}>
            {t.title}
          </UnderlinePanels.Tab>
        ))}
        <UnderlinePanels.Tab>Notification channels</UnderlinePanels.Tab>
        <UnderlinePanels.Panel>
          <CustomerInfoForm
            key={JSON.stringify(customer)}
            mode="update"
            initial={formFromCustomer(customer)}
            entities={entities ?? []}
            busy={saving}
            onCancel={() => navigate('/customermanagement')}
            onSubmit={async (input) => {
              const result = await update(input);
              if ('error' in result) {
                show({ message: serverDetail(result.error) ?? 'Error saving customer', variant: 'error' });
                return;
              }
              show({ message: `${input.customer_name} successfully updated`, variant: 'success' });
            }}
          />
          <BillingExportSources customerId={customer.customer_id} accounts={customer.billing_account_id.split(',').filter(Boolean)} />
        </UnderlinePanels.Panel>
        {MEMBER_TABS.map((t) => (
          <UnderlinePanels.Panel key={t.list}>
            <CustomerMemberTab
              customerId={customer.customer_id}
              customerName={customer.customer_name}
              list={t.list}
              members={asList(customer[t.list])}
              reload={() => void refetch()}
            />
          </UnderlinePanels.Panel>
        ))}
        <UnderlinePanels.Panel>
          <ChannelsPanel customerId={customer.customer_id} />
        </UnderlinePanels.Panel>
      </UnderlinePanels>
    </Page>
  );
}
