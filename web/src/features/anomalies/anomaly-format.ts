import { addDays, billingToday } from '@cc/shared/time.ts';

/** The judged day: two days before today, US/Pacific, YYYY-MM-DD (spec 000 §7, §9). */
export function anomalyDate(now = Date.now()): string {
  return addDays(billingToday(now), -2);
}

/** Money as shown: English style, 2 decimals (spec 001 §9), with the account's currency. */
export function formatMoney(value: number, currency: string): string {
  try {
    return new Intl.NumberFormat('en-US', { style: 'currency', currency, minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(value);
  } catch {
    // An unknown currency code: the number alone rather than a crash.
    return `${formatNumber(value)} ${currency}`.trim();
  }
}

export function formatNumber(value: number): string {
  return new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(value);
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
