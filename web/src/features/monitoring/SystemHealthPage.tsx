import { lazy, Suspense, useState } from 'react';
import { ToggleSwitch } from '@primer/react';
import { kioskUrl, SYSTEM_HEALTH_IFRAME_HEIGHT_PX } from '@cc/shared/monitoring/kiosk-url.ts';
import { MONITORING_NOT_IMPLEMENTED } from '@cc/shared/constants.ts';
import type { CustomerDocument } from '@cc/shared/schemas/customers.ts';
import type { PageProps } from '../../app/route-types.ts';
import { Page, PageLoading, PageMessage } from '../../common/Page.tsx';
import { useCurrentCustomer } from '../../app/selection/useCustomerContext.ts';
import { useGetMonitoringPasswordQuery } from './monitoringApi.ts';
import styles from './SystemHealth.module.css';

// Closed on arrival: its form controls and project table (Primer's FormControl, ListTable) are fetched when it opens,
// which keeps the route's first load under the 450 KB budget (docs/decisions.md, Web weight).
const CredentialsPanel = lazy(() => import('./CredentialsPanel.tsx').then((m) => ({ default: m.CredentialsPanel })));

/**
 * System Health (spec 000 §2): the customer's monitoring dashboard in kiosk mode, 710 px high, and a toggle showing
 * the credentials panel. Before a first Initialize the password fetch fails and the dashboard area says so.
 */
export function SystemHealthPage({ route }: PageProps) {
  const { customer } = useCurrentCustomer();
  if (!customer) return <PageLoading />;
  // keyed: another customer starts with the panel closed and its own password state
  return <SystemHealth key={customer.customer_id} title={route.title} customer={customer} />;
}

function SystemHealth({ title, customer }: { title: string; customer: CustomerDocument }) {
  const [showCredentials, setShowCredentials] = useState(false);
  // a finished Initialize or Rebuild changes the dashboard: the frame loads it again
  const [runs, setRuns] = useState(0);
  const password = useGetMonitoringPasswordQuery(customer.customer_id);
  const link = customer.grafana_link || customer.grafana_external_link;

  return (
    <Page title={title}>
      <div className={styles.toggle}>
        <span id="credentials-toggle-label">Credentials</span>
        <ToggleSwitch aria-labelledby="credentials-toggle-label" size="small" checked={showCredentials} onClick={() => setShowCredentials((v) => !v)} />
      </div>
      {showCredentials ? (
        <Suspense fallback={<PageLoading label="Loading credentials" />}>
          <CredentialsPanel customer={customer} password={password.currentData?.grafana_pass ?? null} onDone={() => setRuns((n) => n + 1)} />
        </Suspense>
      ) : null}
      {password.isFetching && !password.currentData ? (
        <PageLoading label="Loading dashboard" />
      ) : password.isError || !link ? (
        <PageMessage>{MONITORING_NOT_IMPLEMENTED}</PageMessage>
      ) : (
        <iframe
          key={runs}
          className={styles.dashboard}
          title={`System Health dashboard of ${customer.customer_name}`}
          src={kioskUrl(customer, link)}
          height={SYSTEM_HEALTH_IFRAME_HEIGHT_PX}
        />
      )}
    </Page>
  );
}
