import { useState } from 'react';
import { UnderlinePanels } from '@primer/react/experimental';
import { useLocation } from 'wouter';
import type { PageProps } from '../../app/route-types.ts';
import { serverDetail } from '../../common/api-error.ts';
import { Page } from '../../common/Page.tsx';
import { MemberList, type MemberChange } from '../../common/MemberList.tsx';
import { useSnackbar } from '../../common/Snackbar.tsx';
import { useListEntitiesQuery } from '../entities/entitiesApi.ts';
import { useAllUserIds } from '../users/usersApi.ts';
import { CustomerInfoForm } from './form/CustomerInfoForm.tsx';
import { MEMBER_TABS } from './CustomerMemberTab.tsx';
import { EMPTY_CUSTOMER_FORM } from './form/customer-form.ts';
import { useChangeCustomerMembersMutation, useCreateCustomerMutation } from './customersApi.ts';
import type { MemberList as MemberListName } from '@cc/shared/schemas/customers.ts';
import styles from './Customers.module.css';

type Lists = Record<MemberListName, string[]>;

/** The lists chosen on New before the customer exists: a change only edits them here (no request yet). */
function applyLocally(lists: Lists, list: MemberListName, c: MemberChange): Lists {
  const current = lists[list];
  const next = c.action === 'add' ? [...new Set([...current, ...c.users])] : current.filter((u) => !c.users.includes(u));
  return { ...lists, [list]: next };
}

/**
 * Creates a customer (spec 001 §2.4, 000 §8): the four tabs, the user tabs filled before saving and stored
 * right after the customer is created (User Access first: notify / alert members are usually its users).
 * '{customer name} successfully saved', then the list.
 */
export function NewCustomerPage({ route }: PageProps) {
  const [, navigate] = useLocation();
  const { show } = useSnackbar();
  const { data: entities } = useListEntitiesQuery();
  const users = useAllUserIds();
  const [create, { isLoading }] = useCreateCustomerMutation();
  const [changeMembers, { isLoading: savingLists }] = useChangeCustomerMembersMutation();
  const [lists, setLists] = useState<Lists>({ users: [], notify: [], alert: [] });

  return (
    <Page title={route.title}>
      <UnderlinePanels aria-label="Customer" className={styles.tabs}>
        <UnderlinePanels.Tab>Customer Info</UnderlinePanels.Tab>
        {MEMBER_TABS.map((t) => (
          <UnderlinePanels.Tab key={t.list} counter={lists[t.list].length}>
            {t.title}
          </UnderlinePanels.Tab>
        ))}
        <UnderlinePanels.Panel>
          <CustomerInfoForm
            mode="new"
            initial={EMPTY_CUSTOMER_FORM}
            entities={entities ?? []}
            busy={isLoading || savingLists}
            onCancel={() => navigate('/customermanagement')}
            onSubmit={async (input) => {
              const result = await create(input);
              if ('error' in result) {
                show({ message: serverDetail(result.error) ?? 'Error saving Customer', variant: 'error' });
                return;
              }
              const id = result.data.customer_id;
              for (const tab of MEMBER_TABS) {
                if (lists[tab.list].length === 0) continue;
                const saved = await changeMembers({ id, list: tab.list, action: 'add', users: lists[tab.list] });
                if ('error' in saved) {
                  // The customer exists: continue on its update screen, where the list can be fixed.
                  show({ message: tab.failure, variant: 'error' });
                  navigate(`/customermanagement/update/${encodeURIComponent(id)}`);
                  return;
                }
              }
              show({ message: `${input.customer_name} successfully saved`, variant: 'success' });
              navigate('/customermanagement');
            }}
          />
        </UnderlinePanels.Panel>
        {MEMBER_TABS.map((t) => (
          <UnderlinePanels.Panel key={t.list}>
            <MemberList
              title={t.title}
              members={lists[t.list]}
              users={users}
              onChange={async (c) => {
                setLists((l) => applyLocally(l, t.list, c));
                return true;
              }}
            />
          </UnderlinePanels.Panel>
        ))}
      </UnderlinePanels>
    </Page>
  );
}
