import { useState } from 'react';
import { Banner, Button } from '@primer/react';
import { useLocation } from 'wouter';
import { LICENSE_LIST_LIMIT, type LicenseOrder } from '@cc/shared/schemas/licenses.ts';
import { LICENSE_MESSAGES } from '@cc/shared/licenses/rules.ts';
import type { PageProps } from '../../app/route-types.ts';
import { useAppSelector } from '../../app/hooks.ts';
import { useCurrentCustomer } from '../../app/selection/useCustomerContext.ts';
import { Page, PageMessage } from '../../common/Page.tsx';
import { formatTimestampWithZone } from '../../common/dates.ts';
import { useSnackbar } from '../../common/Snackbar.tsx';
import { ConfirmDialog } from '../../common/ConfirmDialog.tsx';
import { RefusalBanner } from '../../common/RefusalBanner.tsx';
import { useDecideOrderMutation, useGetOrdersQuery } from './licensesApi.ts';
import { SlideCard } from './SlideCard.tsx';
import { ListLink } from './ListLink.tsx';
import styles from './Licenses.module.css';

function routeOrder(): LicenseOrder | null {
  const state = window.history.state as { order?: LicenseOrder } | null;
  return state?.order ?? null;
}

/** Manage-order card (spec 001 §2.12): a manager (a provider admin) approves or rejects the order. */
export function ManageOrderPage({ route }: PageProps) {
  const [, navigate] = useLocation();
  const { customer } = useCurrentCustomer();
  const admin = useAppSelector((s) => s.session.claims?.role === 'admin');
  const { show } = useSnackbar();
  const [order, setOrder] = useState(routeOrder);
  const [decide, { isLoading }] = useDecideOrderMutation();
  // the newest orders, the most one page holds: an order that covers this one is among them unless hundreds came after
  const { data: newest } = useGetOrdersQuery({ customer: customer?.customer_id ?? '', page: 0, pageSize: LICENSE_LIST_LIMIT.max }, { skip: !customer });
  const orders = newest?.rows ?? [];
  const [refusal, setRefusal] = useState<unknown>(null);
  // Reject cannot be undone: asked once more (Approve places the order the customer asked for)
  const [confirmReject, setConfirmReject] = useState<(() => void) | null>(null);
  if (!order || !customer) {
    return (
      <Page title={route.title}>
        <PageMessage>
          {LICENSE_MESSAGES.errorOccurred}: open an order from the Orders tab of Workspace License.
        </PageMessage>
        {/* On a line of its own: a link inside a sentence must be told apart by more than its colour (axe link-in-text-block). */}
        <PageMessage>
          <ListLink tab="Orders">Orders tab of Workspace License</ListLink>
        </PageMessage>
      </Page>
    );
  }
  const back = () => navigate('/workspacelicense');
  const act = (approve: boolean, leave: (then: () => void) => void) => async () => {
    try {
      setOrder(await decide({ domain: customer.domain_name, orderId: order.order_id, approve }).unwrap());
      show({ message: LICENSE_MESSAGES.actionOk, variant: 'success' });
      leave(back);
    } catch (err) {
      show({ message: LICENSE_MESSAGES.actionFailed, variant: 'error' });
      setRefusal(err);
    }
  };
  const open = order.status === 'Pending' || order.status === 'Failed';
  // another order for the same SKU approved since this one was asked for may already cover it (an automatic order
  // stays pending otherwise, and approving both buys twice)
  const later = open ? orders.find((o) => o.order_id !== order.order_id && o.sku_id === order.sku_id && (o.decided_at ?? o.order_time) >= order.order_time && ['Approved', 'Fulfilled'].includes(o.status)) : undefined;

  return (
    <Page title={route.title}>
      <SlideCard title={`Order of ${order.order_amount} ${order.sku_name}`}>
        {(leave) => (
          <>
            <dl className={styles.facts}>
              <dt>Status</dt>
              <dd>{order.status}</dd>
              <dt>Order By</dt>
              <dd>{order.order_by}</dd>
              <dt>Order Time</dt>
              <dd>{formatTimestampWithZone(order.order_time)}</dd>
              <dt>Comment</dt>
              <dd>{order.comment || '–'}</dd>
              {order.error ? (
                <>
                  <dt>Error</dt>
                  <dd>{order.error}</dd>
                </>
              ) : null}
            </dl>
            {later ? (
              <Banner
                variant="warning"
                title="Another order for this SKU was approved"
                description={`${later.order_by} ordered ${later.order_amount} on ${formatTimestampWithZone(later.order_time)}, now ${later.status}: check this order is still needed before approving it.`}
              />
            ) : null}
            {refusal ? <RefusalBanner title={LICENSE_MESSAGES.actionFailed} error={refusal} onDismiss={() => setRefusal(null)} /> : null}
            <div className={styles.buttons}>
              {admin && open ? (
                <>
                  <Button variant="primary" loading={isLoading} onClick={act(true, leave)}>
                    Approve
                  </Button>
                  <Button variant="danger" disabled={isLoading} onClick={() => setConfirmReject(() => act(false, leave))}>
                    Reject
                  </Button>
                </>
              ) : null}
              <Button onClick={() => leave(back)}>Back</Button>
            </div>
            {confirmReject ? (
              <ConfirmDialog
                title="Reject this order?"
                onCancel={() => setConfirmReject(null)}
                onSubmit={() => {
                  const reject = confirmReject;
                  setConfirmReject(null);
                  void reject();
                }}
              >
                {`The order of ${order.order_amount} ${order.sku_name} by ${order.order_by} will be rejected.`}
              </ConfirmDialog>
            ) : null}
          </>
        )}
      </SlideCard>
    </Page>
  );
}
