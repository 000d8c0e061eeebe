import { MESSAGES } from '@cc/shared/constants.ts';
import { useAppSelector } from '../../app/hooks.ts';
import type { PageProps } from '../../app/routes.ts';
import { Page, PageMessage } from '../../common/Page.tsx';
import { useBillingAccounts, useSelectedCustomer } from '../customers/useCustomerContext.ts';

/**
 * Home (/). The dashboard itself is not built yet; the states spec 000 §2 shows instead of it are:
 * no billing account, and a customerViewer without a filter for the selected customer.
 */
export function BillingPage({ route }: PageProps) {
  const claims = useAppSelector((s) => s.session.claims);
  const { selected } = useSelectedCustomer();
  const { active } = useBillingAccounts();

  const viewerWithoutFilter = claims?.role === 'customerViewer' && !claims.filters.some((f) => f.customer === selected?.id);

  let body: string;
  if (!active) body = MESSAGES.missingBillingAccount;
  else if (viewerWithoutFilter) body = MESSAGES.contactAdmin;
  else body = 'Not available yet';

  return (
    <Page title={route.title}>
      <PageMessage>{body}</PageMessage>
    </Page>
  );
}
