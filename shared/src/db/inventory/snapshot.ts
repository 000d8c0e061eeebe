/**
 * Inventory sync runs and the atomic replacement of a customer's snapshot. The caller reads the whole estate
 * first; only then is the snapshot replaced, in one transaction, so a failed read leaves the previous snapshot
 * and readers never see half a sync. Unchanged rows are not rewritten and record no change, so running the
 * same sync twice is a no-op apart from its run record.
 */
import type pg from 'pg';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { from as copyFrom } from 'pg-copy-streams';
import type { Pool, Queryable } from '../pool.ts';
import { withTransaction } from '../pool.ts';
import type { InventoryAsset, Recommendation } from '../../ports/inventory.ts';
import { regionOf, violationRule } from '../../inventory/asset-fields.ts';

export interface SyncRun {
  id: string;
  customer_id: string;
  source: 'local' | 'real';
  status: 'running' | 'succeeded' | 'failed';
  started_at: Date;
  finished_at: Date | null;
  asset_count: number | null;
  recommendation_count: number | null;
  added: number | null;
  removed: number | null;
  changed: number | null;
  error: string | null;
}

export interface SnapshotChanges {
  added: number;
  removed: number;
  changed: number;
}

export interface SnapshotSummary extends SnapshotChanges {
  /** Distinct assets and recommendations now stored (an upstream duplicate counts once). */
  assets: number;
  recommendations: number;
}

/** Committed on its own, before the slow reads, so a running sync is visible. */
export async function startSyncRun(db: Queryable, customerId: string, source: 'local' | 'real'): Promise<string> {
  const { rows } = await db.query<{ id: string }>(`INSERT INTO inventory_sync_run (customer_id, source) VALUES ($1, $2) RETURNING id`, [customerId, source]);
  return rows[0]!.id;
}

export async function failSyncRun(db: Queryable, runId: string, error: string): Promise<void> {
  await db.query(`UPDATE inventory_sync_run SET status = 'failed', finished_at = now(), error = left($2, 2000) WHERE id = $1`, [runId, error]);
}

export async function latestSyncRun(db: Queryable, customerId: string, status?: SyncRun['status']): Promise<SyncRun | null> {
  const { rows } = await db.query<SyncRun>(
    `SELECT * FROM inventory_sync_run WHERE customer_id = $1 AND ($2::text IS NULL OR status = $2) ORDER BY id DESC LIMIT 1`,
    [customerId, status ?? null],
  );
  return rows[0] ?? null;
}

// Recommendations per INSERT when staging: a few MB of JSON each (they number hundreds, not thousands).
const CHUNK = 2000;

// COPY text format: backslash, tab and line breaks escaped; \N is NULL.
const copyText = (v: string | null) => (v === null ? '\\N' : v.replace(/[\\\t\n\r]/g, (c) => (c === '\\' ? '\\\\' : c === '\t' ? '\\t' : c === '\n' ? '\\n' : '\\r')));
// A text[] literal: every element quoted, its backslashes and quotes escaped.
const arrayLiteral = (items: string[]) => `{${items.map((i) => `"${i.replace(/[\\"]/g, (c) => `\\${c}`)}"`).join(',')}}`;

const COPY_COLUMNS = 'asset_name, asset_type, project_id, location, region, violation_rule, display_name, parent_name, ancestors, update_time, data';

/** COPY lines, 500 rows to a chunk: one stream write per row costs more than the rows themselves. */
function* assetLines(assets: InventoryAsset[]): Generator<string> {
  for (let i = 0; i < assets.length; i += 500) {
    let chunk = '';
    for (const a of assets.slice(i, i + 500)) {
      const fields = [a.asset_name, a.asset_type, a.project_id, a.location, regionOf(a.location), violationRule(a), a.display_name, a.parent, arrayLiteral(a.ancestors), a.update_time, JSON.stringify(a.data)];
      chunk += `${fields.map(copyText).join('\t')}\n`;
    }
    yield chunk;
  }
}

