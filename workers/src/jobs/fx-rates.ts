import type { JobFor } from '@cc/shared/queues.ts';
import { latestRateDate, saveRates } from '@cc/shared/db/fx-rates.ts';
import { addDays, billingToday } from '@cc/shared/time.ts';
import type { DepsOf } from '../deps.ts';

/** A first run loads this much history (a 13-month dashboard plus its 7-day look-back). */
const FIRST_RUN_DAYS = 400;
/** Later runs fetch again from a week before the last stored fixing (a corrected fixing replaces the stored one). */
const REFETCH_DAYS = 7;

/**
 * fx.rates: loads the exchange rates of the configured source (FX_RATES: the ECB's files or a rates CSV) into
 * fx_rate with that source as provenance, then drops every cached chart answer (any converted figure may change).
 * Nightly before anomaly detection and alert evaluation, so they judge yesterday in converted figures.
 * Idempotent: a re-run stores the same (currency, date, source) rows again.
 */
export function fxRatesHandler(deps: DepsOf<'fx-rates'>) {
  return async (job: JobFor<'fx-rates'>) => {
    const { source } = deps.fxRates;
    const latest = await latestRateDate(deps.pool, source.source);
    const since = job.data.since ?? (latest ? addDays(latest, -REFETCH_DAYS) : addDays(billingToday(), -FIRST_RUN_DAYS));
    const rates = await source.rates(since);
    const saved = await saveRates(deps.pool, source.source, rates);
    await deps.fxRates.invalidateCharts();
    const dates = rates.map((r) => r.rate_date).sort();
    return { source: source.source, since, saved, first: dates[0] ?? null, last: dates.at(-1) ?? null };
  };
}
