import { addDays, billingToday } from '@cc/shared/time.ts';
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
