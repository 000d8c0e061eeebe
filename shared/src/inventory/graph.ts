/**
 * The inventory graph (spec 001 §2.10, §3 "Inventory graph"): nodes `{id, asset_name, level, module, img}` and
 * links `{source, target}` built from each asset's ancestors and parent (organisation → folder → project →
 * resource) plus the compute references (instance → disk, instance → subnetwork → network). Relationship
 * assets need Security Command Center Premium, so edges come from the asset data itself.
 *
 * The browser lays the graph out as a DAG and throws on a cycle ("Invalid DAG structure"), so whatever the
 * input says, the output is acyclic: a depth-first walk in a fixed order drops every back edge.
 */

/** The fields of a stored asset the graph needs. */
export interface GraphAsset {
  asset_name: string;
  asset_type: string;
  display_name: string;
  ancestors: string[];
  parent: string | null;
  data: Record<string, unknown>;
}

export interface GraphNode {
  /** The full resource name (in a URL, encoded with {@link encodeNodeId}). */
  id: string;
  /** The short name shown on the node. */
  asset_name: string;
  /** Longest path from a root: organisation 0, folder 1, … */
  level: number;
  /** The service, e.g. `compute`, `storage`, `cloudresourcemanager`. */
  module: string;
  /** Icon key, `<module>-<kind>`, e.g. `compute-instance`, `cloudresourcemanager-folder`. */
  img: string;
}

export interface GraphLink {
  source: string;
  target: string;
}

export interface InventoryGraph {
  nodes: GraphNode[];
  links: GraphLink[];
}

const CRM = '//cloudresourcemanager.googleapis.com/';
const CRM_KINDS: Record<string, string> = { organizations: 'Organization', folders: 'Folder', projects: 'Project' };

