import { useState } from 'react';
import { Button, FormControl, TextInput, Textarea } from '@primer/react';
import type { License } from '@cc/shared/schemas/licenses.ts';
import { COMMENT_MAX, LICENSE_MESSAGES, orderAmountError } from '@cc/shared/licenses/rules.ts';
import { useAppSelector } from '../../app/hooks.ts';
import { useSnackbar } from '../../common/Snackbar.tsx';
import { RefusalBanner } from '../../common/RefusalBanner.tsx';
import { usePlaceOrderMutation } from './licensesApi.ts';
import { SlideCard } from './SlideCard.tsx';
import styles from './Licenses.module.css';

/** The order card (spec 001 §2.12, §5): amount (1 to volume_total) and a comment for one license. */
export function OrderCard({ license, domain, customerId, onClose }: { license: License; domain: string; customerId: string; onClose: () => void }) {
  const { show } = useSnackbar();
  const email = useAppSelector((s) => s.session.claims?.email ?? '');
  const [placeOrder, { isLoading }] = usePlaceOrderMutation();
  const [amount, setAmount] = useState('');
  const [comment, setComment] = useState('');
  const [touched, setTouched] = useState(false);
  const [refusal, setRefusal] = useState<unknown>(null);
  const error = touched ? orderAmountError(amount, license.volume_total) : null;

  return (
    <SlideCard title={`Order ${license.sku_name}`}>
      {(leave) => (
        <>
          <FormControl>
            <FormControl.Label>Amount</FormControl.Label>
            <TextInput inputMode="numeric" value={amount} onChange={(e) => (setTouched(true), setAmount(e.target.value))} block />
            {error ? <FormControl.Validation variant="error">{error}</FormControl.Validation> : null}
          </FormControl>
          <FormControl>
            <FormControl.Label>Comment</FormControl.Label>
            <Textarea value={comment} maxLength={COMMENT_MAX} onChange={(e) => setComment(e.target.value)} block />
          </FormControl>
          {refusal ? <RefusalBanner title={LICENSE_MESSAGES.orderFailed} error={refusal} onDismiss={() => setRefusal(null)} /> : null}
          <div className={styles.buttons}>
            <Button
              variant="primary"
              loading={isLoading}
              disabled={orderAmountError(amount, license.volume_total) !== null}
              onClick={async () => {
                try {
                  await placeOrder({ domain, body: { ...license, order_amount: amount, comment, customer_id: customerId, order_by: email } }).unwrap();
                  show({ message: LICENSE_MESSAGES.orderPlaced, variant: 'success' });
                  leave(onClose);
                } catch (err) {
                  show({ message: LICENSE_MESSAGES.orderFailed, variant: 'error' });
                  setRefusal(err);
                }
              }}
            >
              Place Order
            </Button>
            <Button onClick={() => leave(onClose)}>Cancel</Button>
          </div>
        </>
      )}
    </SlideCard>
  );
}
