import { useState } from 'react';
import { Banner, Button } from '@primer/react';
import { CheckIcon, PlusIcon, SyncIcon, XIcon } from '@primer/octicons-react';
import { useLocation } from 'wouter';
import type { ProjectRecord } from '@cc/shared/schemas/provisioning.ts';
import type { PageProps } from '../../app/route-types.ts';
import { useAppSelector } from '../../app/hooks.ts';
import { useSelectedCustomer } from '../../app/selection/useCustomerContext.ts';
import { errorDetail, serverDetail } from '../../common/api-error.ts';
import { ConfirmDialog } from '../../common/ConfirmDialog.tsx';
import { ListTable, type ListColumn } from '../../common/list/ListTable.tsx';
import { useServerPaging } from '../../common/list/useServerPaging.ts';
import { Page } from '../../common/Page.tsx';
import { formatTimestampWithZone } from '../../common/dates.ts';
import { formatMoney } from '../../common/numbers.ts';
import { useCurrentCustomer } from '../../app/selection/useCustomerContext.ts';
import { useSnackbar } from '../../common/Snackbar.tsx';
import { applicable, DECISIONS, decisionMessage, type Decision } from './decisions.ts';
import { useApproveProjectsMutation, useGetProjectRequestsQuery, useRejectProjectsMutation, useRetryProjectsMutation } from './provisioningApi.ts';

const NO_PROJECTS: ProjectRecord[] = [];

const ICONS = { approve: CheckIcon, reject: XIcon, retry: SyncIcon } as const;

/** While a row is being created the list asks again this often, so its step and state move on their own. */
const POLL_MS = 2000;

/** State, and the step a Creating row is at or a Failed row stopped at. */
const stateText = (p: ProjectRecord) => (p.step_label ? `${p.state}: ${p.step_label}` : p.state);

/** The budget as the form shows it (money in the customer's currency, per month), and who asked when. */
const columns = (currency: string): readonly ListColumn<ProjectRecord>[] => [
  { id: 'project_name', header: 'Project Name', text: (p) => p.project_name },
  {
    id: 'state',
    header: 'Project State',
    text: (p) => [stateText(p), p.error].filter(Boolean).join(' — '),
  },
  { id: 'project_type', header: 'Project Type', text: (p) => p.project_type },
  { id: 'folder_name', header: 'Folder Name', text: (p) => p.folder_name },
  {
    id: 'project_template',
    header: 'Project template',
    // Once the budget step ran, the request says how the budget was set: the Budgets API takes the billing
    // account's currency, which may differ from the portal's.
    text: (p) =>
      `${p.template_name} (Budget: ${formatMoney(Number(p.project_template.budget), currency)} per month, Default Admin: ${p.project_template.default_admin})` +
      (p.budget_note ? `; budget set as ${p.budget_note}` : ''),
  },
  { id: 'requester', header: 'Requested by', text: (p) => p.requester },
  { id: 'created_at', header: 'Requested at', text: (p) => formatTimestampWithZone(p.created_at), sortValue: (p) => p.created_at },
];

/**
 * Project provisioning (spec 000 §2): the customer's project requests, New, and for the provider's admins Approve
 * of the selected pending rows, Reject of pending or failed ones, Retry of failed ones, each after a confirmation dialog
 * listing the rows it applies to.
 */
export function ProjectListPage({ route }: PageProps) {
  const [, navigate] = useLocation();
  const { show } = useSnackbar();
  const admin = useAppSelector((s) => s.session.claims?.admin ?? false);
  const { selected: customerRef } = useSelectedCustomer();
  const customer = customerRef?.id ?? '';
  const { customer: document } = useCurrentCustomer();
  const currency = document?.billing_currency ?? 'EUR';
  const [polling, setPolling] = useState(false);
  // another customer picked in the header: back to its first page
  const { page, pageSize, pager } = useServerPaging(customer);
  // Paged on the server by project name: a customer with hundreds of requests loads one page at a time.
  const { currentData, isFetching, error } = useGetProjectRequestsQuery({ customer, page, pageSize }, { skip: !customer, pollingInterval: polling ? POLL_MS : 0 });
  const projects = currentData?.projects ?? NO_PROJECTS;
  const paging = pager(currentData?.total);
  const busy = projects.some((p) => p.state === 'Approved' || p.state === 'Creating');
  if (busy !== polling) setPolling(busy);
  const [approve, approving] = useApproveProjectsMutation();
  const [reject, rejecting] = useRejectProjectsMutation();
  const [retry, retrying] = useRetryProjectsMutation();
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [confirming, setConfirming] = useState<Decision | null>(null);
  const chosen = projects.filter((p) => selected.has(p.id));
  const saving = approving.isLoading || rejecting.isLoading || retrying.isLoading;

  async function onSubmit(d: Decision) {
    const ids = applicable(d, chosen).map((p) => p.id);
    const send = { approve, reject, retry }[d];
    const result = await send({ customer, ids });
    setConfirming(null);
    if ('error' in result) {
      show({ message: `${DECISIONS[d].error} ${serverDetail(result.error) ?? ''}`.trim(), variant: 'error' });
      return;
    }
    setSelected(new Set());
    const data = result.data;
    const moved = 'approved' in data ? data.approved : 'rejected' in data ? data.rejected : data.retried;
    // Selected rows the decision does not apply to were not sent: they count as left alone too.
    const refused = data.refused.length + chosen.length - ids.length;
    show({ message: decisionMessage(d, moved.length, refused), variant: refused > 0 ? 'info' : 'success' });
  }

  return (
    <Page title={route.title}>
      {error ? (
        <div role="alert">
          <Banner variant="critical" title="Projects could not be loaded" description={errorDetail(error) ?? 'Please try again...'} />
        </div>
      ) : (
        <ListTable
          title="Projects"
          hideTitle
          rows={projects}
          rowId={(p) => p.id}
          rowLabel={(p) => p.project_name}
          columns={columns(currency)}
          loading={isFetching && !currentData}
          emptyText="No projects yet"
          // only the provider's admins decide on rows: a customer gets no checkboxes that would do nothing
          selection={admin ? { selected, onChange: setSelected } : undefined}
          filter="client"
          sortable
          paging={paging}
          actions={
            <>
              <Button leadingVisual={PlusIcon} onClick={() => navigate('/projectprovisioning/new')}>
                New
              </Button>
              {admin
                ? (['approve', 'reject', 'retry'] as const).map((d) => (
                    <Button
                      key={d}
                      variant={d === 'approve' ? 'primary' : 'default'}
                      leadingVisual={ICONS[d]}
                      disabled={applicable(d, chosen).length === 0}
                      onClick={() => setConfirming(d)}
                    >
                      {DECISIONS[d].button}
                    </Button>
                  ))
                : null}
            </>
          }
        />
      )}
      {confirming ? (
        <ConfirmDialog
          title={DECISIONS[confirming].title(applicable(confirming, chosen).length)}
          busy={saving}
          onSubmit={() => void onSubmit(confirming)}
          onCancel={() => setConfirming(null)}
        >
          <ul>
            {applicable(confirming, chosen).map((p) => (
              <li key={p.id}>
                {p.project_name} ({p.folder_name})
              </li>
            ))}
          </ul>
        </ConfirmDialog>
      ) : null}
    </Page>
  );
}
