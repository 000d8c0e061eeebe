import { useState } from 'react';
import { Button } from '@primer/react';
import type { InboxItem } from '@cc/shared/schemas/operations.ts';
import { LICENSE_MESSAGES } from '@cc/shared/licenses/rules.ts';
import { ConfirmDialog } from '../../common/ConfirmDialog.tsx';
import { useSnackbar } from '../../common/Snackbar.tsx';
import { serverDetail } from '../../common/api-error.ts';
import { DECISIONS, decisionMessage, type Decision } from '../provisioning/decisions.ts';
import { useApproveProjectsMutation, useRejectProjectsMutation, useRetryProjectsMutation } from '../provisioning/provisioningApi.ts';
import { useDecideOrderMutation } from '../licenses/licensesApi.ts';
import styles from './operations.module.css';

/** The decisions an item offers in place: its screen's own, with that screen's confirmation. */
const PROJECT_DECISIONS: Partial<Record<InboxItem['kind'], Decision[]>> = {
  project_request_pending: ['approve', 'reject'],
  provisioning_failed: ['retry', 'reject'],
};

export interface InboxActionsProps {
  item: InboxItem;
  /** After a decision went through (the inbox reloads). */
  onDecided: () => void;
  /** Opens the item's screen with its customer selected. */
  onOpen: (item: InboxItem) => void;
}

/** Approve / reject / retry in place, as the provisioning and Manage Order screens do, and Open. */
export function InboxActions({ item, onDecided, onOpen }: InboxActionsProps) {
  const { show } = useSnackbar();
  const [approve, approving] = useApproveProjectsMutation();
  const [reject, rejecting] = useRejectProjectsMutation();
  const [retry, retrying] = useRetryProjectsMutation();
  const [decideOrder, deciding] = useDecideOrderMutation();
  const [confirming, setConfirming] = useState<Decision | null>(null);
  const [confirmOrderReject, setConfirmOrderReject] = useState(false);
  const busy = approving.isLoading || rejecting.isLoading || retrying.isLoading || deciding.isLoading;
  const request = item.project_request;
  const order = item.license_order;
  const open = item.link ? (
    <Button size="small" onClick={() => onOpen(item)} aria-label={`Open: ${item.what}`}>
      Open
    </Button>
  ) : null;

  async function decideProject(d: Decision) {
    if (!request || !item.customer_id) return;
    const result = await { approve, reject, retry }[d]({ customer: item.customer_id, ids: [request.id] });
    setConfirming(null);
    if ('error' in result) {
      show({ message: `${DECISIONS[d].error} ${serverDetail(result.error) ?? ''}`.trim(), variant: 'error' });
      return;
    }
    const data = result.data;
    const moved = 'approved' in data ? data.approved : 'rejected' in data ? data.rejected : data.retried;
    show({ message: decisionMessage(d, moved.length, data.refused.length), variant: data.refused.length > 0 ? 'info' : 'success' });
    onDecided();
  }

  async function decideLicense(approveIt: boolean) {
    if (!order) return;
    setConfirmOrderReject(false);
    try {
      await decideOrder({ domain: order.domain, orderId: order.order_id, approve: approveIt }).unwrap();
      show({ message: LICENSE_MESSAGES.actionOk, variant: 'success' });
      onDecided();
    } catch (err) {
      show({ message: `${LICENSE_MESSAGES.actionFailed} ${serverDetail(err) ?? ''}`.trim(), variant: 'error' });
    }
  }

  const decisions = request ? (PROJECT_DECISIONS[item.kind] ?? []) : [];
  return (
    <div className={styles.actions}>
      {decisions.map((d) => (
        <Button key={d} size="small" variant={d === 'reject' ? 'default' : 'primary'} disabled={busy} onClick={() => setConfirming(d)} aria-label={`${DECISIONS[d].button} ${request!.project_name}`}>
          {DECISIONS[d].button}
        </Button>
      ))}
      {order && (order.status === 'Pending' || order.status === 'Failed') ? (
        <>
          {/* As Manage Order: Approve places what the customer asked for; Reject cannot be undone and is asked once more. */}
          <Button size="small" variant="primary" loading={deciding.isLoading} onClick={() => void decideLicense(true)} aria-label={`Approve the order of ${order.order_amount} ${order.sku_name}`}>
            Approve
          </Button>
          <Button size="small" variant="danger" disabled={busy} onClick={() => setConfirmOrderReject(true)} aria-label={`Reject the order of ${order.order_amount} ${order.sku_name}`}>
            Reject
          </Button>
        </>
      ) : null}
      {open}
      {confirming && request ? (
        <ConfirmDialog title={DECISIONS[confirming].title(1)} busy={busy} onSubmit={() => void decideProject(confirming)} onCancel={() => setConfirming(null)}>
          <ul>
            <li>
              {request.project_name} ({request.folder_name})
            </li>
          </ul>
        </ConfirmDialog>
      ) : null}
      {confirmOrderReject && order ? (
        <ConfirmDialog title="Reject this order?" onCancel={() => setConfirmOrderReject(false)} onSubmit={() => void decideLicense(false)}>
          {`The order of ${order.order_amount} ${order.sku_name} by ${order.order_by} will be rejected.`}
        </ConfirmDialog>
      ) : null}
    </div>
  );
}
