/**
 * The daily rollups of a windowed source, summed while its rows stream into `cost_line` (issue 19): the rows are the
 * whole of the (day, provider) slices they replace, so their sums are those slices' `cost_daily` and
 * `cost_daily_label` rows, and nothing needs to read the lines back. The same grouping as billing-rebuild-rollups.sql
 * (which files still use), in exact integer arithmetic (10^-12 units, `toUnits12`): a sum here equals PostgreSQL's
 * `numeric` sum of the same values. Label rows are first summed per distinct label set (a project's lines share its
 * labels), kept inside each daily group keyed by the set's JSON text, then expanded into key/value pairs, as the SQL
 * does.
 */
import { fromUnits12, toUnits12 } from '@cc/shared/decimal.ts';
import type { CostRow } from '@cc/shared/ports/billing-source.ts';
import type { DailyRollupRow, LabelRollupRow, LineExtras } from '@cc/shared/db/billing-ingest.ts';

// NUL is refused in every text a row carries (row-checks.ts), so it cannot occur inside a key part.
const SEP = '\u0000';

interface Money {
  cost: bigint;
  credits: bigint;
  amortisation: bigint;
}

interface LabelSet extends Money {
  labels: Record<string, string>;
}

interface DailyGroup extends Money {
  usage_date: string;
  provider: string;
  project_id: string;
  service: string;
  currency: string;
  provider_names: string[];
  project_names: string[];
}

/** The lines of one (day, provider, project, currency): what a cost_daily_label row is keyed by, but the label. */
interface LabelGroup {
  usage_date: string;
  provider: string;
  project_id: string;
  currency: string;
  /** Label sets of the group's lines by their JSON text ('{}' not kept). */
  project_sets: Map<string, LabelSet>;
  resource_sets: Map<string, LabelSet>;
}

type Names = (lists: string[][]) => Promise<string[]>;

/** Adds `name` to the distinct names of a group (almost always one; several only when renamed within the group). */
const remember = (names: string[], name: string) => {
  if (names[0] !== name && !names.includes(name)) names.push(name);
};

function addSet(sets: Map<string, LabelSet>, text: string, labels: Record<string, string>, cost: bigint, credits: bigint, amortisation: bigint) {
  if (text === '{}') return;
  const s = sets.get(text);
  if (s) {
    s.cost += cost;
    s.credits += credits;
    s.amortisation += amortisation;
  } else {
    sets.set(text, { labels, cost, credits, amortisation });
  }
}

/** For lists of several names, the one `greatest` picks (PostgreSQL's max(), in the database's collation). */
async function chooser(lists: string[][], greatest: Names): Promise<(names: string[]) => string> {
  const renamed = lists.filter((n) => n.length > 1);
  const chosen = new Map<string[], string>();
  if (renamed.length > 0) (await greatest(renamed)).forEach((name, i) => chosen.set(renamed[i], name));
  return (names) => (names.length > 1 ? chosen.get(names)! : names[0]);
}

export class RollupSums {
  private readonly daily = new Map<string, DailyGroup>();
  private readonly labelGroups = new Map<string, LabelGroup>();
  readonly days = new Set<string>();
  readonly providers = new Set<string>();

  /**
   * Adds one checked row (money fields normalised by validateRow); returns what its COPY line needs too: its
   * amortisation (amortised minus billed, 0 without an amortised figure) and its labels as JSON, made once.
   */
  add(r: CostRow): LineExtras {
    const cost = toUnits12(r.cost);
    const credits = toUnits12(r.credits);
    const amortisation = r.effective_cost === null || r.effective_cost === undefined ? 0n : toUnits12(r.effective_cost) - cost - credits;
    const extras: LineExtras = {
      amortisation: amortisation === 0n ? '0' : fromUnits12(amortisation),
      project_labels: JSON.stringify(r.project_labels),
      resource_labels: JSON.stringify(r.resource_labels),
    };
    const key = r.usage_date + SEP + r.provider + SEP + r.project_id + SEP + r.service + SEP + r.currency;
    let g = this.daily.get(key);
    if (g) {
      g.cost += cost;
      g.credits += credits;
      g.amortisation += amortisation;
      remember(g.provider_names, r.provider_name);
      remember(g.project_names, r.project_name);
    } else {
      g = {
        usage_date: r.usage_date,
        provider: r.provider,
        project_id: r.project_id,
        service: r.service,
        currency: r.currency,
        provider_names: [r.provider_name],
        project_names: [r.project_name],
        cost,
        credits,
        amortisation,
      };
      this.daily.set(key, g);
      this.days.add(r.usage_date);
      this.providers.add(r.provider);
    }
    if (extras.project_labels !== '{}' || extras.resource_labels !== '{}') {
      const labelKey = r.usage_date + SEP + r.provider + SEP + r.project_id + SEP + r.currency;
      let l = this.labelGroups.get(labelKey);
      if (!l) {
        l = { usage_date: r.usage_date, provider: r.provider, project_id: r.project_id, currency: r.currency, project_sets: new Map(), resource_sets: new Map() };
        this.labelGroups.set(labelKey, l);
      }
      addSet(l.project_sets, extras.project_labels, r.project_labels, cost, credits, amortisation);
      addSet(l.resource_sets, extras.resource_labels, r.resource_labels, cost, credits, amortisation);
    }
    return extras;
  }

