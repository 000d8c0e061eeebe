-- 'Reconcile with invoice' for one billing account and month (docs/decisions-billing.md, "Reconcile with invoice"):
-- every cost line that is on the month's invoice (invoice_month) or whose usage day lies in the month, each in its
-- own currency, converted at its usage day's rate. One row per original currency; every figure is the sum of its
-- converted lines (NULL rate: the line is in no figure, only in `unconverted`).
-- :customer, :account, :month_start (the month's first day), :invoice_month ('YYYYMM'), :provider (NULL = all),
-- :currency (display)
WITH lines AS (
  -- grouped by what decides a line's place in the reconciliation, so rates are looked up per (currency, day)
  SELECT l.currency, l.usage_date,
         coalesce(l.invoice_month = :invoice_month, false) AS on_invoice,
         l.usage_date BETWEEN :month_start::date AND (:month_start::date + interval '1 month')::date - 1 AS in_month,
         CASE WHEN l.invoice_month IS NULL THEN 'none' WHEN l.invoice_month > :invoice_month THEN 'later' WHEN l.invoice_month < :invoice_month THEN 'earlier' ELSE 'this' END AS billed,
         -- a correction file's lines (ChargeClass Correction, batch mode 'append') and the provider's adjustments
         -- (GCP cost_type adjustment / rounding_error, FOCUS ChargeCategory Adjustment)
         CASE WHEN b.mode = 'append' OR l.cost_type IN ('adjustment', 'rounding_error') THEN 'correction'
              WHEN l.cost_type = 'tax' THEN 'tax' ELSE 'usage' END AS kind,
         sum(l.cost) AS cost, sum(l.credits) AS credits
    FROM cost_line l JOIN ingest_batch b ON b.id = l.source_batch
   WHERE l.customer_id = :customer AND l.billing_account_id = :account
     AND (:provider::text IS NULL OR l.provider = :provider)
     -- the invoice month's lines lie between the first and last day of its batches' extents (cost_line_extent)
     AND ((l.invoice_month = :invoice_month
           AND l.usage_date BETWEEN (SELECT min(e.first_day) FROM cost_line_extent e WHERE e.billing_account_id = :account AND e.invoice_month = :invoice_month)
                                AND (SELECT max(e.last_day) FROM cost_line_extent e WHERE e.billing_account_id = :account AND e.invoice_month = :invoice_month))
          OR l.usage_date BETWEEN :month_start::date AND (:month_start::date + interval '1 month')::date - 1)
   GROUP BY 1, 2, 3, 4, 5, 6
), rated AS (
  SELECT x.*, CASE WHEN x.currency = :currency THEN 1::numeric ELSE r.rate END AS rate, r.source
    FROM lines x
    LEFT JOIN LATERAL fx_rate_on(x.currency, :currency, x.usage_date) r ON x.currency <> :currency
)
SELECT currency,
  coalesce(sum((cost + credits) * rate) FILTER (WHERE on_invoice), 0)::text AS invoice_total,
  coalesce(sum((cost + credits) * rate) FILTER (WHERE in_month), 0)::text AS usage_total,
  coalesce(sum((cost + credits) * rate) FILTER (WHERE in_month AND billed = 'later'), 0)::text AS billed_later,
  coalesce(sum((cost + credits) * rate) FILTER (WHERE in_month AND billed = 'earlier'), 0)::text AS billed_earlier,
  coalesce(sum((cost + credits) * rate) FILTER (WHERE in_month AND billed = 'none'), 0)::text AS not_invoiced,
  coalesce(sum((cost + credits) * rate) FILTER (WHERE on_invoice AND NOT in_month AND kind <> 'correction'), 0)::text AS late_usage,
  coalesce(sum((cost + credits) * rate) FILTER (WHERE on_invoice AND NOT in_month AND kind = 'correction'), 0)::text AS late_corrections,
  coalesce(sum(cost * rate) FILTER (WHERE on_invoice AND kind = 'usage'), 0)::text AS invoice_usage,
  coalesce(sum(credits * rate) FILTER (WHERE on_invoice AND kind <> 'correction'), 0)::text AS invoice_credits,
  coalesce(sum((cost + credits) * rate) FILTER (WHERE on_invoice AND kind = 'correction'), 0)::text AS invoice_corrections,
  coalesce(sum(cost * rate) FILTER (WHERE on_invoice AND kind = 'tax'), 0)::text AS invoice_tax,
  -- the CurrencyPart of the chart answers, over the same lines
  coalesce(sum(cost + credits) FILTER (WHERE rate IS NOT NULL), 0)::text AS converted_original,
  coalesce(sum((cost + credits) * rate) FILTER (WHERE rate IS NOT NULL), 0)::text AS converted,
  coalesce(sum(cost + credits) FILTER (WHERE rate IS NULL), 0)::text AS unconverted,
  to_char(min(usage_date) FILTER (WHERE rate IS NULL), 'YYYY-MM-DD') AS missing_from,
  to_char(max(usage_date) FILTER (WHERE rate IS NULL), 'YYYY-MM-DD') AS missing_to,
  coalesce(array_agg(DISTINCT source ORDER BY source) FILTER (WHERE source IS NOT NULL), '{}') AS sources
FROM rated
GROUP BY currency
ORDER BY currency
