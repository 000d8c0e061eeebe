/**
 * 'Reconcile with invoice' (docs/decisions-billing.md, "Reconcile with invoice"):
 *   GET /v2/billing/reconcile/{customer}?billing_account_id&month=YYYY-MM&provider   -> ReconcileAnswer
 * Permission billing_read, not for a customerViewer (an invoice covers the whole billing account).
 * Every amount is in `currency` (the customer's billing_currency), the sum of lines converted at their usage day's
 * rate; lines without a rate are in no amount, only in `conversion.unconverted`.
 */
import { Type, type Static } from '@sinclair/typebox';
import { CurrencyConversion, Money } from './billing.ts';

export const ReconcileQuery = Type.Object({
  billing_account_id: Type.Optional(Type.String()),
  month: Type.Optional(Type.String({ description: 'YYYY-MM (default: the latest month with data)' })),
  provider: Type.Optional(Type.String({ description: 'all (default), gcp, aws, azure or another provider id' })),
});
export type ReconcileQuery = Static<typeof ReconcileQuery>;

/** The labels of the view's lines, in one place for the api, the screen and the tests. */
export const RECONCILE_LABELS = {
  usage_total: 'Usage in the month (spend by usage day)',
  billed_later: 'Usage billed in a later invoice',
  billed_earlier: 'Usage billed in an earlier invoice',
  not_invoiced: 'Usage without an invoice month',
  late_usage: 'Late-arriving usage (from earlier months)',
  late_corrections: 'Corrections and adjustments to earlier months',
  invoice_total: 'Invoice month total',
  invoice_usage: 'Usage charges',
  invoice_credits: 'Credits',
  invoice_corrections: 'Corrections and adjustments',
  invoice_tax: 'Tax',
  unexplained: 'Difference unexplained',
} as const;
export type ReconcileKey = keyof typeof RECONCILE_LABELS;

export const ReconcileLine = Type.Object({
  key: Type.String(),
  label: Type.String(),
  /** Signed as the line counts towards the total below it (usage billed elsewhere is negative). */
  amount: Money,
});
export type ReconcileLine = Static<typeof ReconcileLine>;

export const ReconcileAnswer = Type.Object({
  month: Type.String(),
  billing_account_id: Type.String(),
  provider: Type.String(),
  currency: Type.String(),
  /** Months the picker offers, newest first. */
  months: Type.Array(Type.String()),
  /** From spend by usage day to the invoice: the lines, then the invoice month total. */
  bridge: Type.Array(ReconcileLine),
  /** What the invoice month total is made of: the lines, then the total. */
  invoice: Type.Array(ReconcileLine),
  /** Invoice month total minus what the bridge explains (0.00 when everything is explained). */
  unexplained: Money,
  conversion: CurrencyConversion,
});
export type ReconcileAnswer = Static<typeof ReconcileAnswer>;
