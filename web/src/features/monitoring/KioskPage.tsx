import { useMemo } from 'react';
import { Banner } from '@primer/react';
import type { HealthFigures } from '@cc/shared/schemas/monitoring.ts';
import type { PageProps } from '../../app/route-types.ts';
import { useDocumentTitle, PageLoading } from '../../common/Page.tsx';
import { errorDetail } from '../../common/api-error.ts';
import { formatTimestampWithZone } from '../../common/dates.ts';
import { useMediaQuery } from '../../common/useMediaQuery.ts';
import { useGetHealthFiguresQuery } from './monitoringApi.ts';
import { alertsFigure, formatMinutes, monthToDateFigure, spendFigure, ticketsFigure } from './health-charts.ts';
import { HealthPlot } from './HealthPlot.tsx';
import { KioskTable, type KioskColumn } from './KioskTable.tsx';
import styles from './Kiosk.module.css';

const REFRESH_MS = 5 * 60_000;
/** A wall screen (1920×1080 and the like): every panel on one screen, no scrolling. */
const WALL_QUERY = '(min-width: 1600px) and (min-height: 900px)';

type Ticket = HealthFigures['tickets'][number];
type Freshness = HealthFigures['freshness'][number];
const TICKET_COLUMNS: readonly KioskColumn<Ticket>[] = [
  { id: 'priority', header: 'Priority', text: (r) => r.priority },
  { id: 'open', header: 'Open', align: 'end', text: (r) => String(r.open) },
  { id: 'awaiting', header: 'Awaiting first response', align: 'end', text: (r) => String(r.awaiting_first_response) },
  { id: 'oldest', header: 'Oldest waiting', align: 'end', text: (r) => formatMinutes(r.oldest_awaiting_minutes) },
  { id: 'mean', header: 'Mean first response', align: 'end', text: (r) => formatMinutes(r.mean_first_response_minutes) },
];
const FRESHNESS_COLUMNS: readonly KioskColumn<Freshness>[] = [
  { id: 'account', header: 'Billing account', text: (r) => r.billing_account_id },
  { id: 'usage', header: 'Latest usage day', text: (r) => r.last_usage_date ?? '–' },
  { id: 'ingest', header: 'Last ingest', text: (r) => (r.last_ingest_at ? formatTimestampWithZone(r.last_ingest_at) : '–') },
  { id: 'status', header: 'Latest batch', text: (r) => r.last_batch_status ?? '–' },
  { id: 'source', header: 'Source', text: (r) => (r.source ? `${r.source}${r.source_error ? `: ${r.source_error}` : r.last_delivery ? `, delivery ${r.last_delivery}` : ''}` : '–') },
];

/**
 * The built-in System Health dashboard (MONITORING=local), shown in the System Health iframe in kiosk mode: no app
 * shell, the customer's figures only (the api checks the tenant). Per project spend against its 28-day mean and
 * month to date with open anomalies, alerts against quotas, open tickets, billing freshness and failing jobs.
 */
export function KioskPage({ route, params }: PageProps) {
  useDocumentTitle(route.title);
  const customerId = params.id ?? '';
  const { currentData: f, error, isLoading, fulfilledTimeStamp } = useGetHealthFiguresQuery(customerId, { skip: !customerId, pollingInterval: REFRESH_MS });
  // a wall screen is read from across a room: larger type in the charts (the CSS lays the panels out for it)
  const wall = useMediaQuery(WALL_QUERY);
  const narrow = useMediaQuery('(max-width: 30rem)');
  const charts = useMemo(() => {
    const o = { wall, narrow };
    return f ? { spend: spendFigure(f, o), mtd: monthToDateFigure(f, o), alerts: alertsFigure(f, o), tickets: ticketsFigure(f, o) } : null;
  }, [f, wall, narrow]);

  if (isLoading) return <PageLoading label="Loading dashboard" />;
  if (!f || !charts) {
    return (
      <main className={styles.kiosk}>
        <Banner variant="critical" title="The dashboard could not be loaded" description={errorDetail(error) ?? 'Please try again...'} />
      </main>
    );
  }
  const noProjects = f.projects.length === 0 ? 'No project had spend in the last 28 days' : null;
  // an axis from 0 to 1 with no bar says nothing and takes a screen's height on a phone: one line says it
  const noTickets = f.tickets.every((t) => t.open === 0) ? 'No open tickets' : null;
  return (
    <main className={styles.kiosk} aria-label="System Health dashboard">
      <JobsBanner jobs={f.jobs} />
      <div className={styles.head}>
        <p className={styles.currency} data-testid="health-currency">
          Amounts in {f.currency}, each day converted at its own rate.
        </p>
        {fulfilledTimeStamp ? (
          <p className={styles.refreshed} data-testid="health-refreshed">
            Updated {formatTimestampWithZone(fulfilledTimeStamp)} · refreshes every {REFRESH_MS / 60_000} minutes
          </p>
        ) : null}
      </div>
      {f.unconverted.map((u) => (
        <Banner key={u.currency} variant="warning" title={`Not converted: ${u.amount} ${u.currency}`} description={u.message} />
      ))}
      <div className={styles.board}>
        <HealthPlot title={`Yesterday (${f.yesterday}) against the 28-day mean`} figure={charts.spend} empty={noProjects} />
        <HealthPlot title={`Month to date and open anomalies (${f.anomaly_date})`} figure={charts.mtd} empty={noProjects} />
        <HealthPlot title="Alerts: month to date against quota" figure={charts.alerts} empty={f.alerts.length === 0 ? 'No billing alerts' : null} />
        <HealthPlot title="Open tickets by priority" figure={charts.tickets} empty={noTickets} />
        <KioskTable title="First responses" rows={f.tickets} rowId={(r) => r.priority} columns={TICKET_COLUMNS} emptyText="No tickets" />
        <KioskTable title="Billing data freshness" rows={f.freshness} rowId={(r) => r.billing_account_id} columns={FRESHNESS_COLUMNS} emptyText="No billing account" />
      </div>
    </main>
  );
}

function JobsBanner({ jobs }: { jobs: HealthFigures['jobs'] }) {
  if (!jobs.failing) return <Banner variant="success" title="Jobs" description="No failing jobs" hideTitle />;
  const reasons = [
    ...jobs.failing_ingest_accounts.map((a) => `billing ingest of ${a} failed`),
    ...(jobs.ticket_sync_failures ? [`${jobs.ticket_sync_failures} ticket changes could not be synchronised`] : []),
    ...(jobs.anomaly_run_missing ? ['anomaly detection has not run'] : []),
    ...(jobs.monitoring_failed ? ['the last dashboard initialise or rebuild failed'] : []),
  ];
  return <Banner variant="critical" title="Failing jobs" description={reasons.join('; ')} />;
}
