import { useState } from 'react';
import { Button, Checkbox, FormControl, TextInput } from '@primer/react';
import { useLocation } from 'wouter';
import type { License } from '@cc/shared/schemas/licenses.ts';
import { LICENSE_MESSAGES, NEW_ORDER_DEFAULT, licenseChanged, newOrderError, thresholdError } from '@cc/shared/licenses/rules.ts';
import type { PageProps } from '../../app/route-types.ts';
import { useCurrentCustomer } from '../../app/selection/useCustomerContext.ts';
import { Page, PageMessage } from '../../common/Page.tsx';
import { useSnackbar } from '../../common/Snackbar.tsx';
import { useCanChange } from '../../common/permissions.ts';
import { RefusalBanner } from '../../common/RefusalBanner.tsx';
import { useUpdateLicenseMutation } from './licensesApi.ts';
import { SlideCard } from './SlideCard.tsx';
import { ListLink } from './ListLink.tsx';
import styles from './Licenses.module.css';

/** The license the list passed as route state (spec 001 §2.1), or null when the page was opened directly. */
function routeLicense(): License | null {
  const state = window.history.state as { license?: License } | null;
  return state?.license ?? null;
}

/** Update card (spec 001 §2.12, §4): threshold, auto order, new order; Update stays disabled until one differs. */
export function UpdateLicensePage({ route }: PageProps) {
  const writer = useCanChange();
  const [refusal, setRefusal] = useState<unknown>(null);
  const [, navigate] = useLocation();
  const { customer } = useCurrentCustomer();
  const { show } = useSnackbar();
  const [license] = useState(routeLicense);
  const [update, { isLoading }] = useUpdateLicenseMutation();
  const [threshold, setThreshold] = useState(String(license?.threshold ?? ''));
  const [autoOrder, setAutoOrder] = useState(license?.auto_order ?? false);
  const [newOrder, setNewOrder] = useState(String(license?.new_order ?? NEW_ORDER_DEFAULT));
  if (!license || !customer) {
    return (
      <Page title={route.title}>
        <PageMessage>
          {LICENSE_MESSAGES.errorOccurred}: open a license from the Workspace License list.
        </PageMessage>
        {/* On a line of its own: a link inside a sentence must be told apart by more than its colour (axe link-in-text-block). */}
        <PageMessage>
          <ListLink tab="Existing">Workspace License list</ListLink>
        </PageMessage>
      </Page>
    );
  }
  const errors = { threshold: thresholdError(threshold, license.volume_total), new_order: autoOrder ? newOrderError(newOrder, license.volume_total) : null };
  const changed = licenseChanged(license, { threshold, auto_order: autoOrder, new_order: newOrder });
  const back = () => navigate('/workspacelicense');

  return (
    <Page title={route.title}>
      <SlideCard title={license.sku_name}>
        {(leave) => (
          <>
            <dl className={styles.facts}>
              <dt>SKU Id</dt>
              <dd>{license.sku_id}</dd>
              <dt>Total</dt>
              <dd>{license.volume_total}</dd>
              <dt>Available</dt>
              <dd>{license.volume_available}</dd>
            </dl>
            <FormControl>
              <FormControl.Label>Threshold</FormControl.Label>
              <TextInput inputMode="numeric" value={threshold} onChange={(e) => setThreshold(e.target.value)} block />
              {errors.threshold ? <FormControl.Validation variant="error">{errors.threshold}</FormControl.Validation> : null}
            </FormControl>
            <FormControl>
              {/* Toggling auto order resets new order to 1 (spec 001 §4). */}
              <Checkbox checked={autoOrder} onChange={(e) => (setAutoOrder(e.target.checked), setNewOrder(String(NEW_ORDER_DEFAULT)))} />
              <FormControl.Label>Auto Order</FormControl.Label>
            </FormControl>
            <FormControl disabled={!autoOrder}>
              <FormControl.Label>New Order</FormControl.Label>
              <TextInput inputMode="numeric" value={newOrder} onChange={(e) => setNewOrder(e.target.value)} block />
              {errors.new_order ? <FormControl.Validation variant="error">{errors.new_order}</FormControl.Validation> : null}
            </FormControl>
            {refusal ? <RefusalBanner title={LICENSE_MESSAGES.updateFailed} error={refusal} onDismiss={() => setRefusal(null)} /> : null}
            <div className={styles.buttons}>
              <Button
                variant="primary"
                disabled={!changed || !writer}
                loading={isLoading}
                onClick={async () => {
                  if (errors.threshold || errors.new_order) return show({ message: LICENSE_MESSAGES.incorrectInput, variant: 'error' });
                  try {
                    await update({ domain: customer.domain_name, skuId: license.sku_id, body: { auto_order: autoOrder, threshold, new_order: newOrder } }).unwrap();
                    show({ message: LICENSE_MESSAGES.updated, variant: 'success' });
                    leave(back);
                  } catch (err) {
                    show({ message: LICENSE_MESSAGES.updateFailed, variant: 'error' });
                    setRefusal(err);
                  }
                }}
              >
                Update
              </Button>
              <Button onClick={() => leave(back)}>Back</Button>
            </div>
          </>
        )}
      </SlideCard>
    </Page>
  );
}
