/**
 * Local (default) inventory source: the deterministic estate of local-estate.ts, built from the GCP projects in the
 * customer's billing data and those CommandCenter provisioned for it, with the state changes sent to it kept in its own table — so a claimed recommendation
 * stays claimed across syncs and restarts, as it would in Recommender. Etags follow the state, and a stale etag is
 * refused as Recommender refuses it.
 */
import { createHash } from 'node:crypto';
import type { Queryable } from '../../db/pool.ts';
import { listBilledGcpProjects } from '../../db/customers-write.ts';
import { listProvisionedProjects } from '../../db/provisioning.ts';
import { localRecommendationStates, setLocalRecommendationState, type LocalRecommendationState } from '../../db/inventory/claims.ts';
import { InventorySourceError, type InventorySource, type MarkRecommendation, type Recommendation } from '../../ports/inventory.ts';
import { localEstate } from './local-estate.ts';

const etagOf = (name: string, state: string, metadata: Record<string, string>) =>
  `"${createHash('sha256').update(JSON.stringify([name, state, metadata])).digest('base64url').slice(0, 16)}"`;

export function localInventorySource(db: Queryable): InventorySource {
  /** The billed projects, plus those CommandCenter provisioned for the customer (Active requests) before any spend. */
  async function estate(customerId: string, currency: string) {
    const [billed, provisioned] = await Promise.all([listBilledGcpProjects(db, customerId), listProvisionedProjects(db, customerId)]);
    const known = new Set(billed.map((p) => p.project_id));
    const added = provisioned.filter((p) => !known.has(p.project_id)).map((p) => ({ project_id: p.project_id, project_name: p.project_name }));
    return localEstate(customerId, [...billed, ...added], currency);
  }

  function withState(r: Recommendation, s: LocalRecommendationState | undefined): Recommendation {
    const state = s?.state ?? r.state;
    return { ...r, state, etag: etagOf(r.name, state, s?.state_metadata ?? {}) };
  }

  async function mark(req: MarkRecommendation, to: LocalRecommendationState['state']) {
    const { recommendations } = await estate(req.customerId, req.currency);
    const states = await localRecommendationStates(db, req.customerId);
    const found = recommendations.find((r) => r.name === req.name);
    if (!found) throw new InventorySourceError(`recommendation ${req.name} not found`);
    const current = withState(found, states.get(req.name));
    if (current.etag !== req.etag) throw new InventorySourceError(`recommendation ${req.name}: etag does not match (it changed since it was read)`);
    const allowed = to === 'CLAIMED' ? ['ACTIVE', 'CLAIMED'] : ['ACTIVE', 'CLAIMED', 'SUCCEEDED', ...(to === 'FAILED' ? ['FAILED'] : [])];
    if (!allowed.includes(current.state)) throw new InventorySourceError(`recommendation ${req.name} cannot go from ${current.state} to ${to}`);
    const next = { state: to, state_metadata: req.stateMetadata };
    await setLocalRecommendationState(db, req.customerId, req.name, next);
    const marked = withState(found, next);
    return { name: marked.name, etag: marked.etag, state: marked.state };
  }

  return {
    kind: 'local',
    async listAssets(scope) {
      return (await estate(scope.customerId, scope.currency)).assets;
    },
    async listRecommendations(scope) {
      const { recommendations } = await estate(scope.customerId, scope.currency);
      const states = await localRecommendationStates(db, scope.customerId);
      return recommendations.map((r) => withState(r, states.get(r.name)));
    },
    markClaimed: (req) => mark(req, 'CLAIMED'),
    markSucceeded: (req) => mark(req, 'SUCCEEDED'),
    markFailed: (req) => mark(req, 'FAILED'),
  };
}
