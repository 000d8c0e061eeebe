/**
 * Everything a billing request needs before it can read spend: the customer's billing settings, the billing
 * account (must be one of the customer's: another customer's account answers 404), provider, period, Top N and,
 * for a customerViewer, their viewer filters read from the database at request time.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { findCustomerBillingSettings, viewerFilters, type CustomerBilling, type LabelFilter } from '@cc/shared/db/billing-query.ts';
import { PeriodError, resolvePeriod, todayIn, type DateRange } from '@cc/shared/billing/periods.ts';
import { parseTopN } from '@cc/shared/billing/top-n.ts';
import { BILLING_TIME_ZONE } from '@cc/shared/constants.ts';
import { errors } from '../../errors.ts';
import type { ChartQuery } from '@cc/shared/schemas/billing.ts';

export const PROVIDERS = ['gcp', 'aws', 'azure', 'all'] as const;
export const MISSING_BILLING_ACCOUNT = 'Missing Billing Account. Please contact your system administrator.';
export const VIEWER_WITHOUT_FILTER = 'Please contact your system administrator';

export interface AccountContext {
  customerId: string;
  billingAccountId: string;
  customer: CustomerBilling;
  /** null: unrestricted; a list: the customerViewer's filters on this customer (never empty). */
  viewer: LabelFilter[] | null;
}

export const isViewer = (req: FastifyRequest) => req.auth?.role === 'customerViewer' && !req.auth.admin;

/** Customer + billing account + viewer restriction. */
export async function accountContext(app: FastifyInstance, req: FastifyRequest, billingAccountId: string | undefined): Promise<AccountContext> {
  const customerId = req.customerId!;
  const customer = await findCustomerBillingSettings(app.pg, customerId);
  if (!customer) throw new errors.customerNotFound();
  if (customer.billing_account_ids.length === 0) throw new errors.notFound(MISSING_BILLING_ACCOUNT);
  const account = billingAccountId || customer.billing_account_ids[0];
  if (!customer.billing_account_ids.includes(account)) throw new errors.notFound('Billing account not found');
  let viewer: LabelFilter[] | null = null;
  if (isViewer(req)) {
    viewer = await viewerFilters(app.pg, customerId, req.auth!.email);
    if (viewer.length === 0) throw new errors.forbidden(VIEWER_WITHOUT_FILTER);
  }
  return { customerId, billingAccountId: account, customer, viewer };
}

export function parseProvider(raw: string | undefined, dflt: (typeof PROVIDERS)[number]): (typeof PROVIDERS)[number] {
  const p = raw === undefined || raw === '' ? dflt : raw;
  if (!(PROVIDERS as readonly string[]).includes(p)) throw new errors.badRequest(`provider must be one of ${PROVIDERS.join(', ')}`);
  return p as (typeof PROVIDERS)[number];
}

export interface ChartSettings {
  provider: (typeof PROVIDERS)[number];
  range: DateRange;
  today: string;
  timezone: string;
  top: number;
}

/** Parses provider, period, dates, timezone and Top N of a chart/export query; 400 with a detail on any bad value. */
export function chartSettings(q: ChartQuery, opts: { defaultProvider: (typeof PROVIDERS)[number]; forceProvider?: (typeof PROVIDERS)[number] }): ChartSettings {
  const provider = opts.forceProvider ?? parseProvider(q.provider, opts.defaultProvider);
  const timezone = q.timezone || BILLING_TIME_ZONE;
  const top = parseTopN(q.top);
  if (top === null) throw new errors.badRequest('top must be one of 5, 10, 15 or 0 (All)');
  try {
    const today = todayIn(timezone);
    return { provider, range: resolvePeriod(q, today), today, timezone, top };
  } catch (err) {
    if (err instanceof PeriodError) throw new errors.badRequest(err.message);
    throw err;
  }
}
