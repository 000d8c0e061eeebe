/** Settings of the inventory graph (spec 001 §2.10, §9) and the asset search over its nodes. */
import type { GraphNode } from '@cc/shared/schemas/inventory.ts';

export const GRAPH_SIZE = 600;
/** Spec 001 §9: the layout animates for 3 s. */
export const ANIMATION_MS = 3000;
export const LEVEL_DISTANCE = { '2d': 100, '3d': 50 } as const;
export type GraphDimension = keyof typeof LEVEL_DISTANCE;

/**
 * Spec 001 §2.10's orientation choices, in its order and with its texts (shown), the layout's name for each, and the
 * full name a title and screen readers give (the spec's abbreviations alone do not say Bu is "bottom-up").
 */
export const DAG_MODES = [
  { label: 'Radial In', mode: 'radialin', full: 'Radial in (roots outside)' },
  { label: 'Bu', mode: 'bu', full: 'Bottom-up' },
  { label: 'Lr', mode: 'lr', full: 'Left to right' },
  { label: 'Rl', mode: 'rl', full: 'Right to left' },
  { label: 'Radial Out', mode: 'radialout', full: 'Radial out (roots in the centre)' },
  { label: 'Td', mode: 'td', full: 'Top-down' },
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

/** Up to this many nodes every node is labelled on the canvas; beyond it names show on hover, or once zoomed in. */
export const LABELLED_NODES_MAX = 60;
/** Zoom (canvas scale) from which a large graph's names are drawn too: a searched node is shown at 4. */
export const LABEL_ZOOM_MIN = 3;
const LABEL_CHARS = 24;
/** Room the fitted layout leaves around its outer nodes for their names (half a 24-character name, at 11 px). */
export const LABEL_FIT_PADDING = 72;
const LABEL_PX = 11;

/** Whether the 2D canvas draws node names at this zoom. */
export const labelsShown = (nodeCount: number, scale: number) => nodeCount <= LABELLED_NODES_MAX || scale >= LABEL_ZOOM_MIN;

/** A name cut to what fits under a node, its end kept (GCP names differ at the end): `…-shop-prod`. */
export function shortLabel(name: string, max = LABEL_CHARS): string {
  return name.length <= max ? name : `…${name.slice(name.length - max + 1)}`;
}

/**
 * Draws a node's name under it on the 2D canvas, at the same screen size whatever the zoom. fillText paints the name
 * as glyphs: nothing in it is parsed, whatever an account named its resource.
 */
export function drawNodeLabel(ctx: CanvasRenderingContext2D, name: string, x: number, y: number, scale: number, radius = 4): void {
  const px = LABEL_PX / scale;
  ctx.font = `${px}px system-ui, -apple-system, "Segoe UI", sans-serif`;
  ctx.textAlign = 'center';
  ctx.textBaseline = 'top';
  const text = shortLabel(name);
  const top = y + radius + 2 / scale;
  // a light halo keeps the name readable across links
  ctx.lineWidth = 3 / scale;
  ctx.strokeStyle = 'rgba(246, 248, 250, 0.9)';
  ctx.strokeText(text, x, top);
  ctx.fillStyle = '#1f2328';
  ctx.fillText(text, x, top);
}
