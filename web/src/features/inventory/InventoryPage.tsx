import { Banner, Button, Spinner } from '@primer/react';
import { GraphIcon, PlayIcon } from '@primer/octicons-react';
import { useLocation } from 'wouter';
import { hasPermission } from '@cc/shared/permissions.ts';
import type { PageProps } from '../../app/route-types.ts';
import { useAppSelector } from '../../app/hooks.ts';
import { useSelectedCustomer } from '../../app/selection/useCustomerContext.ts';
import { Page, PageLoading, PageMessage } from '../../common/Page.tsx';
import { formatTimestampWithZone } from '../../common/dates.ts';
import { errorDetail } from '../../common/api-error.ts';
import { useSnackbar } from '../../common/Snackbar.tsx';
import type { NewTicketPrefill } from '../tickets/prefill.ts';
import { useRunInventorySyncMutation } from './inventoryApi.ts';
import { useSyncWatch } from './useSyncWatch.ts';
import { AssetTable } from './AssetTable.tsx';
import { RecommendationTable } from './RecommendationTable.tsx';
import styles from './inventory.module.css';

const NO_PERMS: readonly string[] = [];

/** /inventory (spec 000 §2): the customer's assets and recommendations, a ticket from a selection, the graph. */
export function InventoryPage({ route }: PageProps) {
  const [, navigate] = useLocation();
  const { show } = useSnackbar();
  const claims = useAppSelector((s) => s.session.claims);
  const perms = claims?.perms ?? NO_PERMS;
  const { selected } = useSelectedCustomer();
  const customer = selected?.id ?? '';
  const { status, error, isLoading, running, started, cancelled } = useSyncWatch(customer);
  const [runSync, { isLoading: starting }] = useRunInventorySyncMutation();
  const canTicket = hasPermission(perms, 'supportrequest_create');
  const raise = canTicket ? (prefill: NewTicketPrefill) => navigate('/supportrequest/new', { state: prefill }) : undefined;

  async function runNow() {
    started();
    const result = await runSync(customer);
    if ('error' in result) cancelled();
    show('error' in result ? { message: errorDetail(result.error) ?? 'The sync could not be started', variant: 'error' } : { message: 'Inventory sync started', variant: 'success' });
  }
  const runButton = claims?.admin ? (
    <Button leadingVisual={PlayIcon} onClick={() => void runNow()} loading={starting || running}>
      Run sync now
    </Button>
  ) : null;

  return (
    <Page title={route.title} subtitle={selected ? `for ${selected.name}` : undefined}>
      <div className={styles.toolbar}>
        <Button variant="primary" leadingVisual={GraphIcon} onClick={() => navigate('/inventory/view')} disabled={!status?.last_success}>
          Visualize Inventory
        </Button>
        {status?.last_success ? runButton : null}
        {running && status?.last_success ? (
          <span role="status" className={styles.muted}>
            <Spinner size="small" srText={null} /> Inventory sync running…
          </span>
        ) : null}
        {status?.last_success ? <span className={styles.muted}>{`Last synced ${formatTimestampWithZone(status.last_success.finished_at ?? status.last_success.started_at)}`}</span> : null}
      </div>
      {error ? <Banner variant="critical" title="The inventory could not be loaded" description={errorDetail(error) ?? 'Please try again.'} /> : null}
      {status?.last_run?.status === 'failed' ? <Banner variant="warning" title="The last inventory sync failed" description={status.last_run.error ?? ''} /> : null}
      {isLoading || !customer ? (
        <PageLoading label="Loading inventory" />
      ) : status && !status.last_success ? (
        <PageMessage>
          <span>{running ? 'The first inventory sync is running.' : `No inventory yet. The first sync runs ${formatTimestampWithZone(status.next_run_at)}.`}</span>
          {runButton}
        </PageMessage>
      ) : status ? (
        <div className={styles.tables}>
          <AssetTable customer={customer} onTicket={raise} />
          <RecommendationTable customer={customer} onTicket={raise} />
        </div>
      ) : null}
    </Page>
  );
}