/** COPY, not INSERT: 100,000 assets stage in seconds. Then deduplicated and hashed in SQL. */
async function stageAssets(tx: pg.PoolClient, assets: InventoryAsset[]): Promise<void> {
  await tx.query(`CREATE TEMP TABLE inv_copy_asset (
      asset_name text, asset_type text, project_id text, location text, region text, violation_rule text,
      display_name text, parent_name text, ancestors text[], update_time timestamptz, data jsonb,
      ord bigint GENERATED ALWAYS AS IDENTITY
    ) ON COMMIT DROP`);
  await pipeline(Readable.from(assetLines(assets)), tx.query(copyFrom(`COPY inv_copy_asset (${COPY_COLUMNS}) FROM STDIN`)));
  // A name seen twice (an upstream page repeated) keeps its first copy.
  await tx.query(`CREATE TEMP TABLE inv_stage_asset ON COMMIT DROP AS
      SELECT DISTINCT ON (asset_name) ${COPY_COLUMNS},
             md5(jsonb_build_array(asset_type, project_id, location, region, violation_rule, display_name, parent_name,
                                   ancestors, update_time, data)::text) AS content_hash
        FROM inv_copy_asset ORDER BY asset_name, ord`);
  await tx.query(`ALTER TABLE inv_stage_asset ADD PRIMARY KEY (asset_name)`);
  await tx.query(`ANALYZE inv_stage_asset`);
}

async function stageRecommendations(tx: pg.PoolClient, recs: Recommendation[]): Promise<void> {
  await tx.query(`CREATE TEMP TABLE inv_stage_rec (LIKE inventory_recommendation) ON COMMIT DROP`);
  await tx.query(`ALTER TABLE inv_stage_rec ADD PRIMARY KEY (name)`);
  for (let i = 0; i < recs.length; i += CHUNK) {
    await tx.query(
      `INSERT INTO inv_stage_rec
       SELECT '', x.name, x.etag, x.state, x.recommender, x.recommender_subtype, x.primary_impact_category, x.cost::numeric,
              x.currency, x.cost_duration, x.description, x.priority, x.target_resources, x.location, x.project_id,
              x.last_refresh_time, x.content,
              md5(jsonb_build_array(x.etag, x.state, x.recommender_subtype, x.primary_impact_category, x.cost, x.currency,
                                    x.cost_duration, x.description, x.priority, x.target_resources, x.location, x.project_id,
                                    x.last_refresh_time, x.content)::text),
              0
         FROM jsonb_to_recordset($1::jsonb) AS x(name text, etag text, state text, recommender text, recommender_subtype text,
              primary_impact_category text, cost text, currency text, cost_duration text, description text, priority text,
              target_resources text[], location text, project_id text, last_refresh_time timestamptz, content jsonb)
       ON CONFLICT (name) DO NOTHING`,
      [JSON.stringify(recs.slice(i, i + CHUNK))],
    );
  }
}

/**
 * Replaces the customer's snapshot with `assets` and `recommendations` and closes run `runId` as succeeded, in
 * one transaction. Assets gone upstream disappear; changes against the previous snapshot go to the asset's
 * history (the first snapshot is the baseline and records none).
 */
