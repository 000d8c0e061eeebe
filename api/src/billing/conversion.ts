/**
 * The `conversion` part of a chart answer: which other currencies its figures were converted from, with which rate
 * sources, and the spend that could not be converted (no rate within 7 days before its usage day), per currency,
 * with a message that names the missing rate. That spend is in no figure of the answer.
 */
import type { CurrencyPart } from '@cc/shared/db/billing-query.ts';
import { formatUnits, toUnits } from '@cc/shared/billing/money.ts';
import type { CurrencyConversion } from '@cc/shared/schemas/billing.ts';

/** The sentence the dashboard shows for a currency without a rate. */
export function missingRateMessage(p: { currency: string; display: string; amount: string; from: string; to: string }): string {
  const days = p.from === p.to ? `on ${p.from}` : `from ${p.from} to ${p.to}`;
  return `No ${p.currency} to ${p.display} rate within 7 days before the usage days ${days}: ${p.amount} ${p.currency} is not converted and not included in the figures.`;
}

export function conversionOf(parts: CurrencyPart[], display: string): CurrencyConversion {
  const converted = parts
    .filter((p) => p.sources.length > 0)
    .map((p) => ({
      currency: p.currency,
      original: formatUnits(toUnits(p.converted_original)),
      amount: formatUnits(toUnits(p.converted)),
      sources: p.sources,
    }));
  const unconverted = parts
    .filter((p) => p.missing_from !== null && p.missing_to !== null)
    .map((p) => {
      const amount = formatUnits(toUnits(p.unconverted));
      const [from, to] = [p.missing_from as string, p.missing_to as string];
      return { currency: p.currency, amount, missing_from: from, missing_to: to, message: missingRateMessage({ currency: p.currency, display, amount, from, to }) };
    });
  const demo_rates = parts.some((p) => p.sources.some((s) => s.split('+').includes('demo')));
  return { converted, unconverted, demo_rates };
}
