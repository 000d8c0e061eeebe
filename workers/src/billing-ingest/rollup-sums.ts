/**
 * The daily rollups of a load, summed while its rows stream into `cost_line`: where the rows are the whole of the
 * (day, provider) slices they replace, their sums are those slices' `cost_daily` and `cost_daily_label` rows, and
 * nothing needs to read the lines back. The same grouping as billing-rebuild-rollups.sql (which rebuilds the slices
 * that keep lines of other batches), in exact arithmetic (MoneySum): a sum here equals PostgreSQL's `numeric` sum of
 * the same values. Rows are grouped per (day, provider, project, currency), what a cost_daily_label row is keyed by
 * but the label, and within it per service (a cost_daily row). Label rows are first summed per distinct label set (a
 * project's lines share its labels), keyed by the set's JSON text, then expanded into key/value pairs, as the SQL does.
 * Memory grows with the distinct groups and label sets, not the rows; past a limit the sums are dropped (`overflowed`)
 * and the caller rebuilds its slices from the lines in SQL instead, so a file of any shape stays in bounded memory.
 *
 * Longer than 300 lines on purpose: one data structure, the ingest's hottest loop (second in its profile); the group
 * classes here serve only RollupSums, and split out they would be exported for this one module to import back.
 */
import { fromUnits12 } from '@cc/shared/decimal.ts';
import { MoneySum, MoneyValue } from '@cc/shared/money-sum.ts';
import type { CostRow } from '@cc/shared/ports/billing-source.ts';
import type { DailyRollupRow, LabelRollupRow } from '@cc/shared/db/billing-ingest/rollups.ts';
import type { LineExtent } from '@cc/shared/db/billing-ingest/extents.ts';
import type { LineExtras } from '@cc/shared/db/billing-ingest/copy.ts';

// NUL is refused in every text a row carries (row-checks.ts), so it cannot occur inside a key part.
const SEP = '\u0000';

class Money {
  readonly cost = new MoneySum();
  readonly credits = new MoneySum();
  readonly amortisation = new MoneySum();

  add(cost: MoneyValue, credits: MoneyValue, amortisation: MoneyValue | null): void {
    this.cost.add(cost);
    this.credits.add(credits);
    if (amortisation) this.amortisation.add(amortisation);
  }

  addMoney(m: Money): void {
    this.cost.addSum(m.cost);
    this.credits.addSum(m.credits);
    this.amortisation.addSum(m.amortisation);
  }

  text(): { cost: string; credits: string; amortisation: string } {
    return { cost: this.cost.toString(), credits: this.credits.toString(), amortisation: this.amortisation.toString() };
  }
}

class LabelSet extends Money {
  constructor(readonly labels: Record<string, string>) {
    super();
  }
}

/** The lines of one (day, provider, project, service, currency): a cost_daily row. */
class DailyGroup extends Money {
  readonly provider_names: string[];
  readonly project_names: string[];
  constructor(
    readonly group: ProjectDay,
    readonly service: string,
    row: CostRow,
  ) {
    super();
    this.provider_names = [row.provider_name];
    this.project_names = [row.project_name];
  }
}

/** The lines of one (day, provider, project, currency): its services' daily groups and its label sets. */
interface ProjectDay {
  usage_date: string;
  provider: string;
  project_id: string;
  currency: string;
  services: Map<string, DailyGroup>;
  project_sets: LabelSets;
  resource_sets: LabelSets;
}

type Names = (lists: string[][]) => Promise<string[]>;

/** Adds `name` to the distinct names of a group (almost always one; several only when renamed within the group). */
const remember = (names: string[], name: string) => {
  if (names[0] !== name && !names.includes(name)) names.push(name);
};

/**
 * The label sets of one kind in a (day, provider, project, currency) group, by their JSON text ('{}' not kept). A
 * project's lines mostly share its labels, so the last set found is tried before the map.
 */
class LabelSets {
  readonly byText = new Map<string, LabelSet>();
  private lastText = '';
  private last: LabelSet | null = null;

  /** Adds a row's money to its label set; returns 1 when the set is new, else 0. */
  add(text: string, labels: Record<string, string>, cost: MoneyValue, credits: MoneyValue, amortisation: MoneyValue | null): number {
    if (text === '{}') return 0;
    let s = this.last;
    let added = 0;
    if (s === null || this.lastText !== text) {
      s = this.byText.get(text) ?? null;
      if (!s) {
        s = new LabelSet(labels);
        this.byText.set(text, s);
        added = 1;
      }
      this.last = s;
      this.lastText = text;
    }
    s.add(cost, credits, amortisation);
    return added;
  }
}

