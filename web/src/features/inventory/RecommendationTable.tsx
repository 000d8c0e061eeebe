import { Banner, Label } from '@primer/react';
import type { RecommendationItem } from '@cc/shared/schemas/inventory.ts';
import { ListTable, type ListColumn } from '../../common/list/ListTable.tsx';
import { errorDetail } from '../../common/api-error.ts';
import { formatMoney } from '../../common/numbers.ts';
import { useListRecommendationsQuery } from './inventoryApi.ts';
import { useServerList } from './useServerList.ts';
import { RaiseTicketButton } from './RaiseTicketButton.tsx';
import { recommendationTicket } from './inventory-ticket.ts';
import type { NewTicketPrefill } from '../tickets/prefill.ts';
import styles from './inventory.module.css';

const NONE: readonly RecommendationItem[] = [];

const saving = (r: RecommendationItem) => (r.monthly_cost !== null && Number(r.monthly_cost) < 0 ? formatMoney(-Number(r.monthly_cost), r.currency ?? 'EUR') : '');
const STATE_VARIANT: Record<string, 'accent' | 'success' | 'secondary'> = { CLAIMED: 'accent', SUCCEEDED: 'success' };

/** Spec 000 §3 Recommendation (primary_impact_category … target_resources), then its state, ticket and monthly saving. */
const COLUMNS: readonly ListColumn<RecommendationItem>[] = [
  { id: 'primary_impact_category', header: 'Primary Impact Category', width: 'max-content', text: (r) => r.primary_impact_category },
  { id: 'recommender_subtype', header: 'Recommender Subtype', width: 'max-content', text: (r) => r.recommender_subtype },
  { id: 'project_id', header: 'Project ID', width: 'max-content', text: (r) => r.project_id },
  { id: 'location', header: 'Location', width: 'max-content', text: (r) => r.location },
  {
    id: 'target_resources',
    header: 'Target Resources',
    // resource names wrap: at 1440 px the eight columns fit without scrolling (18rem pushed Monthly Saving out)
    width: 'minmax(12rem, 2fr)',
    text: (r) => r.target_resources.join(', '),
    // resource names have no spaces: without this a long one runs into the next column
    render: (r) => <span className={styles.wrap}>{r.target_resources.join(', ')}</span>,
  },
  {
    id: 'state',
    header: 'State',
    width: 'max-content',
    text: (r) => r.state,
    render: (r) => <Label variant={STATE_VARIANT[r.state] ?? 'secondary'}>{r.state}</Label>,
  },
  { id: 'ticket', header: 'Ticket', width: 'max-content', text: (r) => r.ticket_key ?? '' },
  { id: 'saving', header: 'Monthly Saving', width: 'max-content', align: 'end', text: saving },
];

/** 'Google Cloud Recommendations', ordered by project, headed by what the claimed and succeeded ones save. */
export function RecommendationTable({ customer, onTicket }: { customer: string; onTicket?: (prefill: NewTicketPrefill) => void }) {
  const list = useServerList<RecommendationItem>((r) => r.name, customer);
  const { data, error, isFetching } = useListRecommendationsQuery({ customer, query: list.query });
  const rows = data?.items ?? NONE;
  const count = list.selectedRows.length;
  const figure = data
    ? `Savings claimed ${formatMoney(Number(data.savings.claimed), data.savings.currency)} / realised ${formatMoney(Number(data.savings.realised), data.savings.currency)} per month`
    : undefined;
  return (
    <>
      {error ? <Banner variant="critical" title="The recommendations could not be loaded" description={errorDetail(error) ?? 'Please try again.'} /> : null}
      <ListTable
        title="Google Cloud Recommendations"
        subtitle={figure}
        rows={rows}
        rowId={(r) => r.name}
        rowLabel={(r) => `${r.recommender_subtype} ${r.target_resources[0] ?? r.name}`}
        columns={COLUMNS}
        emptyText="No recommendations."
        loading={isFetching && !data}
        filter={list.filter}
        columnChooser
        selection={list.selection(rows)}
        paging={list.paging(data?.total ?? 0)}
        actions={
          onTicket ? <RaiseTicketButton count={count} onClick={() => onTicket(recommendationTicket(list.selectedRows))} /> : null
        }
      />
    </>
  );
}
