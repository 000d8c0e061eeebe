/** The query of a chart or export read as settings: provider, period, today, time zone and Top N. */
import { PeriodError, resolvePeriod, todayIn, type DateRange } from '@cc/shared/billing/periods.ts';
import { parseTopN } from '@cc/shared/billing/top-n.ts';
import { BILLING_TIME_ZONE } from '@cc/shared/constants.ts';
import { COST_BASES, PROVIDERS, type BillingProvider, type ChartQuery, type CostBasis } from '@cc/shared/schemas/billing.ts';
import { errors } from '../errors.ts';

export function parseProvider(raw: string | undefined, dflt: BillingProvider): BillingProvider {
  const p = raw === undefined || raw === '' ? dflt : raw;
  if (!(PROVIDERS as readonly string[]).includes(p)) throw new errors.badRequest(`provider must be one of ${PROVIDERS.join(', ')}`);
  return p as BillingProvider;
}

export interface ChartSettings {
  provider: BillingProvider;
  range: DateRange;
  today: string;
  timezone: string;
  top: number;
  /** Billed (default) or amortised: the basis of every figure of the answer. */
  basis: CostBasis;
}

/** The cost basis of a chart or export query: billed unless it asks for amortised; 400 on anything else. */
export function parseCostBasis(raw: string | undefined): CostBasis {
  const b = raw === undefined || raw === '' ? 'billed' : raw;
  if (!(COST_BASES as readonly string[]).includes(b)) throw new errors.badRequest(`cost_basis must be one of ${COST_BASES.join(', ')}`);
  return b as CostBasis;
}

/** Parses provider, period, dates, timezone and Top N of a chart/export query; 400 with a detail on any bad value. */
export function chartSettings(q: ChartQuery, opts: { defaultProvider: BillingProvider; forceProvider?: BillingProvider }): ChartSettings {
  const provider = opts.forceProvider ?? parseProvider(q.provider, opts.defaultProvider);
  const timezone = q.timezone || BILLING_TIME_ZONE;
  const top = parseTopN(q.top);
  if (top === null) throw new errors.badRequest('top must be one of 5, 10, 15 or 0 (All)');
  const basis = parseCostBasis(q.cost_basis);
  try {
    const today = todayIn(timezone);
    return { provider, range: resolvePeriod(q, today), today, timezone, top, basis };
  } catch (err) {
    if (err instanceof PeriodError) throw new errors.badRequest(err.message);
    throw err;
  }
}
