/**
 * A budget's amount is in its billing account's currency (the Budgets API refuses any other), while a project
 * template's budget is in the customer's portal currency. When they differ the amount is converted at the
 * day's reference rate, and the request's step log says at which rate, so nobody wonders why the console shows
 * another figure.
 */
import type { Queryable } from '../db/pool.ts';
import { rateOn } from '../db/fx-rates.ts';
import { ProvisioningError } from '../ports/cloud-provisioning.ts';
import { budgetMoney } from './rules.ts';

export interface BudgetAmount {
  money: { currencyCode: string; units: string; nanos: number };
  /** What the step log says about the amount. */
  note: string;
}

/** `budget` (in `portalCurrency`) as money in `accountCurrency`, converted at the rate of `day` (YYYY-MM-DD). */
export async function budgetInAccountCurrency(db: Queryable, budget: number, portalCurrency: string, accountCurrency: string, day: string): Promise<BudgetAmount> {
  if (portalCurrency === accountCurrency) return { money: budgetMoney(budget, accountCurrency), note: `${budget} ${accountCurrency} a month` };
  const rate = await rateOn(db, portalCurrency, accountCurrency, day);
  // Rates arrive with the nightly job: a missing one is worth a later retry, not a budget in the wrong currency.
  if (!rate) throw new ProvisioningError(`No ${portalCurrency}→${accountCurrency} exchange rate for ${day}: the budget must be in the billing account's currency (${accountCurrency})`, true);
  const converted = Math.round(budget * Number(rate.rate) * 100) / 100;
  return {
    money: budgetMoney(converted, accountCurrency),
    note:
      `${converted.toFixed(2)} ${accountCurrency} a month (the billing account's currency): ` +
      `the template's ${budget} ${portalCurrency} at ${Number(rate.rate)} ${accountCurrency} per ${portalCurrency} of ${rate.rate_date}`,
  };
}
