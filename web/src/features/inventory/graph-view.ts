/** Settings of the inventory graph (spec 001 §2.10, §9) and the asset search over its nodes. */
import type { GraphNode } from '@cc/shared/schemas/inventory.ts';

export const GRAPH_SIZE = 600;
/** Spec 001 §9: the layout animates for 3 s. */
export const ANIMATION_MS = 3000;
export const LEVEL_DISTANCE = { '2d': 100, '3d': 50 } as const;
export type GraphDimension = keyof typeof LEVEL_DISTANCE;

/** Spec 001 §2.10's orientation choices, in its order, and the layout's name for each. */
export const DAG_MODES = [
  { label: 'Radial In', mode: 'radialin' },
  { label: 'Bu', mode: 'bu' },
  { label: 'Lr', mode: 'lr' },
  { label: 'Rl', mode: 'rl' },
  { label: 'Radial Out', mode: 'radialout' },
  { label: 'Td', mode: 'td' },
] as const;
export type DagMode = (typeof DAG_MODES)[number]['mode'];

/** The node an asset-name search means: an exact name first, then the first (by name) that contains the text. */
export function findNode(nodes: readonly GraphNode[], text: string): GraphNode | null {
  const q = text.trim().toLowerCase();
  if (!q) return null;
  const exact = nodes.find((n) => n.asset_name.toLowerCase() === q || n.id.toLowerCase() === q);
  if (exact) return exact;
  const matches = nodes.filter((n) => n.asset_name.toLowerCase().includes(q));
  return matches.sort((a, b) => a.asset_name.localeCompare(b.asset_name))[0] ?? null;
}

const PALETTE: Record<string, string> = {
  cloudresourcemanager: '#8250df',
  compute: '#0969da',
  storage: '#1a7f37',
  bigquery: '#bf8700',
  iam: '#cf222e',
};

export const nodeColor = (module: string) => PALETTE[module] ?? '#6e7781';

/**
 * A node's hover label: its asset name as text. The graph libraries put a string label into the tooltip as HTML, and
 * an asset name is whatever a cloud account calls its resource (`<img src=x onerror=…>` included), so the label is an
 * element whose text is the name: nothing in it is ever parsed.
 */
export function nodeLabelElement(name: string, doc: Document = document): HTMLElement {
  const label = doc.createElement('span');
  label.textContent = name;
  return label;
}
