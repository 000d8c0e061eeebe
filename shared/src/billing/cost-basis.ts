/**
 * Cost basis of every figure (docs/decisions-billing.md, "Billed / Amortised"): billed = cash as invoiced (FOCUS
 * BilledCost, GCP cost + credits); amortised = FOCUS EffectiveCost, prepaid commitments spread over the usage they cover.
 * A module of its own, free of TypeBox, so the web app's billing home page can read the words without the schema
 * builder (10.8 KB gzipped of its first load).
 */
export const COST_BASES = ['billed', 'amortised'] as const;
export type CostBasis = (typeof COST_BASES)[number];
/** The bases in plain words: the settings drawer's choice and the export's Cost Basis column. */
export const COST_BASIS_LABELS: Record<CostBasis, string> = { billed: 'Billed', amortised: 'Amortised' };
