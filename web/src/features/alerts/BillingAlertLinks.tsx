import { IconButton } from '@primer/react';
import { BellIcon, EyeIcon } from '@primer/octicons-react';
import { useLocation } from 'wouter';
import { hasPermission } from '@cc/shared/permissions.ts';
import { useAppSelector } from '../../app/hooks.ts';
import { useBillingAccounts, useCurrentCustomer } from '../customers/useCustomerContext.ts';

const NO_PERMS: readonly string[] = [];

/**
 * The billing dashboard's Viewers and Alerts header icons (spec 000 §2, §6): they need alerts_*, appear
 * only for provider gcp on the first billing account; Viewers also needs the customer's billing_viewer flag.
 * For the billing screen's header: `<BillingAlertLinks provider={settings.provider} />`.
 */
export function BillingAlertLinks({ provider }: { provider: string }) {
  const [, navigate] = useLocation();
  const perms = useAppSelector((s) => s.session.claims?.perms ?? NO_PERMS);
  const { customer } = useCurrentCustomer();
  const { accounts, active } = useBillingAccounts();
  if (!hasPermission(perms, 'alerts_*') || provider !== 'gcp' || !active || active !== accounts[0]) return null;
  return (
    <>
      {customer?.billing_viewer ? (
        <IconButton icon={EyeIcon} aria-label="Viewers" variant="invisible" onClick={() => navigate('/billing/viewers')} />
      ) : null}
      <IconButton icon={BellIcon} aria-label="Alerts" variant="invisible" onClick={() => navigate('/billing/alerts')} />
    </>
  );
}
