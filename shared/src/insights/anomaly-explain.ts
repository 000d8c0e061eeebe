/**
 * The words of an anomaly's explanation, from its stored contributors and the events around it: which driver leads,
 * whether the rise came from usage, unit price or something new, and the one sentence the screen and the e-mail show.
 * Ratios here are for words only (×4.1, 87 %); money figures arrive rounded and summed in PostgreSQL.
 */
import { billingDay, addDays } from '../time.ts';

export type ContributorDimension = 'sku' | 'resource' | 'label';

/** One stored contributor, in the display currency, money rounded to 2 decimals (rest: value null, rank 0). */
export interface ContributorRow {
  dimension: ContributorDimension;
  rank: number;
  label_key: string | null;
  value: string | null;
  day_amount: number;
  mean_amount: number;
  /** day_amount - mean_amount as shown: listed ones + the rest of a dimension add up to the anomaly's shown rise. */
  contribution: number;
  day_cost: number | null;
  mean_cost: number | null;
  day_credits: number | null;
  mean_credits: number | null;
  day_amortisation: number | null;
  mean_amortisation: number | null;
  day_quantity: number | null;
  mean_quantity: number | null;
  in_baseline: boolean | null;
}

export interface StoredExplanation {
  anomaly_id: string;
  currency: string;
  mean_cost: number;
  to_date_cost: number;
  /** to_date_cost - mean_cost as shown. */
  rise: number;
  delta_from_mean_cost_perc: number | null;
  /** false: the anomaly did not meet the customer's thresholds when detected, so no contributors were stored. */
  explained: boolean;
  /** The customer's thresholds (percent, money in `currency`), said in the sentence. */
  min_perc: number;
  min_value: number;
  contributors: ContributorRow[];
}

/** Something the portal did around an anomaly's day. */
export interface AroundEvent {
  kind:
    | 'project_created'
    | 'budget_set'
    | 'license_order_placed'
    | 'license_order_decided'
    | 'ticket_raised'
    | 'ticket_resolved'
    | 'billing_correction'
    | 'billing_file'
    | 'currency_changed'
    | 'viewer_filters_changed';
  /** When it happened (ISO timestamp). */
  at: string;
  /** What it was, in a few words (the reader's language, no ids but the object's own name). */
  text: string;
  /** Where to see it in the portal (an app path). */
  link: string;
  /** true: about the whole customer (a license order, a billing file, its currency, a viewer's filters), not only the anomaly's project. */
  customer_wide: boolean;
}

/** usage: more of the same at the same unit price; price: the unit price (or a discount, credit, commitment) moved;
 * new: a SKU or resource the baseline never had; unknown: the lines carry no quantity to tell usage from price. */
export type DriverKind = 'usage' | 'price' | 'new' | 'unknown';

export interface Driver {
  dimension: ContributorRow['dimension'];
  /** SKU name, resource id, or `key=value` of a resource label. */
  name: string;
  /** Share of the rise, percent (0 when the rise is 0). */
  share: number;
}

export interface Explanation {
  /** The driver the sentence names first, null when no line explains any of the rise. */
  lead: Driver | null;
  kind: DriverKind | null;
  /** The kind in words, e.g. 'usage ×4.1, unit price unchanged'. */
  kind_text: string | null;
  sentence: string;
}

/** A quantity or unit price within this of the baseline's is 'unchanged'. */
const UNCHANGED = 0.05;
/**
 * A resource or a label value leads instead of the top SKU only when it carries this many points more of the rise: a
 * coarse label (env=prod) covers nearly every line and would otherwise always lead, telling the reader nothing.
 */
const LEAD_MARGIN_POINTS = 15;

const money = (v: number, currency: string) => `${v.toFixed(2)} ${currency}`;
const factor = (v: number) => `×${v >= 10 ? v.toFixed(0) : v.toFixed(1)}`;
const share = (part: number, whole: number) => (whole > 0 ? (part * 100) / whole : 0);

function driverName(c: ContributorRow): string {
  if (c.dimension === 'label') return `${c.label_key}=${c.value ?? ''}`;
  return c.value ?? '';
}

function describe(c: ContributorRow): string {
  if (c.dimension === 'sku') return `SKU '${c.value}'`;
  if (c.dimension === 'resource') return c.value ? `resource ${c.value}` : 'lines without a resource';
  return `resource label ${c.label_key}=${c.value ? c.value : '(none)'}`;
}

