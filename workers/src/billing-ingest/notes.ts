/**
 * What an operator should know about a load beyond its totals, said the same way by the `cc ingest` CLI and the
 * job's result: which file semantics applied, a file already loaded, providers the dashboard does not list by name.
 */
import { PROVIDERS } from '@cc/shared/schemas/billing.ts';
import type { IngestMode } from '@cc/shared/db/billing-ingest/batches.ts';

/** The providers the dashboard offers by name (spec 000); any other is stored under its own slug and shown under All. */
const NAMED = new Set<string>(PROVIDERS.filter((p) => p !== 'all'));

export function unlistedProviders(totals: { provider: string; provider_name: string }[]): { provider: string; provider_name: string }[] {
  const seen = new Map<string, string>();
  for (const t of totals) if (!NAMED.has(t.provider) && !seen.has(t.provider)) seen.set(t.provider, t.provider_name);
  return [...seen].map(([provider, provider_name]) => ({ provider, provider_name }));
}

export function ingestNotes(s: {
  mode: IngestMode | null;
  billingPeriods: string[];
  duplicateOf: string | null;
  unlistedProviders: { provider: string; provider_name: string }[];
}): string[] {
  const notes: string[] = [];
  if (s.duplicateOf !== null) {
    notes.push(`this correction file was already loaded (batch ${s.duplicateOf}); nothing was added again`);
  } else if (s.mode === 'append') {
    notes.push('correction file (every row ChargeClass Correction): its rows were added to the loaded spend');
  } else if (s.billingPeriods.length > 0) {
    const periods = s.billingPeriods.map((p) => `${p.slice(0, 4)}-${p.slice(4)}`).join(', ');
    notes.push(`export: replaced what earlier exports loaded for billing period${s.billingPeriods.length > 1 ? 's' : ''} ${periods}`);
  }
  for (const p of s.unlistedProviders) {
    notes.push(`provider '${p.provider_name}' is not gcp, aws or azure: stored as '${p.provider}', shown under All only`);
  }
  return notes;
}
