import { errorDetail } from '../../common/api-error.ts';
import { MemberList, type MemberChange } from '../../common/MemberList.tsx';
import { useSnackbar } from '../../common/Snackbar.tsx';
import { useAllUserIds } from '../users/usersApi.ts';
import { useChangeCustomerMembersMutation } from './customersApi.ts';
import type { MemberList as MemberListName } from '@cc/shared/schemas/customers.ts';

/** Tab titles and failure messages of the three user lists (spec 001 §2.4, §8). */
export const MEMBER_TABS: { list: MemberListName; title: string; failure: string }[] = [
  { list: 'users', title: 'User Access', failure: 'Error saving customer access list' },
  { list: 'notify', title: 'R.A.T Notification', failure: 'Error saving customer notification list' },
  { list: 'alert', title: 'Billing Alert Notification', failure: 'Error saving customer alert list' },
];

export interface CustomerMemberTabProps {
  customerId: string;
  customerName: string;
  list: MemberListName;
  members: readonly string[];
  /** Reloads the customer after every change (spec 001 §4). */
  reload: () => void;
}

/** One of the customer's user lists: select and delete, add through the pick list, confirm. */
export function CustomerMemberTab({ customerId, customerName, list, members, reload }: CustomerMemberTabProps) {
  const { show } = useSnackbar();
  const users = useAllUserIds();
  const [change] = useChangeCustomerMembersMutation();
  const tab = MEMBER_TABS.find((t) => t.list === list)!;

  async function onChange(c: MemberChange): Promise<boolean> {
    const result = await change({ id: customerId, list, action: c.action, users: c.users });
    reload();
    if ('error' in result) {
      show({ message: tab.failure, variant: 'error' });
      console.warn(tab.failure, errorDetail(result.error));
      return false;
    }
    show({ message: `${customerName} successfully updated`, variant: 'success' });
    return true;
  }

  return <MemberList title={tab.title} members={members} users={users} onChange={onChange} />;
}
