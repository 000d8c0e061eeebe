import { useState } from 'react';
import { Banner, Button } from '@primer/react';
import { CheckIcon, PlusIcon } from '@primer/octicons-react';
import { useLocation } from 'wouter';
import type { ProjectRecord } from '@cc/shared/schemas/provisioning.ts';
import type { PageProps } from '../../app/route-types.ts';
import { useAppSelector } from '../../app/hooks.ts';
import { useSelectedCustomer } from '../../app/selection/useCustomerContext.ts';
import { errorDetail, serverDetail } from '../../common/api-error.ts';
import { ConfirmDialog } from '../../common/ConfirmDialog.tsx';
import { ListTable, type ListColumn } from '../../common/list/ListTable.tsx';
import { Page } from '../../common/Page.tsx';
import { useSnackbar } from '../../common/Snackbar.tsx';
import { useApproveProjectsMutation, useGetProjectRequestsQuery } from './provisioningApi.ts';

/** While a row is being created the list asks again this often, so its step and state move on their own. */
const POLL_MS = 2000;

/** State, and the step a Creating row is at or a Failed row stopped at. */
const stateText = (p: ProjectRecord) => (p.step_label ? `${p.state}: ${p.step_label}` : p.state);

const COLUMNS: readonly ListColumn<ProjectRecord>[] = [
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
    text: (p) => `${p.template_name} (Budget: ${p.project_template.budget}, Default Admin: ${p.project_template.default_admin})`,
  },
];

/**
 * Project provisioning (spec 000 §2): the customer's project requests, New, and for the provider's admins Approve
 * of the selected rows after the confirmation dialog.
 */
export function ProjectListPage({ route }: PageProps) {
  const [, navigate] = useLocation();
  const { show } = useSnackbar();
  const admin = useAppSelector((s) => s.session.claims?.admin ?? false);
  const { selected: customerRef } = useSelectedCustomer();
  const customer = customerRef?.id ?? '';
  const [polling, setPolling] = useState(false);
  const { currentData, isFetching, error } = useGetProjectRequestsQuery(customer, { skip: !customer, pollingInterval: polling ? POLL_MS : 0 });
  const projects = currentData ?? [];
  const busy = projects.some((p) => p.state === 'Approved' || p.state === 'Creating');
  if (busy !== polling) setPolling(busy);
  const [approve, { isLoading: approving }] = useApproveProjectsMutation();
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [confirming, setConfirming] = useState(false);
  const chosen = projects.filter((p) => selected.has(p.id));

  async function onSubmit() {
    const result = await approve({ customer, ids: chosen.map((p) => p.id) });
    setConfirming(false);
    if ('error' in result) {
      show({ message: `Error approving Projects ${serverDetail(result.error) ?? ''}`.trim(), variant: 'error' });
      return;
    }
    setSelected(new Set());
    const { approved, refused } = result.data;
    const notPending = refused.length > 0 ? `; ${refused.length} not pending, left as they are` : '';
    show({ message: `${approved.length} project(s) approved${notPending}`, variant: refused.length > 0 ? 'info' : 'success' });
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
          columns={COLUMNS}
          loading={isFetching && !currentData}
          emptyText="No projects yet"
          selection={{ selected, onChange: setSelected }}
          filter="client"
          sortable
          paging="client"
          actions={
            <>
              <Button leadingVisual={PlusIcon} onClick={() => navigate('/projectprovisioning/new')}>
                New
              </Button>
              {admin ? (
                <Button variant="primary" leadingVisual={CheckIcon} disabled={chosen.length === 0} onClick={() => setConfirming(true)}>
                  Approve
                </Button>
              ) : null}
            </>
          }
        />
      )}
      {confirming ? (
        <ConfirmDialog
          title={`Please confirm to approve the following ${chosen.length} projects`}
          busy={approving}
          onSubmit={() => void onSubmit()}
          onCancel={() => setConfirming(false)}
        >
          <ul>
            {chosen.map((p) => (
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
