/** Settings of the inventory graph (spec 001 §2.10, §9) and the asset search over its nodes. */
import type { GraphNode, InventoryGraph } from '@cc/shared/schemas/inventory.ts';

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

/** Whether the 2D canvas draws every node's name at this zoom. */
export const labelsShown = (nodeCount: number, scale: number) => nodeCount <= LABELLED_NODES_MAX || scale >= LABEL_ZOOM_MIN;

/** Beyond {@link LABELLED_NODES_MAX} nodes, how many keep their name at any zoom, in 2D and 3D. */
export const PROMINENT_LABELS = 24;
/** Beyond {@link LABELLED_NODES_MAX} nodes, the 3D view also names this many of the nodes nearest the camera. */
export const NEAREST_LABELS = 24;

/**
 * The nodes whose names are always shown: every node of a small graph; of a large one the {@link PROMINENT_LABELS}
 * with the most links (the organisation, folders and projects everything else hangs from), nearer the root first.
 * The hover label still names any node.
 */
export function prominentNodes({ nodes, links }: InventoryGraph, max = LABELLED_NODES_MAX, keep = PROMINENT_LABELS): Set<string> {
  if (nodes.length <= max) return new Set(nodes.map((n) => n.id));
  const degree = new Map<string, number>();
  for (const l of links) for (const id of [l.source, l.target]) degree.set(id, (degree.get(id) ?? 0) + 1);
  const ranked = [...nodes].sort((a, b) => (degree.get(b.id) ?? 0) - (degree.get(a.id) ?? 0) || a.level - b.level || a.asset_name.localeCompare(b.asset_name));
  return new Set(ranked.slice(0, keep).map((n) => n.id));
}

/** A name cut to what fits under a node, its end kept (GCP names differ at the end): `…-shop-prod`. */
export function shortLabel(name: string, max = LABEL_CHARS): string {
  return name.length <= max ? name : `…${name.slice(name.length - max + 1)}`;
}

/** A name's box, in whatever units the caller draws in. */
export interface LabelBox {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/**
 * The names placed in one frame: a name that would cover one already placed is left out (its node keeps its hover
 * label), as two names drawn over each other are read as neither. Nodes of one level sit side by side in the
 * top-down and left-right layouts, so without this their names ran together into one unreadable line.
 */
export class LabelPlacer {
  private placed: LabelBox[] = [];

  /** Starts a frame. */
  reset(): void {
    this.placed = [];
  }

  /** Places the box when it is free, and says whether it was. */
  place(box: LabelBox): boolean {
    if (this.placed.some((o) => box.left < o.right && box.right > o.left && box.top < o.bottom && box.bottom > o.top)) return false;
    this.placed.push(box);
    return true;
  }
}

/**
 * Draws a node's name under it on the 2D canvas, at the same screen size whatever the zoom, unless the placer finds
 * its place taken. fillText paints the name as glyphs: nothing in it is parsed, whatever an account named its
 * resource.
 */
export function drawNodeLabel(ctx: CanvasRenderingContext2D, name: string, x: number, y: number, scale: number, placer?: LabelPlacer, radius = 4): void {
  const px = LABEL_PX / scale;
  ctx.font = `${px}px system-ui, -apple-system, "Segoe UI", sans-serif`;
  const text = shortLabel(name);
  const top = y + radius + 2 / scale;
  const half = ctx.measureText(text).width / 2;
  // a little air between names (2 screen px) so neighbours do not touch
  const gap = 2 / scale;
  if (placer && !placer.place({ left: x - half - gap, top, right: x + half + gap, bottom: top + px * 1.2 })) return;
  ctx.textAlign = 'center';
  ctx.textBaseline = 'top';
  // a light halo keeps the name readable across links
  ctx.lineWidth = 3 / scale;
  ctx.strokeStyle = 'rgba(246, 248, 250, 0.9)';
  ctx.strokeText(text, x, top);
  ctx.fillStyle = '#1f2328';
  ctx.fillText(text, x, top);
}
