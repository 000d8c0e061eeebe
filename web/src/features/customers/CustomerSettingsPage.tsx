import type { ReactNode } from 'react';
import { Heading } from '@primer/react';
import type { PageProps } from '../../app/route-types.ts';
import { Page, PageLoading, PageMessage } from '../../common/Page.tsx';
import { useCurrentCustomer } from '../../app/selection/useCustomerContext.ts';
import { FLAG_LABELS } from './form/customer-form.ts';
import { formFromCustomer } from './form/customer-convert.ts';
import { useGetCustomerEntityQuery } from './customersApi.ts';
import styles from '../../common/forms.module.css';

const yesNo = (on: boolean) => (on ? 'Yes' : 'No');

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
  const rows: [string, ReactNode][] = [
    ['Name', f.customer_name],
    ['Id', f.customer_id],
    // The name comes from the customer's own entity route: customers cannot read the entity list.
    ['Entity', f.entity ? (entity?.name ?? '…') : 'No Entity'],
    ['Billing account Id', f.billing_account_id || '—'],
    ['Currency', f.billing_currency],
    ['Dashboard type', f.billing_dashboard_type],
  ];
  if (f.billing_dashboard_type === 'Set Discount') rows.push(['Discount (%)', f.billing_dashboard_set_discount]);
  for (const { name, label } of FLAG_LABELS) rows.push([label, yesNo(f[name])]);
  if (f.anomaly_detection) {
    rows.push(['Minimum Threshold', `${f.minimum_anomaly_threshold} %`]);
    rows.push(['Minimum Require Change Amount', f.minimum_value_toggled_anomaly]);
  }
  if (f.gcp_service_account) rows.push(['Service account e-mail', f.service_account_email || '—']);
  if (f.system_health_dashboard) rows.push(['Customized monitoring dashboard link', f.grafana_external_link || 'Built-in dashboard']);
  if (f.workspace_license) rows.push(['Workspace license domain identifier', f.domain_name || '—']);
  if (f.documentation) rows.push(['Custom drive folder', f.drive_id || 'Built-in folder']);
  // Project provisioning choices (spec 000 §3), as offered on the New Project form.
  const none = (v: string) => v || '—';
  rows.push(['Business Units', none(f.business_units)]);
  rows.push(['Products', none(f.products)]);
  rows.push(['Environments', none(f.env)]);
  rows.push(['Cost Owners', none(f.owner_values)]);
  rows.push(['Project templates', none(f.templates.map((tp) => tp.template_name).join(', '))]);

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