/** For lists of several names, the one `greatest` picks (PostgreSQL's max(), in the database's collation). */
async function chooser(lists: string[][], greatest: Names): Promise<(names: string[]) => string> {
  const renamed = lists.filter((n) => n.length > 1);
  const chosen = new Map<string[], string>();
  if (renamed.length > 0) (await greatest(renamed)).forEach((name, i) => chosen.set(renamed[i], name));
  return (names) => (names.length > 1 ? chosen.get(names)! : names[0]);
}

const UNIT = 1e12;

/**
 * `out` = e − c − cr, exactly, as MoneyValue holds a value: whole units and a 10^-12 fraction of the same sign,
 * |fraction| < 10^12 (the three are checked values: every part an integer a double holds exactly). BigInt per row
 * was the costliest step of the sums.
 */
function difference(out: MoneyValue, e: MoneyValue, c: MoneyValue, cr: MoneyValue): MoneyValue {
  let whole = e.whole - c.whole - cr.whole;
  let frac = e.frac - c.frac - cr.frac;
  const carry = Math.trunc(frac / UNIT);
  whole += carry;
  frac -= carry * UNIT;
  if (whole > 0 && frac < 0) {
    whole -= 1;
    frac += UNIT;
  } else if (whole < 0 && frac > 0) {
    whole += 1;
    frac -= UNIT;
  }
  out.whole = whole;
  out.frac = frac;
  return out;
}

/** A value as fromUnits12 writes it (12 decimals). */
function valueText(v: MoneyValue): string {
  const negative = v.whole < 0 || v.frac < 0;
  return `${negative ? '-' : ''}${Math.abs(v.whole)}.${String(Math.abs(v.frac)).padStart(12, '0')}`;
}

// The JSON text of frozen label objects (a FOCUS file's tag sets, parsed once each: focus-row.ts), made once each.
const jsonOfFrozen = new WeakMap<object, string>();

/** Labels as JSON text; for a frozen object (which cannot change) made once and remembered. */
function labelsJson(labels: Record<string, string>): string {
  if (!Object.isFrozen(labels)) return JSON.stringify(labels);
  let text = jsonOfFrozen.get(labels);
  if (text === undefined) {
    text = JSON.stringify(labels);
    jsonOfFrozen.set(labels, text);
  }
  return text;
}

/** The (day, provider) slices of the rows added, as `day SEP provider` keys. */
export const sliceKey = (day: string, provider: string) => day + SEP + provider;

export class RollupSums {
  /** Every (day, provider, project, currency) group, in the order first met. */
  private groups: ProjectDay[] = [];
  /**
   * The groups by day, then project; the few of a (day, project) (one provider and currency, almost always) are
   * searched. Nested maps rather than one keyed by the four joined: a joined key was a new string built, flattened
   * and hashed per row, the costliest step of `add` when rows do not come in runs of a group.
   */
  private byDay = new Map<string, Map<string, ProjectDay[]>>();
  readonly days = new Set<string>();
  readonly providers = new Set<string>();
  /** The (day, provider) slices the rows fell in, by sliceKey; kept after an overflow too. */
  readonly slices = new Map<string, { day: string; provider: string }>();
  /**
   * Set once the groups and label sets passed `limit`: the sums were dropped and no rollup or total comes from them;
   * days, providers, slices and extents are still kept.
   */
  overflowed = false;
  private entries = 0;
  private lastSliceDay = '';
  private lastSliceProvider = '';
  // the row being added, read once (reused from row to row)
  private readonly cost = new MoneyValue();
  private readonly credits = new MoneyValue();
  private readonly amortisation = new MoneyValue();
  private readonly effective = new MoneyValue();
  private readonly extentByKey = new Map<string, LineExtent>();
  // sources send rows in runs (a project's SKUs of a day, one provider and invoice month): the last row's group and
  // extent usually fit the next row without a lookup
  private lastGroup: ProjectDay | null = null;
  private lastExtent: LineExtent | null = null;
  // What `add` returns, one object refilled per row (the caller uses it before the next row); the labels' JSON is
  // made again only when the row's label object is not the last row's (a FOCUS file hands out one frozen object per
  // tag set, so runs of a resource's lines share it; a mutable object is written afresh each time, as it may change).
  private readonly extras: LineExtras = { amortisation: '0', project_labels: '{}', resource_labels: '{}' };
  private lastProjectLabels: Record<string, string> | null = null;
  private lastResourceLabels: Record<string, string> | null = null;

