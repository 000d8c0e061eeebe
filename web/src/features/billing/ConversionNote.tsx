import { Banner } from '@primer/react';
import type { CurrencyConversion } from '@cc/shared/schemas/billing.ts';
import { formatMoney } from './format.ts';
import styles from './BillingDashboard.module.css';

/** How a rate source is named on screen. */
export const SOURCE_LABELS: Record<string, string> = {
  ecb: 'ECB reference rates',
  'gcp-export': 'GCP billing export rates',
  csv: 'loaded rates file',
  demo: 'demo rates',
};
const sourceLabel = (s: string) => s.split('+').map((p) => SOURCE_LABELS[p] ?? p).join(' and ');

/**
 * Which figures were converted into the display currency and at which rates (source per currency), the demo-rates
 * note when the repository's invented rates were used, and the spend that could not be converted: per currency,
 * with the message naming the missing rate. That spend is in no figure on the screen.
 */
export function ConversionNote({ conversion, currency }: { conversion: CurrencyConversion | undefined; currency: string }) {
  if (!conversion || (conversion.converted.length === 0 && conversion.unconverted.length === 0)) return null;
  return (
    <div className={styles.conversion} data-testid="currency-conversion">
      {conversion.converted.length > 0 ? (
        <p className={styles.conversionText}>
          Figures in {currency}, converted at the rate of each usage day:{' '}
          {conversion.converted.map((c, i) => (
            <span key={c.currency}>
              {i > 0 ? '; ' : ''}
              {formatMoney(c.original)} {c.currency} = {formatMoney(c.amount)} {currency} ({c.sources.map(sourceLabel).join(', ')})
            </span>
          ))}
          .
        </p>
      ) : null}
      {conversion.demo_rates ? (
        <Banner
          variant="warning"
          title="Demo exchange rates"
          description="Some figures were converted with the demo rates file (invented rates), not real exchange rates."
        />
      ) : null}
      {conversion.unconverted.map((u) => (
        <Banner key={u.currency} variant="warning" title={`Not converted: ${formatMoney(u.amount)} ${u.currency}`} description={u.message} />
      ))}
    </div>
  );
}