export async function replaceSnapshot(
  pool: Pool,
  customerId: string,
  runId: string,
  snapshot: { assets: InventoryAsset[]; recommendations: Recommendation[] },
): Promise<SnapshotSummary> {
  return withTransaction(pool, async (tx) => {
    // Two syncs of one customer queue here instead of interleaving their diffs.
    await tx.query(`SELECT pg_advisory_xact_lock(hashtextextended('inventory-snapshot:' || $1, 0))`, [customerId]);
    await stageAssets(tx, snapshot.assets);
    await stageRecommendations(tx, snapshot.recommendations);
    const { rows: prior } = await tx.query<{ baseline: boolean }>(
      `SELECT NOT EXISTS (SELECT 1 FROM inventory_sync_run WHERE customer_id = $1 AND status = 'succeeded') AS baseline`,
      [customerId],
    );
    const baseline = prior[0]!.baseline;

    const { rows: counts } = await tx.query<SnapshotChanges>(
      `WITH diff AS (
         SELECT coalesce(s.asset_name, a.asset_name) AS asset_name, coalesce(s.asset_type, a.asset_type) AS asset_type,
                CASE WHEN a.asset_name IS NULL THEN 'added' WHEN s.asset_name IS NULL THEN 'removed' ELSE 'changed' END AS change,
                CASE WHEN a.asset_name IS NOT NULL AND s.asset_name IS NOT NULL THEN array_remove(ARRAY[
                  CASE WHEN s.asset_type IS DISTINCT FROM a.asset_type THEN 'asset_type' END,
                  CASE WHEN s.location IS DISTINCT FROM a.location THEN 'location' END,
                  CASE WHEN s.violation_rule IS DISTINCT FROM a.violation_rule THEN 'violation_rule' END,
                  CASE WHEN s.display_name IS DISTINCT FROM a.display_name THEN 'display_name' END,
                  CASE WHEN s.parent_name IS DISTINCT FROM a.parent_name THEN 'parent' END,
                  CASE WHEN s.ancestors IS DISTINCT FROM a.ancestors THEN 'ancestors' END,
                  CASE WHEN s.update_time IS DISTINCT FROM a.update_time THEN 'update_time' END], NULL)
                  || ARRAY(SELECT 'data.' || k FROM (SELECT jsonb_object_keys(s.data) UNION SELECT jsonb_object_keys(a.data)) AS keys(k)
                            WHERE s.data -> k IS DISTINCT FROM a.data -> k ORDER BY k)
                ELSE '{}' END AS changed_fields
           FROM inv_stage_asset s
           FULL JOIN (SELECT * FROM inventory_asset WHERE customer_id = $1) a ON a.asset_name = s.asset_name
          WHERE a.asset_name IS NULL OR s.asset_name IS NULL OR a.content_hash <> s.content_hash
       ), recorded AS (
         INSERT INTO inventory_asset_change (customer_id, sync_run_id, asset_name, asset_type, change, changed_fields)
         SELECT $1, $2, asset_name, asset_type, change, changed_fields FROM diff WHERE NOT $3::boolean
       )
       SELECT count(*) FILTER (WHERE change = 'added')::int AS added, count(*) FILTER (WHERE change = 'removed')::int AS removed,
              count(*) FILTER (WHERE change = 'changed')::int AS changed
         FROM diff`,
      [customerId, runId, baseline],
    );

    await tx.query(
      `DELETE FROM inventory_asset a WHERE a.customer_id = $1 AND NOT EXISTS (SELECT 1 FROM inv_stage_asset s WHERE s.asset_name = a.asset_name)`,
      [customerId],
    );
    await tx.query(
      `INSERT INTO inventory_asset (customer_id, asset_name, asset_type, project_id, location, region, violation_rule, display_name,
              parent_name, ancestors, update_time, data, content_hash, first_seen_run, last_changed_run)
       SELECT $1, asset_name, asset_type, project_id, location, region, violation_rule, display_name, parent_name, ancestors,
              update_time, data, content_hash, $2, $2
         FROM inv_stage_asset
       ON CONFLICT (customer_id, asset_name) DO UPDATE SET
         asset_type = EXCLUDED.asset_type, project_id = EXCLUDED.project_id, location = EXCLUDED.location,
         region = EXCLUDED.region, violation_rule = EXCLUDED.violation_rule, display_name = EXCLUDED.display_name,
         parent_name = EXCLUDED.parent_name, ancestors = EXCLUDED.ancestors, update_time = EXCLUDED.update_time,
         data = EXCLUDED.data, content_hash = EXCLUDED.content_hash, last_changed_run = EXCLUDED.last_changed_run
       WHERE inventory_asset.content_hash <> EXCLUDED.content_hash`,
      [customerId, runId],
    );

    await tx.query(
      `DELETE FROM inventory_recommendation r WHERE r.customer_id = $1 AND NOT EXISTS (SELECT 1 FROM inv_stage_rec s WHERE s.name = r.name)`,
      [customerId],
    );
    await tx.query(
      `INSERT INTO inventory_recommendation
       SELECT $1, name, etag, state, recommender, recommender_subtype, primary_impact_category, cost, currency, cost_duration,
              description, priority, target_resources, location, project_id, last_refresh_time, content, content_hash, $2
         FROM inv_stage_rec
       ON CONFLICT (customer_id, name) DO UPDATE SET
         etag = EXCLUDED.etag, state = EXCLUDED.state, recommender = EXCLUDED.recommender,
         recommender_subtype = EXCLUDED.recommender_subtype, primary_impact_category = EXCLUDED.primary_impact_category,
         cost = EXCLUDED.cost, currency = EXCLUDED.currency, cost_duration = EXCLUDED.cost_duration,
         description = EXCLUDED.description, priority = EXCLUDED.priority, target_resources = EXCLUDED.target_resources,
         location = EXCLUDED.location, project_id = EXCLUDED.project_id, last_refresh_time = EXCLUDED.last_refresh_time,
         content = EXCLUDED.content, content_hash = EXCLUDED.content_hash, sync_run_id = EXCLUDED.sync_run_id
       WHERE inventory_recommendation.content_hash <> EXCLUDED.content_hash`,
      [customerId, runId],
    );

    const changes = counts[0]!;
    const { rows: run } = await tx.query<{ assets: number; recommendations: number }>(
      `UPDATE inventory_sync_run SET status = 'succeeded', finished_at = now(), error = NULL,
              asset_count = (SELECT count(*) FROM inv_stage_asset), recommendation_count = (SELECT count(*) FROM inv_stage_rec),
              added = $2, removed = $3, changed = $4
        WHERE id = $1
        RETURNING asset_count AS assets, recommendation_count AS recommendations`,
      [runId, changes.added, changes.removed, changes.changed],
    );
    return { ...changes, ...run[0]! };
  });
}