/** Node ids travel in one path segment (spec 001 §7): slashes become `*`, which no GCP resource name holds. */
export function encodeNodeId(id: string): string {
  return id.replace(/\//g, '*');
}

export function decodeNodeId(nodeId: string): string {
  return nodeId.replace(/\*/g, '/');
}

/** `organizations/1`, `folders/2`, `projects/3` → their Resource Manager full resource names. */
export function ancestorName(ancestor: string): string {
  return ancestor.startsWith('//') ? ancestor : CRM + ancestor;
}

/** A compute self link (`https://www.googleapis.com/compute/v1/projects/p/zones/z/disks/d`) → its asset name. */
export function computeAssetName(ref: unknown): string | null {
  if (typeof ref !== 'string') return null;
  const m = /^https:\/\/(?:www|compute)\.googleapis\.com\/compute\/[a-z0-9]+\/(projects\/.+)$/.exec(ref);
  if (m) return `//compute.googleapis.com/${m[1]}`;
  if (ref.startsWith('projects/')) return `//compute.googleapis.com/${ref}`;
  return ref.startsWith('//compute.googleapis.com/') ? ref : null;
}

function describe(assetType: string): { module: string; img: string } {
  const [service = '', kind = 'resource'] = assetType.split('/');
  const module = service.replace(/\.googleapis\.com$/, '') || 'unknown';
  const kebab = kind.replace(/([a-z0-9])([A-Z])/g, '$1-$2').toLowerCase();
  return { module, img: `${module}-${kebab}` };
}

/** The asset references this asset's data makes to others (targets of links from it). */
function references(a: GraphAsset): string[] {
  const out: string[] = [];
  if (a.asset_type === 'compute.googleapis.com/Instance') {
    for (const d of asArray(a.data.disks)) out.push(computeAssetName(field(d, 'source')) ?? '');
    for (const n of asArray(a.data.networkInterfaces)) out.push(computeAssetName(field(n, 'subnetwork')) ?? '');
  }
  if (a.asset_type === 'compute.googleapis.com/Subnetwork') out.push(computeAssetName(a.data.network) ?? '');
  return out.filter(Boolean);
}

const asArray = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const field = (v: unknown, k: string): unknown => (v && typeof v === 'object' ? (v as Record<string, unknown>)[k] : undefined);

export function buildInventoryGraph(assets: GraphAsset[]): InventoryGraph {
  const byName = new Map(assets.map((a) => [a.asset_name, a]));
  // Ids are long strings sharing long prefixes: the walk below runs on small integers instead.
  const index = new Map<string, number>();
  const nodes: Omit<GraphNode, 'level'>[] = [];
  const edges: Set<number>[] = [];
  const addNode = (id: string): number => {
    const known = index.get(id);
    if (known !== undefined) return known;
    const a = byName.get(id);
    const [collection = ''] = id.startsWith(CRM) ? id.slice(CRM.length).split('/') : [];
    const kind = CRM_KINDS[collection];
    nodes.push(
      a
        ? { id, asset_name: a.display_name || id, ...describe(a.asset_type) }
        : { id, asset_name: id.startsWith(CRM) ? id.slice(CRM.length) : id, ...describe(kind ? `cloudresourcemanager.googleapis.com/${kind}` : 'unknown/Resource') },
    );
    edges.push(new Set());
    index.set(id, nodes.length - 1);
    return nodes.length - 1;
  };
  const link = (source: string, target: string) => {
    if (source !== target) edges[addNode(source)]!.add(addNode(target));
  };

  for (const a of assets) {
    addNode(a.asset_name);
    // Nearest first in the data; the chain runs from the root down to the asset.
    const chain = a.ancestors.map(ancestorName).filter((n) => n !== a.asset_name).reverse();
    for (let i = 0; i + 1 < chain.length; i++) link(chain[i]!, chain[i + 1]!);
    const parent = a.parent && a.parent !== a.asset_name ? a.parent : (chain.at(-1) ?? null);
    if (parent) link(parent, a.asset_name);
    for (const ref of references(a)) if (byName.has(ref)) link(a.asset_name, ref);
  }

  // A fixed order (by id) makes the dropped edge of a cycle, and so the whole graph, independent of input order.
  const order = nodes.map((_, i) => i).sort((a, b) => cmp(nodes[a]!.id, nodes[b]!.id));
  const rank = new Int32Array(nodes.length);
  order.forEach((n, r) => (rank[n] = r));
  const acyclic = dropBackEdges(order, edges, rank);
  const levels = longestPathLevels(acyclic);
  const links: GraphLink[] = [];
  for (const s of order) for (const t of acyclic[s]!) links.push({ source: nodes[s]!.id, target: nodes[t]!.id });
  return { nodes: order.map((i) => ({ ...nodes[i]!, level: levels[i]! })), links };
}

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Iterative DFS (no recursion limit on deep chains) in rank order; an edge into a node still on the stack
 * closes a cycle and is dropped. Kept targets come out sorted by rank.
 */
function dropBackEdges(order: number[], edges: Set<number>[], rank: Int32Array): number[][] {
  const state = new Uint8Array(edges.length); // 0 new, 1 on the stack, 2 done
  const kept: number[][] = edges.map(() => []);
  const targetsOf = (n: number) => [...edges[n]!].sort((a, b) => rank[b]! - rank[a]!);
  for (const root of order) {
    if (state[root]) continue;
    const stack: { id: number; next: number[] }[] = [{ id: root, next: targetsOf(root) }];
    state[root] = 1;
    while (stack.length) {
      const top = stack[stack.length - 1]!;
      const target = top.next.pop();
      if (target === undefined) {
        state[top.id] = 2;
        stack.pop();
        continue;
      }
      if (state[target] === 1) continue;
      kept[top.id]!.push(target);
      if (!state[target]) {
        state[target] = 1;
        stack.push({ id: target, next: targetsOf(target) });
      }
    }
  }
  return kept;
}

function longestPathLevels(edges: number[][]): Int32Array {
  const indegree = new Int32Array(edges.length);
  for (const targets of edges) for (const t of targets) indegree[t]!++;
  const level = new Int32Array(edges.length);
  const queue: number[] = [];
  indegree.forEach((d, i) => d === 0 && queue.push(i));
  for (let i = 0; i < queue.length; i++) {
    const id = queue[i]!;
    for (const t of edges[id]!) {
      level[t] = Math.max(level[t]!, level[id]! + 1);
      if (--indegree[t]! === 0) queue.push(t);
    }
  }
  return level;
}
