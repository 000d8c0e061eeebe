/**
 * Reads of the 'Reconcile with invoice' view (docs/decisions-billing.md, "Reconcile with invoice"): spend by invoice
 * month beside spend by usage day, from the cost lines themselves (the rollups keep no invoice month). Amounts are
 * numeric text in the display currency, per original currency; the api sums them exactly.
 */
import type { Queryable } from './pool.ts';
import type { CurrencyPart } from './billing-query.ts';
import { loadSql } from './load-sql.ts';

const RECONCILE = loadSql('billing-reconcile');

/** The figures of the view, each the sum of converted lines (lines without a rate are in none of them). */
export const RECONCILE_FIGURES = [
  'invoice_total',
  'usage_total',
  'billed_later',
  'billed_earlier',
  'not_invoiced',
  'late_usage',
  'late_corrections',
  'invoice_usage',
  'invoice_credits',
  'invoice_corrections',
  'invoice_tax',
] as const;
export type ReconcileFigure = (typeof RECONCILE_FIGURES)[number];

/** One original currency's share of every figure, and its conversion (as the charts' currency parts). */
export type ReconcilePart = Record<ReconcileFigure, string> & CurrencyPart;

export interface ReconcileQuery {
  customerId: string;
  billingAccountId: string;
  /** YYYY-MM */
  month: string;
  /** null = every provider. */
  provider: string | null;
  /** The display currency (the customer's billing_currency). */
  currency: string;
}

export async function reconcileParts(db: Queryable, q: ReconcileQuery): Promise<ReconcilePart[]> {
  const { rows } = await db.query<ReconcilePart>(
    RECONCILE.text,
    RECONCILE.values({
      customer: q.customerId,
      account: q.billingAccountId,
      month_start: `${q.month}-01`,
      invoice_month: q.month.replace('-', ''),
      provider: q.provider,
      currency: q.currency,
    }),
  );
  return rows;
}

/**
 * The months the picker offers (YYYY-MM, newest first): every invoice month of the account's lines and every month
 * with usage, so a month whose lines carry no invoice month can still be looked at.
 */
export async function reconcileMonths(db: Queryable, customerId: string, billingAccountId: string): Promise<string[]> {
  const { rows } = await db.query<{ month: string }>(
    // invoice months from the batches' extents (cost_line_extent), each kept while lines of it are left: a later batch
    // may have replaced every line of an earlier one
    `WITH inv AS (
       SELECT invoice_month AS m, min(first_day) AS first_day, max(last_day) AS last_day FROM cost_line_extent
        WHERE billing_account_id = $2 AND customer_id = $1 AND invoice_month <> ''
        GROUP BY invoice_month
     )
     SELECT substr(m, 1, 4) || '-' || substr(m, 5, 2) AS month FROM inv
      WHERE EXISTS (SELECT 1 FROM cost_line l WHERE l.billing_account_id = $2 AND l.usage_date BETWEEN inv.first_day AND inv.last_day
                       AND l.invoice_month = inv.m AND l.customer_id = $1)
     UNION
     SELECT DISTINCT to_char(month, 'YYYY-MM') FROM cost_monthly WHERE customer_id = $1 AND billing_account_id = $2
     ORDER BY 1 DESC`,
    [customerId, billingAccountId],
  );
  return rows.map((r) => r.month);
}
