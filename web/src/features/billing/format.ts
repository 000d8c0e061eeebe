/** Display formats of the billing dashboard (spec 000 §9, 001 §9). */
import { resolvePeriod } from '@cc/shared/billing/periods.ts';
import { billingToday } from '@cc/shared/time.ts';
import type { DashboardSettings } from './settings.ts';

/**
 * An exact decimal string shown English style with 2 decimals ("1234567.5" -> "1,234,567.50").
 * Done on the string, rounding half away from zero, so no float ever touches the amount.
 */
export function formatMoney(amount: string | null | undefined): string {
  if (amount == null || amount === '') return '';
  const m = /^([-+]?)(\d*)(?:\.(\d*))?$/.exec(amount.trim());
  if (!m) return amount;
  const negative = m[1] === '-';
  let int = m[2] || '0';
  const frac = (m[3] ?? '').padEnd(3, '0');
  let cents = Number(frac.slice(0, 2));
  if (Number(frac[2]) >= 5) cents += 1;
  if (cents === 100) {
    cents = 0;
    int = incrementDigits(int);
  }
  const grouped = int.replace(/^0+(?=\d)/, '').replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const text = `${grouped}.${String(cents).padStart(2, '0')}`;
  return negative && text !== '0.00' ? `-${text}` : text;
}

function incrementDigits(digits: string): string {
  const out = digits.split('');
  for (let i = out.length - 1; i >= 0; i--) {
    if (out[i] !== '9') {
      out[i] = String(Number(out[i]) + 1);
      return out.join('');
    }
    out[i] = '0';
  }
  return `1${out.join('')}`;
}

/** A percentage as sent by the api ("5", "7.5") for a table cell. */
export function formatPercent(value: string | null | undefined): string {
  return value == null || value === '' ? '' : `${value}%`;
}

/** The {range} of the export file name: the period, or start_end for a customized one. */
export function exportRange(s: Pick<DashboardSettings, 'selectedDate' | 'startDate' | 'endDate'>): string {
  return s.selectedDate === 'CustomizedPeriod' ? `${s.startDate}_${s.endDate}` : s.selectedDate;
}

/** Spec 000 §9: cc_{provider}_billing_data_{range}.csv. */
export function exportFileName(provider: string, range: string): string {
  return `cc_${provider}_billing_data_${range}.csv`;
}

/** The export's CSV: RFC 4180 with formula cells neutralised (common/csv.ts). */
export { toCsv } from '../../common/csv.ts';

/** Hands a text to the browser as a file download. */
export function downloadText(fileName: string, text: string, type = 'text/csv;charset=utf-8'): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  document.body.append(a);
  a.click();
  a.remove();
  // Give the browser a moment to start the download before the address is released.
  window.setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/**
 * The date range label of the side note: the very range the api answers for (spec 001 §9, shared
 * `resolvePeriod`): 7 or 30 days back up to yesterday; 12 months from the 1st of the month 11 months
 * before yesterday's month up to yesterday (so the 1st of a month still shows 12 whole months);
 * a customized period as chosen.
 */
export function rangeLabel(s: Pick<DashboardSettings, 'selectedDate' | 'startDate' | 'endDate'>, now = Date.now()): string {
  if (s.selectedDate === 'CustomizedPeriod') return `${s.startDate} - ${s.endDate}`;
  return resolvePeriod({ period: s.selectedDate }, billingToday(now)).label;
}
