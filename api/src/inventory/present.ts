/** Turns stored sync runs into their wire shape, and when the nightly sync runs next (list pages are JSON made in SQL). */
import type { SyncRun } from '@cc/shared/db/inventory/snapshot.ts';
import { SCHEDULES, SCHEDULE_TIME_ZONE } from '@cc/shared/queues.ts';


const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());
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
