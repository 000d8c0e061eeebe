import { useState } from 'react';
import { Button, FormControl, TextInput } from '@primer/react';
import { EyeClosedIcon, EyeIcon } from '@primer/octicons-react';
import { hasPermission } from '@cc/shared/permissions.ts';
import { MESSAGES } from '@cc/shared/constants.ts';
import type { CustomerDocument } from '@cc/shared/schemas/customers.ts';
import type { MonitoringPanel } from '@cc/shared/schemas/monitoring.ts';
import { useAppSelector } from '../../app/hooks.ts';
import { errorDetail } from '../../common/api-error.ts';
import { useSnackbar } from '../../common/Snackbar.tsx';
import { ListTable, type ListColumn } from '../../common/list/ListTable.tsx';
import { useGetMonitoringPanelQuery, useRunMonitoringMutation } from './monitoringApi.ts';
import styles from './SystemHealth.module.css';

type Project = MonitoringPanel['projects'][number];
const PROJECT_COLUMNS: readonly ListColumn<Project>[] = [
  { id: 'name', header: 'Project Name', text: (p) => p.project_name },
  { id: 'id', header: 'Project Id', text: (p) => p.project_id },
];
const NO_PERMS: readonly string[] = [];

/**
 * The credentials panel (spec 000 §2): user ID (the customer name), password with show/hide, Initialize and Rebuild
 * Dashboard, the service account e-mail and the cloud projects. A run's failure is a browser alert with the
 * server's detail (spec 000 §8); the shell's saving indicator shows while it runs.
 */
export function CredentialsPanel({ customer, password, onDone }: { customer: CustomerDocument; password: string | null; onDone: () => void }) {
  const [visible, setVisible] = useState(false);
  const { show } = useSnackbar();
  const perms = useAppSelector((s) => s.session.claims?.perms ?? NO_PERMS);
  const panel = useGetMonitoringPanelQuery(customer.customer_id);
  const [run, { isLoading: running }] = useRunMonitoringMutation();

  const start = (action: 'initialise' | 'rebuild') => {
    run({ customer: customer.customer_id, action })
      .unwrap()
      .then(() => {
        show({ message: action === 'initialise' ? 'Dashboard initialized' : 'Dashboard rebuilt', variant: 'success' });
        onDone();
      })
      .catch((error: unknown) => window.alert(errorDetail(error) ?? MESSAGES.somethingWrong));
  };

  return (
    <section className={styles.panel} aria-label="Credentials">
      <div className={styles.fields}>
        <FormControl>
          <FormControl.Label>User ID</FormControl.Label>
          <TextInput readOnly block value={panel.currentData?.user_id ?? customer.customer_name} />
        </FormControl>
        <FormControl>
          <FormControl.Label>Password</FormControl.Label>
          <TextInput
            readOnly
            block
            type={visible ? 'text' : 'password'}
            value={password ?? ''}
            placeholder={password === null ? 'Not initialised' : undefined}
            trailingAction={
              <TextInput.Action
                onClick={() => setVisible((v) => !v)}
                icon={visible ? EyeClosedIcon : EyeIcon}
                aria-label={visible ? 'Hide password' : 'Show password'}
                disabled={password === null}
              />
            }
          />
        </FormControl>
      </div>
      <div className={styles.actions}>
        {/* once initialised, Rebuild is the action: a second Initialize would only rebuild */}
        <Button variant="primary" disabled={running || password !== null || !hasPermission(perms, 'systemhealth_create')} onClick={() => start('initialise')}>
          Initialize Dashboard
        </Button>
        <Button disabled={running || password === null || !hasPermission(perms, 'systemhealth_update')} onClick={() => start('rebuild')}>
          Rebuild Dashboard
        </Button>
      </div>
      <p className={styles.account}>
        Service account: <span data-testid="service-account-email">{panel.currentData?.service_account_email || customer.service_account_email || '–'}</span>
      </p>
      <ListTable
        title="Cloud projects"
        rows={panel.currentData?.projects ?? []}
        rowId={(p) => p.project_id}
        columns={PROJECT_COLUMNS}
        loading={panel.isFetching && !panel.currentData}
        emptyText={panel.isError ? (errorDetail(panel.error) ?? MESSAGES.somethingWrong) : 'No cloud projects'}
        initialSort={{ columnId: 'name', direction: 'ASC' }}
      />
    </section>
  );
}