  /** `limit`: the most groups and label sets kept (about half a kilobyte each) before the sums are given up. */
  constructor(private readonly limit = Infinity) {}

  /**
   * Adds one checked row (money fields normalised by validateRow); returns what its COPY line needs too: its
   * amortisation (amortised minus billed, 0 without an amortised figure) and its labels as JSON, made once. The
   * object returned is refilled by the next call: read it before adding another row.
   */
  add(r: CostRow): LineExtras {
    const cost = this.cost.read(r.cost);
    const credits = this.credits.read(r.credits);
    let amortisation: MoneyValue | null = null;
    let amortisationText = '0';
    const effective = r.effective_cost;
    // amortised equal to billed (most rows) needs no arithmetic
    if (effective !== null && effective !== undefined && !(r.credits === '0' ? effective === r.cost : r.cost === '0' && effective === r.credits)) {
      const a = difference(this.amortisation, this.effective.read(effective), cost, credits);
      if (a.whole !== 0 || a.frac !== 0) {
        amortisation = a;
        amortisationText = valueText(a);
      }
    }
    const extras = this.extras;
    extras.amortisation = amortisationText;
    if (r.project_labels !== this.lastProjectLabels) {
      extras.project_labels = labelsJson(r.project_labels);
      this.lastProjectLabels = Object.isFrozen(r.project_labels) ? r.project_labels : null;
    }
    if (r.resource_labels !== this.lastResourceLabels) {
      extras.resource_labels = labelsJson(r.resource_labels);
      this.lastResourceLabels = Object.isFrozen(r.resource_labels) ? r.resource_labels : null;
    }
    this.widenExtent(r);
    if (r.usage_date !== this.lastSliceDay || r.provider !== this.lastSliceProvider) {
      const key = sliceKey(r.usage_date, r.provider);
      if (!this.slices.has(key)) this.slices.set(key, { day: r.usage_date, provider: r.provider });
      this.days.add(r.usage_date);
      this.providers.add(r.provider);
      this.lastSliceDay = r.usage_date;
      this.lastSliceProvider = r.provider;
    }
    if (this.overflowed) return extras;
    let p = this.lastGroup;
    if (!p || p.project_id !== r.project_id || p.usage_date !== r.usage_date || p.provider !== r.provider || p.currency !== r.currency) {
      p = this.findGroup(r);
      this.lastGroup = p;
    }
    let g = p.services.get(r.service);
    if (g) {
      remember(g.provider_names, r.provider_name);
      remember(g.project_names, r.project_name);
    } else {
      g = new DailyGroup(p, r.service, r);
      p.services.set(r.service, g);
      this.entries++;
    }
    g.add(cost, credits, amortisation);
    this.entries += p.project_sets.add(extras.project_labels, r.project_labels, cost, credits, amortisation);
    this.entries += p.resource_sets.add(extras.resource_labels, r.resource_labels, cost, credits, amortisation);
    if (this.entries > this.limit) this.giveUp();
    return extras;
  }

  /** The row's (day, provider, project, currency) group, made when new. */
  private findGroup(r: CostRow): ProjectDay {
    let projects = this.byDay.get(r.usage_date);
    if (projects === undefined) {
      projects = new Map();
      this.byDay.set(r.usage_date, projects);
    }
    let list = projects.get(r.project_id);
    if (list === undefined) {
      list = [];
      projects.set(r.project_id, list);
    }
    for (let i = 0; i < list.length; i++) {
      const q = list[i];
      if (q.provider === r.provider && q.currency === r.currency) return q;
    }
    const p: ProjectDay = {
      usage_date: r.usage_date,
      provider: r.provider,
      project_id: r.project_id,
      currency: r.currency,
      services: new Map(),
      project_sets: new LabelSets(),
      resource_sets: new LabelSets(),
    };
    list.push(p);
    this.groups.push(p);
    this.entries++;
    return p;
  }

  /** Drops the sums (the caller rebuilds from the lines); what the rows covered is still kept. */
  private giveUp(): void {
    this.overflowed = true;
    this.groups = [];
    this.byDay = new Map();
    this.lastGroup = null;
  }

  private widenExtent(r: CostRow): void {
    const invoiceMonth = r.invoice_month ?? '';
    let e = this.lastExtent;
    if (!e || e.provider !== r.provider || e.invoice_month !== invoiceMonth) {
      const key = r.provider + SEP + invoiceMonth;
      e = this.extentByKey.get(key) ?? null;
      if (!e) {
        e = { provider: r.provider, invoice_month: invoiceMonth, first_day: r.usage_date, last_day: r.usage_date };
        this.extentByKey.set(key, e);
      }
      this.lastExtent = e;
    }
    if (r.usage_date < e.first_day) e.first_day = r.usage_date;
    else if (r.usage_date > e.last_day) e.last_day = r.usage_date;
  }

