import { addDays, billingToday } from '@cc/shared/time.ts';
import type { AnomalyAnswer, AnomalyContributor } from '@cc/shared/schemas/insights.ts';
import { formatNumber } from '../../common/numbers.ts';

/** The judged day: two days before today, US/Pacific, YYYY-MM-DD (spec 000 §7, §9). */
export function anomalyDate(now = Date.now()): string {
  return addDays(billingToday(now), -2);
}

/** "+123.45%"; a change from a zero mean has no percentage. */
export function formatChange(perc: number | null): string {
  if (perc === null) return 'new spend';
  return `${perc > 0 ? '+' : ''}${formatNumber(perc)}%`;
}

/**
 * What Percentage Change sorts by: spend from a zero mean ('new spend') is the largest possible increase, so it comes
 * first when sorted by the biggest change, not last like an empty value.
 */
export function changeSortValue(perc: number | null): number {
  return perc ?? Number.POSITIVE_INFINITY;
}

/**
 * What the answer covered, continuing the subtitle's rule sentence: the window, the judged series and the cold-start
 * series not judged yet. Nothing when detection has not run for the day: '0 series judged' beside 'has not run'
 * told two stories at once; the empty text alone says it.
 */
export function coverageText(answer: AnomalyAnswer): string {
  if (answer.computed_at === null) return '.';
  const cold = answer.cold_start_series > 0 ? `; ${answer.cold_start_series} with less than ${answer.min_history_days} days of history not judged yet` : '';
  // Billed is the default and goes unsaid; amortised figures differ from the invoice, so the sentence says so.
  const basis = answer.cost_basis === 'amortised' ? ' on amortised cost' : '';
  return ` of the previous ${answer.window_days} days. ${answer.judged_series} project and service series judged${basis}${cold}.`;
}

/** The empty table's text: not run yet, nothing found, or nothing shown because anomalies could not be converted. */
export function emptyText(answer: AnomalyAnswer | undefined, date: string): string {
  if (answer && answer.computed_at === null) return `Anomaly detection has not run for ${date} yet`;
  // 'found' would be untrue: some were found, in a currency the screen cannot show (the warning says which)
  if (answer && answer.not_converted.length > 0) return `No anomalies shown for ${date}`;
  return `No anomalies found for ${date}`;
}

/** The warning's title for anomalies left out for want of a rate, as the dashboard's 'Not converted: …'. */
export function notConvertedTitle(n: { currency: string; count: number }): string {
  return `Not converted: ${n.count} ${n.count === 1 ? 'anomaly' : 'anomalies'} judged in ${n.currency}`;
}

/** A dimension's heading in the explanation panel; the label dimension names its key. */
export function dimensionTitle(c: Pick<AnomalyContributor, 'dimension' | 'label_key'>): string {
  if (c.dimension === 'sku') return 'SKUs';
  if (c.dimension === 'resource') return 'Resources';
  return `Resource label ${c.label_key ?? ''}`.trim();
}

/** A contributor as the panel names it: the rest, lines without a resource or label, or its own name. */
export function contributorName(c: Pick<AnomalyContributor, 'dimension' | 'rank' | 'value' | 'label_key' | 'in_baseline'>): string {
  if (c.rank === 0) return 'Rest';
  const name = c.value ? c.value : c.dimension === 'resource' ? '(no resource)' : '(no value)';
  const label = c.dimension === 'label' ? `${c.label_key ?? ''}=${name}` : name;
  return c.in_baseline === false ? `${label} (new)` : label;
}

/** Its share of the rise: '87 %'. */
export function contributorShare(c: Pick<AnomalyContributor, 'share'>): string {
  return `${c.share.toFixed(1).replace(/\.0$/, '')} % of the rise`;
}
