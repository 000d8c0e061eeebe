/**
 * The 'Reconcile with invoice' answer: the per-currency parts of billing-reconcile.sql summed exactly into the
 * bridge from spend by usage day to the invoice month total, and the invoice's make-up. Each figure is the sum of
 * converted lines (never a converted sum), so the bridge closes to the cent: `unexplained` is their difference.
 */
import { reconcileParts, type ReconcilePart, type ReconcileFigure, type ReconcileQuery } from '@cc/shared/db/billing-reconcile.ts';
import type { Queryable } from '@cc/shared/db/pool.ts';
import { formatUnits, sumUnits, toUnits, type Units } from '@cc/shared/billing/money.ts';
import { RECONCILE_LABELS, type ReconcileAnswer, type ReconcileKey, type ReconcileLine } from '@cc/shared/schemas/billing-reconcile.ts';
import { conversionOf } from './conversion.ts';

const total = (parts: ReconcilePart[], f: ReconcileFigure): Units => sumUnits(parts.map((p) => toUnits(p[f])));
const line = (key: ReconcileKey, amount: Units): ReconcileLine => ({ key, label: RECONCILE_LABELS[key], amount: formatUnits(amount) });

export async function reconcileAnswer(db: Queryable, q: ReconcileQuery, months: string[]): Promise<ReconcileAnswer> {
  const parts = await reconcileParts(db, q);
  const t = (f: ReconcileFigure) => total(parts, f);
  // usage of the month on other invoices leaves the month's invoice; usage of other months on it comes in
  const bridge: [ReconcileKey, Units][] = [
    ['usage_total', t('usage_total')],
    ['billed_later', -t('billed_later')],
    ['billed_earlier', -t('billed_earlier')],
    ['not_invoiced', -t('not_invoiced')],
    ['late_usage', t('late_usage')],
    ['late_corrections', t('late_corrections')],
  ];
  const invoice: [ReconcileKey, Units][] = [
    ['invoice_usage', t('invoice_usage')],
    ['invoice_credits', t('invoice_credits')],
    ['invoice_corrections', t('invoice_corrections')],
    ['invoice_tax', t('invoice_tax')],
  ];
  const invoiceTotal = t('invoice_total');
  const explained = sumUnits(bridge.map(([, v]) => v));
  return {
    month: q.month,
    billing_account_id: q.billingAccountId,
    provider: q.provider ?? 'all',
    currency: q.currency,
    months,
    bridge: [...bridge.map(([k, v]) => line(k, v)), line('invoice_total', invoiceTotal)],
    invoice: [...invoice.map(([k, v]) => line(k, v)), line('invoice_total', invoiceTotal)],
    unexplained: formatUnits(invoiceTotal - explained),
    conversion: conversionOf(
      parts.filter((p) => p.currency !== q.currency),
      q.currency,
    ),
  };
}
