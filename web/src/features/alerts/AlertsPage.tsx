import { hasPermission } from '@cc/shared/permissions.ts';
import type { PageProps } from '../../app/route-types.ts';
import { useAppSelector } from '../../app/hooks.ts';
import { Page } from '../../common/Page.tsx';
import { FirstAccountOnly } from './FirstAccountOnly.tsx';
import { AlertTable } from './AlertTable.tsx';
import { AlertForm } from './AlertForm.tsx';
import { AlertNotices } from './AlertNotices.tsx';

const NO_PERMS: readonly string[] = [];

/**
 * Billing Alerts (spec 001 §2.8): the customer's month-to-date spend alerts, the form that adds one,
 * and the notices already e-mailed. First billing account only.
 */
export function AlertsPage({ route }: PageProps) {
  const perms = useAppSelector((s) => s.session.claims?.perms ?? NO_PERMS);
  return (
    <FirstAccountOnly title={route.title}>
      {({ customer, billingAccountId }) => (
        <Page title={route.title}>
          <AlertTable customer={customer} canDelete={hasPermission(perms, 'alerts_update')} />
          {hasPermission(perms, 'alerts_create') ? <AlertForm customer={customer} billingAccountId={billingAccountId} /> : null}
          <AlertNotices customer={customer} />
        </Page>
      )}
    </FirstAccountOnly>
  );
}
