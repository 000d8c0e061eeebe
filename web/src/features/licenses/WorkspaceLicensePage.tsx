import { useState } from 'react';
import { Button } from '@primer/react';
import type { License } from '@cc/shared/schemas/licenses.ts';
import type { PageProps } from '../../app/route-types.ts';
import { useCurrentCustomer } from '../../app/selection/useCustomerContext.ts';
import { Page, PageMessage } from '../../common/Page.tsx';
import { useCanChange } from '../../common/permissions.ts';
import { CreateLicenseDialog } from './CreateLicenseDialog.tsx';
import { OrderCard } from './OrderCard.tsx';
import { ExistingTab, HistoryTab, OrdersTab } from './LicenseTabs.tsx';
import styles from './Licenses.module.css';

const TABS = ['Existing', 'Orders', 'History'] as const;
type Tab = (typeof TABS)[number];

/** The tab a link asked for through the route state (the way back from a card opened directly), else Existing. */
function routeTab(): Tab {
  const asked = (window.history.state as { tab?: unknown } | null)?.tab;
  return TABS.find((t) => t === asked) ?? 'Existing';
}

/** Workspace License (spec 001 §2.12): tabs Existing, Orders, History; the create dialog and the order card. */
export function WorkspaceLicensePage({ route }: PageProps) {
  const { customer } = useCurrentCustomer();
  const [tab, setTab] = useState<Tab>(routeTab);
  const [creating, setCreating] = useState(false);
  const [ordering, setOrdering] = useState<License | null>(null);
  const writer = useCanChange();
  if (!customer) return <Page title={route.title} />;
  if (!customer.domain_name) {
    return (
      <Page title={route.title}>
        <PageMessage>{customer.customer_name} has no Workspace domain.</PageMessage>
      </Page>
    );
  }
  const domain = customer.domain_name;
  return (
    <Page title={route.title} subtitle={domain}>
      <div role="tablist" aria-label="Licenses" className={styles.tabs}>
        {TABS.map((t) => (
          <button key={t} type="button" role="tab" aria-selected={tab === t} className={styles.tab} onClick={() => setTab(t)}>
            {t}
          </button>
        ))}
      </div>
      <div role="tabpanel" aria-label={tab}>
        {tab === 'Existing' ? (
          <>
            {writer ? (
              <div className={styles.buttons}>
                <Button variant="primary" onClick={() => setCreating(true)}>
                  Create License
                </Button>
              </div>
            ) : null}
            <ExistingTab domain={domain} onOrder={writer ? setOrdering : undefined} />
            {ordering ? <OrderCard key={ordering.sku_id} license={ordering} domain={domain} customerId={customer.customer_id} onClose={() => setOrdering(null)} /> : null}
          </>
        ) : null}
        {tab === 'Orders' ? <OrdersTab customerId={customer.customer_id} /> : null}
        {tab === 'History' ? <HistoryTab domain={domain} /> : null}
      </div>
      {creating ? <CreateLicenseDialog domain={domain} onClose={() => setCreating(false)} /> : null}
    </Page>
  );
}
