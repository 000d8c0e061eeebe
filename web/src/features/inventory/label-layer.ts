/**
 * Node names over the 3D graph without hovering. WebGL draws no text, so the names are HTML spans laid over the
 * canvas and moved to each node's screen position every frame; each name is a text node (`textContent`), never
 * markup, whatever a cloud account named its resource. A DOM layer rather than a text sprite per node: sprites would
 * need three.js as a direct dependency of the web app, and text stays crisp and readable at any zoom.
 */
import type { GraphNode } from '@cc/shared/schemas/inventory.ts';
import { LabelPlacer, shortLabel } from './graph-view.ts';
import styles from './inventory.module.css';

export interface Point {
  x: number;
  y: number;
  z: number;
}

/** Where the camera is this frame, and where a point lands on the canvas. */
export interface Viewpoint {
  camera: Point;
  /** Unit vector the camera looks along. */
  forward: Point;
  toScreen(p: Point): { x: number; y: number };
}

type Positioned = GraphNode & Partial<Point>;

/** Pixels between a node's centre and the top of its name, and a name's line height (11 px text). */
const LABEL_OFFSET = 6;
const LABEL_HEIGHT = 14;

interface LabelLayerOptions {
  /** The graph's box: the layer covers it. */
  el: HTMLElement;
  /** The renderer's own node objects, whose x, y, z the layout moves. */
  nodes: readonly Positioned[];
  /** Named whatever the camera does (every node of a small graph). */
  always: ReadonlySet<string>;
  /** Besides those, how many of the nodes nearest the camera are named (zooming in names what one looks at). */
  nearest: number;
  viewpoint: () => Viewpoint;
}

/** Starts the layer; the returned function stops it and removes it. */
export function startLabelLayer({ el, nodes, always, nearest, viewpoint }: LabelLayerOptions): () => void {
  const layer = el.ownerDocument.createElement('div');
  layer.className = styles.labels3d ?? '';
  // the graph's role=img label speaks for it; the names are what sighted users read
  layer.setAttribute('aria-hidden', 'true');
  layer.dataset.testid = 'node-labels';
  el.append(layer);
  const spans = new Map<string, HTMLSpanElement>();
  const widths = new Map<string, number>();
  /** The name's width on screen, measured once (its span made then, hidden until placed). */
  const widthOf = (n: Positioned) => {
    let w = widths.get(n.id);
    if (w === undefined) {
      const s = el.ownerDocument.createElement('span');
      s.textContent = shortLabel(n.asset_name);
      layer.append(s);
      spans.set(n.id, s);
      w = s.offsetWidth;
      s.hidden = true;
      widths.set(n.id, w);
    }
    return w;
  };

  const placer = new LabelPlacer();
  let raf = 0;
  const draw = () => {
    const { camera, forward, toScreen } = viewpoint();
    const width = el.clientWidth;
    const height = el.clientHeight;
    // nodes in front of the camera, with their distance to it
    const ahead: { n: Positioned & Point; distance: number }[] = [];
    for (const n of nodes) {
      if (n.x === undefined || n.y === undefined || n.z === undefined) continue;
      const dx = n.x - camera.x;
      const dy = n.y - camera.y;
      const dz = n.z - camera.z;
      if (dx * forward.x + dy * forward.y + dz * forward.z <= 0) continue;
      ahead.push({ n: n as Positioned & Point, distance: Math.hypot(dx, dy, dz) });
    }
    // who gets a name first: the named-anyway ones from the root down, then the nearest others
    const wanted = ahead.filter(({ n }) => always.has(n.id)).sort((a, b) => a.n.level - b.n.level || a.distance - b.distance);
    if (nearest > 0) wanted.push(...ahead.filter(({ n }) => !always.has(n.id)).sort((a, b) => a.distance - b.distance).slice(0, nearest));
    placer.reset();
    const shown = new Map<string, { x: number; y: number }>();
    for (const { n } of wanted) {
      const p = toScreen(n);
      if (!(p.x >= 0 && p.x <= width && p.y >= 0 && p.y <= height)) continue;
      const w = widthOf(n);
      const box = { left: p.x - w / 2, top: p.y + LABEL_OFFSET, right: p.x + w / 2, bottom: p.y + LABEL_OFFSET + LABEL_HEIGHT };
      if (!placer.place(box)) continue;
      shown.set(n.id, p);
    }
    for (const [id, s] of spans) if (!shown.has(id)) s.hidden = true;
    for (const [id, p] of shown) {
      const s = spans.get(id)!;
      s.hidden = false;
      s.style.transform = `translate(${p.x.toFixed(1)}px, ${p.y.toFixed(1)}px) translate(-50%, ${LABEL_OFFSET}px)`;
    }
    raf = requestAnimationFrame(draw);
  };
  raf = requestAnimationFrame(draw);
  return () => {
    cancelAnimationFrame(raf);
    layer.remove();
  };
}
