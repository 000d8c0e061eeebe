import { Heading } from '@primer/react';
import type { PageProps } from '../../app/route-types.ts';
import { Page, PageLoading, PageMessage } from '../../common/Page.tsx';
import { useCurrentCustomer } from '../../app/selection/useCustomerContext.ts';
import { customerSettingsRows } from './customer-settings.ts';
import { formFromCustomer } from './form/customer-convert.ts';
import { useGetCustomerEntityQuery } from './customersApi.ts';
import styles from '../../common/forms.module.css';

/** The selected customer's settings, read-only, for role customer (spec 001 §2.5). */
export function CustomerSettingsPage({ route }: PageProps) {
  const { customer, isLoading, isError } = useCurrentCustomer();
  const { data: entity } = useGetCustomerEntityQuery(customer?.customer_id ?? '', { skip: !customer });
  if (isLoading) return <PageLoading />;
  if (isError || !customer) {
    return (
      <Page title={route.title}>
        <PageMessage>Customer not found</PageMessage>
      </Page>
    );
  }
  const f = formFromCustomer(customer);
  const rows = customerSettingsRows(f, entity?.name);

  return (
    <Page title={route.title} subtitle={customer.customer_name}>
      <section className={styles.panel} aria-label="Customer Info">
        <Heading as="h2" className={styles.panelTitle}>
          Customer Info
        </Heading>
        <dl className={styles.readonly}>
          {rows.map(([label, value]) => (
            <div key={label} style={{ display: 'contents' }}>
              <dt>{label}</dt>
              <dd>{value}</dd>
            </div>
          ))}
        </dl>
      </section>
      {f.billing_dashboard_type === 'Tier Discount' ? (
        <section className={styles.panel} aria-label="Tier Discount">
          <Heading as="h2" className={styles.panelTitle}>
            Tier Discount
          </Heading>
          {f.tiers.length === 0 ? <p className={styles.muted}>No tiers</p> : null}
          {f.tiers.length > 0 ? (
            <table className={styles.tiers}>
              <thead>
                <tr>
                  <th scope="col">Threshold spend</th>
                  <th scope="col">Percentage</th>
                </tr>
              </thead>
              <tbody>
                {f.tiers.map((t, i) => (
                  <tr key={i}>
                    <td>{t.threshold_spend}</td>
                    <td>{t.percentage} %</td>
                  </tr>
                ))}
              </tbody>
            </table>
          ) : null}
        </section>
      ) : null}
    </Page>
  );
}
