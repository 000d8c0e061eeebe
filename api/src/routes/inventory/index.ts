import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Static } from '@sinclair/typebox';
import { assetHistory, assetPageItemsJson, findAssetByNodeId } from '@cc/shared/db/inventory/asset-read.ts';
import { snapshotVersion } from '@cc/shared/db/inventory/snapshot-read.ts';
import { recommendationVersion } from '@cc/shared/db/inventory/recommendation-read.ts';
import { latestSyncRun } from '@cc/shared/db/inventory/snapshot.ts';
import { decodeNodeId } from '@cc/shared/inventory/graph.ts';
import { viewerProjectIds } from '@cc/shared/db/viewer-projects.ts';
import { withErrors } from '@cc/shared/schemas/common.ts';
import {
  AssetHistory,
  AssetListQuery,
  AssetPage,
  InventoryGraph,
  InventoryNode,
  InventoryNodeParams,
  InventoryParams,
  InventorySyncStarted,
  InventorySyncStatus,
  RecommendationListQuery,
  RecommendationPage,
} from '@cc/shared/schemas/inventory.ts';
import { errors } from '../../errors.ts';
import { viewerRestriction } from '../../viewer-restriction.ts';
import { nextNightlySync, syncRun } from '../../inventory/present.ts';
import { GraphCache } from '../../inventory/graph-cache.ts';
import { AssetTotals } from '../../inventory/asset-totals.ts';
import { AssetPages } from '../../inventory/asset-pages.ts';
import { RecommendationTotals } from '../../inventory/recommendation-totals.ts';
import { RecommendationPages } from '../../inventory/recommendation-pages.ts';

const tags = ['inventory'];
const tenant = { params: 'customer' } as const;

/** Spec 000 §6: inventory_* plus the customer's inventory flag. */
const feature = 'inventory';
const read = { permission: 'inventory_read', tenant, feature } as const;

const CLOSE_BRACE = Buffer.from('}');

/**
 * Sends JSON text already in the route's response shape as it is: Fastify serialises only non-string payloads, so
 * a page built in PostgreSQL is not parsed and written again.
 */
function sendJsonText<T>(reply: FastifyReply, json: string | Buffer): T {
  reply.type('application/json; charset=utf-8');
  // Typed as the schema's object; at run time Fastify sends a string or Buffer payload as it is.
  return reply.send(json) as unknown as T;
}

/**
 * Asset inventory (spec 000 §2 /inventory, 001 §2.10, §7): the two tables with server-side filter, sort and paging
 * (100,000 assets stay one index range per page), the graph and a node's detail, an asset's history of changes,
 * the sync status for the empty state, and an admin's "run it now".
 */