  /** The cost_daily rows; a group whose rows carried several names takes the greatest, as SQL's `max()` would. */
  async dailyRows(greatest: Names): Promise<DailyRollupRow[]> {
    const groups = [...this.daily.values()];
    const pick = await chooser(groups.flatMap((g) => [g.provider_names, g.project_names]), greatest);
    return groups.map((g) => ({
      usage_date: g.usage_date,
      provider: g.provider,
      provider_name: pick(g.provider_names),
      project_id: g.project_id,
      project_name: pick(g.project_names),
      service: g.service,
      currency: g.currency,
      cost: fromUnits12(g.cost),
      credits: fromUnits12(g.credits),
      amortisation: fromUnits12(g.amortisation),
    }));
  }

  /**
   * The cost_daily_label rows, one label group at a time (groups never share a row, so each is summed alone and its
   * rows can be written while the next is expanded): each label set's sums spread onto its key/value pairs.
   */
  *labelRows(): Generator<LabelRollupRow> {
    for (const l of this.labelGroups.values()) {
      const pairs = new Map<string, { label_kind: 'project' | 'resource'; label_key: string; label_value: string } & Money>();
      for (const [label_kind, sets] of [['project', l.project_sets], ['resource', l.resource_sets]] as const) {
        for (const s of sets.values()) {
          for (const label_key in s.labels) {
            const label_value = s.labels[label_key];
            const key = label_kind + SEP + label_key + SEP + label_value;
            const p = pairs.get(key);
            if (p) {
              p.cost += s.cost;
              p.credits += s.credits;
              p.amortisation += s.amortisation;
            } else {
              pairs.set(key, { label_kind, label_key, label_value, cost: s.cost, credits: s.credits, amortisation: s.amortisation });
            }
          }
        }
      }
      for (const p of pairs.values()) {
        yield {
          usage_date: l.usage_date,
          provider: l.provider,
          label_kind: p.label_kind,
          label_key: p.label_key,
          label_value: p.label_value,
          project_id: l.project_id,
          currency: l.currency,
          cost: fromUnits12(p.cost),
          credits: fromUnits12(p.credits),
          amortisation: fromUnits12(p.amortisation),
        };
      }
    }
  }

  /** Spend per provider and currency, as `batchTotals` gives it for a batch (names resolved like the daily rows). */
  async totals(greatest: Names): Promise<{ provider: string; provider_name: string; currency: string; cost: string; credits: string; spend: string; effective_cost: string }[]> {
    const byKey = new Map<string, { provider: string; currency: string; names: string[] } & Money>();
    for (const g of this.daily.values()) {
      const key = g.provider + SEP + g.currency;
      const t = byKey.get(key);
      if (t) {
        t.cost += g.cost;
        t.credits += g.credits;
        t.amortisation += g.amortisation;
        for (const n of g.provider_names) remember(t.names, n);
      } else {
        byKey.set(key, { provider: g.provider, currency: g.currency, names: [...g.provider_names], cost: g.cost, credits: g.credits, amortisation: g.amortisation });
      }
    }
    const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
    const all = [...byKey.values()].sort((a, b) => cmp(a.provider, b.provider) || cmp(a.currency, b.currency));
    const pick = await chooser(all.map((t) => t.names), greatest);
    return all.map((t) => ({
      provider: t.provider,
      provider_name: pick(t.names),
      currency: t.currency,
      cost: fromUnits12(t.cost),
      credits: fromUnits12(t.credits),
      spend: fromUnits12(t.cost + t.credits),
      effective_cost: fromUnits12(t.cost + t.credits + t.amortisation),
    }));
  }
}