/** How the top SKU (and the top resource, for a new one) rose: usage, unit price, or new. */
export function driverKind(sku: ContributorRow, resource: ContributorRow | undefined, windowDays: number): { kind: DriverKind; text: string } {
  if (sku.in_baseline === false) return { kind: 'new', text: `new SKU, not in the ${windowDays}-day baseline` };
  if (resource && resource.in_baseline === false && resource.value && resource.contribution >= 0.5 * sku.contribution) {
    return { kind: 'new', text: `new resource ${resource.value}, not in the ${windowDays}-day baseline` };
  }
  const rise = sku.contribution;
  // Credits or a commitment that stopped covering the SKU raise what each unit costs, whatever its list price.
  const creditsGone = (sku.day_credits ?? 0) - (sku.mean_credits ?? 0);
  if (rise > 0 && creditsGone >= 0.5 * rise) {
    return { kind: 'price', text: (sku.day_credits ?? 0) === 0 ? 'credits stopped, unit price otherwise unchanged' : 'credits fell, unit price otherwise unchanged' };
  }
  const meanAmort = sku.mean_amortisation ?? 0;
  const dayAmort = sku.day_amortisation ?? 0;
  if (rise > 0 && meanAmort !== 0 && Math.abs(dayAmort) < 0.1 * Math.abs(meanAmort) && Math.abs(meanAmort) >= 0.5 * rise) {
    return { kind: 'price', text: 'commitment discount no longer applied' };
  }
  const dq = sku.day_quantity;
  const mq = sku.mean_quantity;
  if (dq === null || mq === null || dq <= 0 || mq <= 0) {
    return { kind: 'unknown', text: 'usage or price cannot be told: the billing lines carry no quantity' };
  }
  const usage = dq / mq;
  const meanPrice = (sku.mean_cost ?? 0) / mq;
  const price = meanPrice > 0 ? (sku.day_cost ?? 0) / dq / meanPrice : 1;
  const usageSame = Math.abs(usage - 1) <= UNCHANGED;
  const priceSame = Math.abs(price - 1) <= UNCHANGED;
  if (priceSame) return { kind: 'usage', text: `usage ${factor(usage)}, unit price unchanged` };
  if (usageSame) return { kind: 'price', text: `unit price ${factor(price)}, usage unchanged` };
  const kind = Math.abs(Math.log(usage)) >= Math.abs(Math.log(price)) ? 'usage' : 'price';
  return { kind, text: `usage ${factor(usage)} and unit price ${factor(price)}` };
}

const top = (e: StoredExplanation, d: ContributorRow['dimension']) => e.contributors.find((c) => c.dimension === d && c.rank === 1);

/** When an event happened relative to the anomaly's day, in its US/Pacific days. */
function relativeDay(at: string, date: string): string {
  const day = billingDay(Date.parse(at));
  if (day === date) return 'that day';
  if (day === addDays(date, -1)) return 'the day before';
  if (day === addDays(date, 1)) return 'the day after';
  return `on ${day}`;
}

/** Which event the sentence names when several happened: the most likely cause of a rise first. */
const EVENT_ORDER: readonly AroundEvent['kind'][] = [
  'project_created',
  'budget_set',
  'billing_correction',
  'currency_changed',
  'ticket_raised',
  'ticket_resolved',
  'billing_file',
  'license_order_decided',
  'license_order_placed',
  'viewer_filters_changed',
];

export interface SentenceContext {
  date: string;
  windowDays: number;
  events: AroundEvent[];
}

/**
 * The one sentence: the figures against the thresholds, the leading driver with its share and kind, and the first
 * event around the day, e.g. "412.00 EUR on 2026-10-30 against a 28-day mean of 95.10 EUR (+333 %, above the 20 % and
 * 10 EUR thresholds); 87 % of the rise is SKU 'N1 …' (usage ×4.1, unit price unchanged), mostly on resource vm-3;
 * project p was created from template 'analytics' the day before."
 */
export function explain(e: StoredExplanation, ctx: SentenceContext): Explanation {
  const head =
    `${money(e.to_date_cost, e.currency)} on ${ctx.date} against a ${ctx.windowDays}-day mean of ${money(e.mean_cost, e.currency)} ` +
    `(${e.delta_from_mean_cost_perc === null ? 'new spend' : `+${Math.round(e.delta_from_mean_cost_perc)} %`}, ` +
    `above the ${e.min_perc} % and ${e.min_value} ${e.currency} thresholds)`;
  const sku = top(e, 'sku');
  const resource = top(e, 'resource');
  const label = top(e, 'label');
  const parts = [head];
  let lead: Driver | null = null;
  let kind: { kind: DriverKind; text: string } | null = null;
  if (sku) {
    kind = driverKind(sku, resource, ctx.windowDays);
    const s = (c: ContributorRow | undefined) => (c ? share(c.contribution, e.rise) : -1);
    // The finest driver that carries (about) as much as any: the SKU, unless a new resource or a label carries more.
    let leader: ContributorRow = sku;
    if (kind.kind === 'new' && kind.text.startsWith('new resource') && resource) leader = resource;
    else if (resource && s(resource) >= s(sku) + LEAD_MARGIN_POINTS) leader = resource;
    if (label && s(label) >= s(leader) + LEAD_MARGIN_POINTS) leader = label;
    lead = { dimension: leader.dimension, name: driverName(leader), share: Math.round(s(leader)) };
    let driver = `${lead.share} % of the rise is ${describe(leader)}`;
    if (leader !== sku) driver += `, mostly SKU '${sku.value}'`;
    driver += ` (${kind.text})`;
    if (leader === sku && resource?.value && s(resource) >= 50) driver += `, mostly on resource ${resource.value}`;
    parts.push(driver);
  } else if (!e.explained) {
    parts.push("its drivers were not worked out: it was below the customer's thresholds when detected");
  } else {
    parts.push('no billing line of that project and service explains the rise');
  }
  // the event nearest the anomaly's cause: its own project's first, then a file that changed the day's data
  const event = [...ctx.events].sort((a, b) => EVENT_ORDER.indexOf(a.kind) - EVENT_ORDER.indexOf(b.kind))[0];
  if (event) parts.push(`${event.text} ${relativeDay(event.at, ctx.date)}`);
  return { lead, kind: kind?.kind ?? null, kind_text: kind?.text ?? null, sentence: `${parts.join('; ')}.` };
}