const inventory: FastifyPluginAsyncTypebox = async (app) => {
  // The snapshot and recommendation versions are probed on the primary; what they key is read through the replica
  // once it has replayed at least that far (docs/scaling.md, "PostgreSQL read replica").
  const graphs = new GraphCache(app.pg, app.pgRead);
  const assetTotals = new AssetTotals(app.pg, app.pgRead);
  const assetPages = new AssetPages(app.pg, app.pgRead);
  const recommendationTotals = new RecommendationTotals(app.pg, app.pgRead);
  const recommendationPages = new RecommendationPages(app.pg, app.pgRead);
  /**
   * A customerViewer sees the assets, graph and recommendations of the projects his filter admits (those of his
   * System Health panel; none left: 403 as on billing); null: the customer's whole estate.
   */
  const viewerProjects = async (req: FastifyRequest): Promise<string[] | null> => {
    const filters = await viewerRestriction(app, req.customer.customer_id, req.auth);
    return filters === null ? null : [...(await viewerProjectIds(app.pg, req.customer.customer_id, filters))].sort();
  };
  app.get(
    '/v1/asset-inventory/:customer/assets',
    { config: read, schema: { tags, summary: 'Google Cloud Inventory: one page of assets', params: InventoryParams, querystring: AssetListQuery, response: withErrors({ 200: AssetPage }) } },
    // The items are JSON text made by PostgreSQL (assetPageItemsJson), sent as they are, as the graph is.
    async (req, reply) => {
      const c = req.customer;
      const q = req.query;
      const offset = q.offset ?? 0;
      const limit = q.limit ?? 100;
      const query = { ...q, offset, limit, projects: await viewerProjects(req) };
      // one probe of the snapshot version serves the kept total and the kept anchors
      const version = await snapshotVersion(app.pg, c.customer_id);
      const [total, seek] = await Promise.all([assetTotals.total(c.customer_id, query, version), assetPages.seek(c.customer_id, query, version)]);
      const items = await app.pgRead.fresh((db) => assetPageItemsJson(db, c.customer_id, query, seek));
      return sendJsonText(reply, `{"total":${total},"offset":${offset},"limit":${limit},"items":${items}}`);
    },
  );

  app.get(
    '/v1/asset-inventory/:customer/recommendations',
    {
      config: read,
      schema: { tags, summary: 'Google Cloud Recommendations: one page', params: InventoryParams, querystring: RecommendationListQuery, response: withErrors({ 200: RecommendationPage }) },
    },
    // The items are JSON made by PostgreSQL (recommendationPageItemsJson) and kept per version as bytes
    // (recommendation-pages.ts), sent as they are.
    async (req, reply) => {
      const c = req.customer;
      const q = req.query;
      const offset = q.offset ?? 0;
      const limit = q.limit ?? 100;
      const projects = await viewerProjects(req);
      const query = { ...q, offset, limit, projects };
      // one probe of the version serves the kept total, savings and page
      const version = await recommendationVersion(app.pg, c.customer_id);
      const [total, savings, items] = await Promise.all([
        recommendationTotals.total(c.customer_id, query, version),
        recommendationTotals.savingsOf(c.customer_id, projects, version),
        recommendationPages.items(c.customer_id, query, version),
      ]);
      const head = JSON.stringify({ total, offset, limit, savings: { currency: c.billing_currency, claimed: savings.claimed, realised: savings.realised } });
      return sendJsonText(reply, Buffer.concat([Buffer.from(`${head.slice(0, -1)},"items":`), items, CLOSE_BRACE]));
    },
  );

  app.get(
    '/v1/asset-inventory/:customer/visualize/',
    { config: read, schema: { tags, summary: 'The inventory graph: nodes and links', params: InventoryParams, response: withErrors({ 200: InventoryGraph }) } },
    // The body is JSON text built once per snapshot (graph-cache.ts); a string is sent as it is, not re-serialised.
    async (req, reply) => {
      const body = await graphs.body(req.customer.customer_id, await viewerProjects(req));
      reply.type('application/json; charset=utf-8').header('vary', 'accept-encoding');
      // Typed as the schema's object; at run time Fastify sends a string or Buffer payload as it is.
      const payload = /\bgzip\b/.test(req.headers['accept-encoding'] ?? '') ? (reply.header('content-encoding', 'gzip'), body.gzip) : body.json;
      return reply.send(payload as unknown as Static<typeof InventoryGraph>);
    },
  );

  app.get(
    '/v1/asset-inventory/:customer/node/:nodeId',
    {
      config: read,
      schema: { tags, summary: 'One graph node: name, asset_type, location, data (JSON text); `/` written as `*`', params: InventoryNodeParams, response: withErrors({ 200: InventoryNode }) },
    },
    async (req) => {
      const asset = await findAssetByNodeId(app.pg, req.customer.customer_id, req.params.nodeId);
      const projects = await viewerProjects(req);
      if (!asset || (projects !== null && !projects.includes(asset.project_id))) throw new errors.notFound('Inventory node not found');
      return { name: asset.display_name, asset_type: asset.asset_type, location: asset.location, data: JSON.stringify(asset.data, null, 2) };
    },
  );

  app.get(
    '/v1/asset-inventory/:customer/history/:nodeId',
    {
      config: read,
      schema: { tags, summary: 'What changed on one asset between syncs, newest first', params: InventoryNodeParams, response: withErrors({ 200: AssetHistory }) },
    },
    async (req) => {
      const assetName = decodeNodeId(req.params.nodeId);
      const c = req.customer;
      const projects = await viewerProjects(req);
      if (projects !== null) {
        // a viewer's: of an asset of his projects in the current snapshot
        const asset = await findAssetByNodeId(app.pg, c.customer_id, req.params.nodeId);
        if (!asset || !projects.includes(asset.project_id)) throw new errors.notFound('Inventory node not found');
      }
      const changes = await app.pgRead.fresh((db) => assetHistory(db, c.customer_id, assetName));
      return { asset_name: assetName, changes: changes.map((c) => ({ change: c.change, changed_fields: c.changed_fields, changed_at: c.changed_at.toISOString() })) };
    },
  );

  app.get(
    '/v1/asset-inventory/:customer/sync',
    // Answers with the flag off too: the empty state says whether the inventory is on.
    { config: { ...read, feature: 'none' }, schema: { tags, summary: 'The latest inventory sync and when the next one runs', params: InventoryParams, response: withErrors({ 200: InventorySyncStatus }) } },
    async (req) => {
      const c = req.customer;
      const [last, success] = c.inventory
        ? await Promise.all([latestSyncRun(app.pg, c.customer_id), latestSyncRun(app.pg, c.customer_id, 'succeeded')])
        : [null, null];
      return { inventory: c.inventory, last_run: syncRun(last), last_success: syncRun(success), next_run_at: nextNightlySync().toISOString() };
    },
  );

  app.post(
    '/v1/asset-inventory/:customer/sync',
    { config: { permission: 'admin', tenant, feature }, schema: { tags, summary: 'Run the customer’s inventory sync now (admin)', params: InventoryParams, response: withErrors({ 202: InventorySyncStarted }) } },
    async (req, reply) => {
      const c = req.customer;
      const jobId = await app.producers.enqueue('inventory-sync', 'inventory.sync', { customer_id: c.customer_id });
      return reply.code(202).send({ job_id: jobId });
    },
  );
};
export default inventory;
