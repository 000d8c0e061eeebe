-- Up Migration
-- Billed and amortised cost (docs/decisions-billing.md, "Billed / Amortised").
-- Billed is cash as invoiced: cost + credits (FOCUS BilledCost). Amortised is FOCUS EffectiveCost: an upfront
-- commitment purchase is 0 on its purchase day and its cost is spread over the usage it covers.
--
-- Every line and rollup row keeps `amortisation` = amortised minus billed (EffectiveCost - BilledCost): negative on a
-- prepaid purchase, positive on the usage it covers, 0 on everything else. Amortised spend = cost + credits +
-- amortisation, exact. Stored as the difference rather than as effective_cost itself because 0 is then a true
-- default: ADD COLUMN ... DEFAULT 0 is instant (no rewrite of cost_line, also when it is partitioned), existing rows
-- get exactly what the definition implies (nothing loaded before kept EffectiveCost, so amortised = billed until a
-- FOCUS file is loaded again), and every writer that knows nothing of amortisation stays correct unchanged.

ALTER TABLE cost_line ADD COLUMN amortisation numeric(24,12) NOT NULL DEFAULT 0;
ALTER TABLE cost_daily ADD COLUMN amortisation numeric(24,12) NOT NULL DEFAULT 0;
ALTER TABLE cost_monthly ADD COLUMN amortisation numeric(24,12) NOT NULL DEFAULT 0;
ALTER TABLE cost_daily_label ADD COLUMN amortisation numeric(24,12) NOT NULL DEFAULT 0;

-- The basis the customer's alert quotas and anomaly detection judge (the dashboard's own choice is per browser, in
-- its saved settings, and sent with every chart and export request). Default billed: what the invoice says.
ALTER TABLE customer ADD COLUMN billing_cost_basis text NOT NULL DEFAULT 'billed' CHECK (billing_cost_basis IN ('billed', 'amortised'));
-- What a run and a notice were judged on, so a figure shown later says which basis it is.
ALTER TABLE anomaly_run ADD COLUMN cost_basis text NOT NULL DEFAULT 'billed' CHECK (cost_basis IN ('billed', 'amortised'));
ALTER TABLE alert_notice ADD COLUMN cost_basis text NOT NULL DEFAULT 'billed' CHECK (cost_basis IN ('billed', 'amortised'));

-- Spend of a row on a basis ('billed': cost + credits; 'amortised': plus the amortisation), and its cost part (credits
-- stay as they are on both bases: FOCUS says a credit's EffectiveCost is its BilledCost). One-expression SQL
-- functions, which the planner inlines, so reads pay nothing for them.
CREATE FUNCTION basis_spend(p_basis text, p_cost numeric, p_credits numeric, p_amortisation numeric)
RETURNS numeric LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN p_basis = 'amortised' THEN p_cost + p_credits + p_amortisation ELSE p_cost + p_credits END
$$;
CREATE FUNCTION basis_cost(p_basis text, p_cost numeric, p_amortisation numeric)
RETURNS numeric LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN p_basis = 'amortised' THEN p_cost + p_amortisation ELSE p_cost END
$$;

-- Down Migration
DROP FUNCTION basis_cost(text, numeric, numeric);
DROP FUNCTION basis_spend(text, numeric, numeric, numeric);
ALTER TABLE alert_notice DROP COLUMN cost_basis;
ALTER TABLE anomaly_run DROP COLUMN cost_basis;
ALTER TABLE customer DROP COLUMN billing_cost_basis;
ALTER TABLE cost_daily_label DROP COLUMN amortisation;
ALTER TABLE cost_monthly DROP COLUMN amortisation;
ALTER TABLE cost_daily DROP COLUMN amortisation;
ALTER TABLE cost_line DROP COLUMN amortisation;
