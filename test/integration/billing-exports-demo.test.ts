/**
 * The demo's AWS and Azure exports (infra/scripts/seed-exports.ts) are laid out as the providers deliver them, so the
 * local adapters read them as the nightly job would: every billing period loaded, exactly the sample's amounts; the
 * next day only the current month is a new delivery, the others are skipped.
 */
import t from 'tap';
import { mkdtemp, rm } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import Decimal from 'decimal.js';
import { createSecretBox } from '@cc/shared/secret-box.ts';
import { exportStoresFromConfig } from '@cc/shared/adapters/billing-exports/from-config.ts';
import { findExportSource } from '@cc/shared/db/billing-export-sources.ts';
import { syncExportAccount } from '../../workers/src/billing-exports/sync.ts';
import { replayFocusSample } from '../../workers/src/billing-ingest/formats/focus-replay.ts';
import { DEMO_EXPORTS, seedExportSources, writeDemoExports } from '../../infra/scripts/seed-exports.ts';
import { testEnv } from '../helper.ts';

const SAMPLE = readFileSync(new URL('../../infra/data/focus-1.0/focus_sample.csv', import.meta.url), 'utf8');

/** Sum of BilledCost of one provider's rows in a FOCUS CSV, exact. */
function billedOf(csv: string, provider: string): string {
  const rows = parse(csv, { bom: true, columns: true }) as Record<string, string>[];
  return rows.filter((r) => r.ProviderName === provider).reduce((s, r) => s.plus(r.BilledCost), new Decimal(0)).toFixed(12);
}

t.test('the demo exports load as AWS and Azure deliver them, and the next day only the current month is new', async (t) => {
  const { pool } = await testEnv(t);
  const folder = await mkdtemp(join(tmpdir(), 'cc-demo-exports-'));
  t.teardown(() => rm(folder, { recursive: true, force: true }));
  const deps = { pool, exportStores: await exportStoresFromConfig(createSecretBox('d'.repeat(40)), { localDir: folder }) };

  t.same((await seedExportSources(pool)).map((e) => e.billing_account_id), ['01FFEE-DDCCBB-AA9988', '02B3C4-D5E6F7-A8B9C0'], 'both demo accounts get their setting');
  t.same(await seedExportSources(pool), [], 'a second seed adds nothing');

  const day1 = replayFocusSample(SAMPLE, { yesterday: '2026-11-10', months: 13 });
  const written = writeDemoExports(folder, day1);
  for (const e of DEMO_EXPORTS) {
    t.equal(written.get(e.billing_account_id)?.length, 13, `${e.kind}: 13 billing periods written`);
    const result = await syncExportAccount(deps, e);
    t.equal(result.loaded.length, 13, `${e.kind}: every period loaded`);
    const provider = e.kind === 'aws-data-exports' ? 'aws' : 'azure';
    const { rows } = await pool.query<{ spend: string }>(
      `SELECT sum(cost + credits)::numeric(30,12)::text AS spend FROM cost_line WHERE billing_account_id = $1 AND provider = $2`,
      [e.billing_account_id, provider],
    );
    t.equal(rows[0].spend, billedOf(day1, e.provider), `${e.kind}: the loaded spend is the sample's BilledCost, exactly`);
    const { rows: others } = await pool.query(`SELECT DISTINCT provider FROM cost_line WHERE billing_account_id = $1 AND provider NOT IN ($2, 'gcp')`, [e.billing_account_id, provider]);
    t.same(others, [], `${e.kind}: only its own provider's rows`);
    t.match(await findExportSource(pool, e.billing_account_id), { last_error: null, last_delivery: /^2026-11 \(.*(Manifest|manifest)\.json\)$/ }, 'the freshness line names the delivery');
  }

  writeDemoExports(folder, replayFocusSample(SAMPLE, { yesterday: '2026-11-12', months: 13 }));
  for (const e of DEMO_EXPORTS) {
    const result = await syncExportAccount(deps, e);
    t.same(result.loaded.map((l) => l.period), ['2026-11'], `${e.kind}: the grown month is a new delivery`);
    t.equal(result.unchanged.length, 12, `${e.kind}: the months that did not change are skipped`);
  }
});
