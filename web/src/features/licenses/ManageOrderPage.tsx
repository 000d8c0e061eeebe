import { useState } from 'react';
import { Button } from '@primer/react';
import { useLocation } from 'wouter';
import type { LicenseOrder } from '@cc/shared/schemas/licenses.ts';
import { LICENSE_MESSAGES } from '@cc/shared/licenses/rules.ts';
import type { PageProps } from '../../app/route-types.ts';
import { useAppSelector } from '../../app/hooks.ts';
import { useCurrentCustomer } from '../../app/selection/useCustomerContext.ts';
import { Page, PageMessage } from '../../common/Page.tsx';
import { formatTimestamp } from '../../common/dates.ts';
import { useSnackbar } from '../../common/Snackbar.tsx';
import { useDecideOrderMutation } from './licensesApi.ts';
import { SlideCard } from './SlideCard.tsx';
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
  if (!order || !customer) {
    return (
      <Page title={route.title}>
        <PageMessage>{LICENSE_MESSAGES.errorOccurred}: open an order from the Orders tab.</PageMessage>
      </Page>
    );
  }
  const back = () => navigate('/workspacelicense');
  const act = (approve: boolean, leave: (then: () => void) => void) => async () => {
    try {
      setOrder(await decide({ domain: customer.domain_name, orderId: order.order_id, approve }).unwrap());
      show({ message: LICENSE_MESSAGES.actionOk, variant: 'success' });
      leave(back);
    } catch {
      show({ message: LICENSE_MESSAGES.actionFailed, variant: 'error' });
    }
  };
  const open = order.status === 'Pending' || order.status === 'Failed';

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
              <dd>{formatTimestamp(order.order_time)}</dd>
              <dt>Comment</dt>
              <dd>{order.comment || '–'}</dd>
              {order.error ? (
                <>
                  <dt>Error</dt>
                  <dd>{order.error}</dd>
                </>
              ) : null}
            </dl>
            <div className={styles.buttons}>
              {admin && open ? (
                <>
                  <Button variant="primary" loading={isLoading} onClick={act(true, leave)}>
                    Approve
                  </Button>
                  <Button variant="danger" disabled={isLoading} onClick={act(false, leave)}>
                    Reject
                  </Button>
                </>
              ) : null}
              <Button onClick={() => leave(back)}>Back</Button>
            </div>
          </>
        )}
      </SlideCard>
    </Page>
  );
}
