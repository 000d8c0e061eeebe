/** Turns stored inventory rows into their wire shapes, and when the nightly sync runs next. */
import type { RecommendationItem as StoredRecommendation } from '@cc/shared/db/inventory/recommendation-read.ts';
import type { SyncRun } from '@cc/shared/db/inventory/snapshot.ts';
import { SCHEDULES, SCHEDULE_TIME_ZONE } from '@cc/shared/queues.ts';
import type { RecommendationItem } from '@cc/shared/schemas/inventory.ts';

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());
const MONTH_SECONDS = 2_592_000;

/** The cost per 30 days, to the cent: rows priced over other durations compare with the rest. */
export function monthlyCost(cost: string | null, duration: string | null): string | null {
  const seconds = duration ? Number(duration.replace(/s$/, '')) : NaN;
  if (cost === null || !(seconds > 0)) return null;
  return ((Number(cost) * MONTH_SECONDS) / seconds).toFixed(2);
}

export function recommendationItem(r: StoredRecommendation): RecommendationItem {
  return {
    name: r.name,
    state: r.state,
    recommender: r.recommender,
    recommender_subtype: r.recommender_subtype,
    primary_impact_category: r.primary_impact_category,
    cost: r.cost,
    currency: r.currency,
    cost_duration: r.cost_duration,
    monthly_cost: monthlyCost(r.cost, r.cost_duration),
    description: r.description,
    priority: r.priority,
    target_resources: r.target_resources,
    location: r.location,
    project_id: r.project_id,
    last_refresh_time: iso(r.last_refresh_time),
    ticket_key: r.ticket_key,
  };
}

export function syncRun(run: SyncRun | null) {
  if (!run) return null;
  const { status, asset_count, recommendation_count, added, removed, changed, error } = run;
  return { status, started_at: iso(run.started_at)!, finished_at: iso(run.finished_at), asset_count, recommendation_count, added, removed, changed, error };
}

const hourIn = (d: Date, timeZone: string) => Number(new Intl.DateTimeFormat('en-US', { timeZone, hour: 'numeric', hourCycle: 'h23' }).format(d));

/** The next full hour the nightly schedule (`M H * * *` in SCHEDULE_TIME_ZONE) fires at; zone offsets are whole hours here. */
export function nextNightlySync(now = new Date()): Date {
  const pattern = SCHEDULES.find((s) => s.id === 'inventory-sync-nightly')!.pattern;
  const [minute, hour] = pattern.split(' ').map(Number) as [number, number];
  const start = new Date(now);
  start.setUTCMinutes(minute, 0, 0);
  for (let h = 0; h <= 48; h++) {
    const at = new Date(start.getTime() + h * 3_600_000);
    if (at > now && hourIn(at, SCHEDULE_TIME_ZONE) === hour) return at;
  }
  throw new Error(`no run of '${pattern}' within two days`);
}
