/** Amounts the api answers as JSON numbers (insights: anomalies, alerts, notices), shown English style (spec 001 §9). */

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