  /** The cost_line_extent rows of the rows added. */
  extents(): LineExtent[] {
    return [...this.extentByKey.values()];
  }

  /** The (day, provider, project, currency) groups, those of slices `only` keeps (sliceKey; all without it). */
  private *projectDays(only?: ReadonlySet<string>): Generator<ProjectDay> {
    if (this.overflowed) throw new Error('the rollup sums were given up (overflowed): rebuild from the lines');
    for (const p of this.groups) if (!only || only.has(sliceKey(p.usage_date, p.provider))) yield p;
  }

  private *dailyGroups(only?: ReadonlySet<string>): Generator<DailyGroup> {
    for (const p of this.projectDays(only)) yield* p.services.values();
  }

  /**
   * The cost_daily rows (of the slices in `only`, when given); a group whose rows carried several names takes the
   * greatest, as SQL's `max()` would.
   */
  async dailyRows(greatest: Names, only?: ReadonlySet<string>): Promise<DailyRollupRow[]> {
    const groups = [...this.dailyGroups(only)];
    const pick = await chooser(groups.flatMap((g) => [g.provider_names, g.project_names]), greatest);
    return groups.map((g) => ({
      usage_date: g.group.usage_date,
      provider: g.group.provider,
      provider_name: pick(g.provider_names),
      project_id: g.group.project_id,
      project_name: pick(g.project_names),
      service: g.service,
      currency: g.group.currency,
      ...g.text(),
    }));
  }

  /**
   * The cost_daily_label rows, one (day, provider, project, currency) at a time (groups never share a row, so each is
   * summed alone and its rows can be written while the next is expanded): each label set's sums spread onto its
   * key/value pairs. Only the slices in `only`, when given.
   */
  *labelRows(only?: ReadonlySet<string>): Generator<LabelRollupRow> {
    for (const p of this.projectDays(only)) {
      if (p.project_sets.byText.size === 0 && p.resource_sets.byText.size === 0) continue;
      const pairs = new Map<string, { label_kind: 'project' | 'resource'; label_key: string; label_value: string; money: Money }>();
      for (const [label_kind, sets] of [['project', p.project_sets], ['resource', p.resource_sets]] as const) {
        for (const s of sets.byText.values()) {
          for (const label_key in s.labels) {
            const label_value = s.labels[label_key];
            const key = label_kind + SEP + label_key + SEP + label_value;
            let pair = pairs.get(key);
            if (!pair) {
              pair = { label_kind, label_key, label_value, money: new Money() };
              pairs.set(key, pair);
            }
            pair.money.addMoney(s);
          }
        }
      }
      for (const pair of pairs.values()) {
        yield {
          usage_date: p.usage_date,
          provider: p.provider,
          label_kind: pair.label_kind,
          label_key: pair.label_key,
          label_value: pair.label_value,
          project_id: p.project_id,
          currency: p.currency,
          ...pair.money.text(),
        };
      }
    }
  }

  /** Spend per provider and currency, as `batchTotals` gives it for a batch (names resolved like the daily rows). */
  async totals(greatest: Names): Promise<{ provider: string; provider_name: string; currency: string; cost: string; credits: string; spend: string; effective_cost: string }[]> {
    const byKey = new Map<string, { provider: string; currency: string; names: string[]; money: Money }>();
    for (const g of this.dailyGroups()) {
      const key = g.group.provider + SEP + g.group.currency;
      let t = byKey.get(key);
      if (!t) {
        t = { provider: g.group.provider, currency: g.group.currency, names: [], money: new Money() };
        byKey.set(key, t);
      }
      for (const n of g.provider_names) remember(t.names, n);
      t.money.addMoney(g);
    }
    const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
    const all = [...byKey.values()].sort((a, b) => cmp(a.provider, b.provider) || cmp(a.currency, b.currency));
    const pick = await chooser(all.map((t) => t.names), greatest);
    return all.map((t) => {
      const cost = t.money.cost.units();
      const credits = t.money.credits.units();
      const amortisation = t.money.amortisation.units();
      return {
        provider: t.provider,
        provider_name: pick(t.names),
        currency: t.currency,
        cost: fromUnits12(cost),
        credits: fromUnits12(credits),
        spend: fromUnits12(cost + credits),
        effective_cost: fromUnits12(cost + credits + amortisation),
      };
    });
  }
}
