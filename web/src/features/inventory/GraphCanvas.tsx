import { useEffect, useRef, useState } from 'react';
import type { GraphNode, InventoryGraph } from '@cc/shared/schemas/inventory.ts';
import { ANIMATION_MS, GRAPH_SIZE, LEVEL_DISTANCE, drawNodeLabel, LABEL_FIT_PADDING, labelsShown, nodeColor, nodeLabelElement, type DagMode, type GraphDimension } from './graph-view.ts';
import styles from './inventory.module.css';

type Positioned = GraphNode & { x?: number; y?: number; z?: number };

/** What the page asks of either renderer. */
interface Renderer {
  dagMode(mode: DagMode): void;
  /** Centres the node; false when it has no position yet. */
  focus(id: string): boolean;
  dispose(): void;
}

/**
 * Loaded on first use, each in its own chunk: the rest of the app never downloads the graph libraries, and the 2D tab
 * never downloads three.js.
 */
async function createRenderer(dimension: GraphDimension, el: HTMLElement, graph: InventoryGraph, mode: DagMode, onClick: (n: GraphNode) => void): Promise<Renderer> {
  // the libraries add x, y (z) to the objects they are given: copies keep the query cache untouched
  const data = { nodes: graph.nodes.map((n): Positioned => ({ ...n })), links: graph.links.map((l) => ({ ...l })) };
  // the same objects the layout moves: their x, y (z) are where the node is now
  const byId = new Map(data.nodes.map((n) => [n.id, n]));
  const placed = (id: string) => {
    const n = byId.get(id);
    return n && n.x !== undefined && n.y !== undefined ? n : null;
  };
  // the spec's 600 × 600, or the screen's width when narrower (a phone): the box's CSS decides, the canvas follows
  const size = Math.min(GRAPH_SIZE, el.clientWidth || GRAPH_SIZE);
  if (dimension === '2d') {
    const { default: ForceGraph } = await import('force-graph');
    const g = new ForceGraph<Positioned>(el)
      .width(size)
      .height(size)
      .dagMode(mode)
      .dagLevelDistance(LEVEL_DISTANCE['2d'])
      .cooldownTime(ANIMATION_MS)
      .nodeId('id')
      .nodeLabel((n) => nodeLabelElement(n.asset_name))
      .nodeColor((n) => nodeColor(n.module))
      .linkDirectionalArrowLength(3)
      // names under the nodes without hovering, when few enough to read (or zoomed in); the hover label stays
      .nodeCanvasObjectMode(() => 'after')
      .nodeCanvasObject((n, ctx, scale) => {
        if (n.x !== undefined && n.y !== undefined && labelsShown(data.nodes.length, scale)) drawNodeLabel(ctx, n.asset_name, n.x, n.y, scale);
      })
      .onNodeClick((n) => onClick(n))
      // every layout (Td and radial ones reach far) ends fitted into the box, with room for the names under the nodes
      .onEngineStop(() => g.zoomToFit(400, labelsShown(data.nodes.length, 1) ? LABEL_FIT_PADDING : 16))
      .graphData(data);
    return {
      dagMode: (m) => void g.dagMode(m).d3ReheatSimulation(),
      focus: (id) => {
        const n = placed(id);
        if (n) g.centerAt(n.x, n.y, 1000).zoom(4, 1000);
        return n !== null;
      },
      dispose: () => g._destructor(),
    };
  }
  const { default: ForceGraph3D } = await import('3d-force-graph');
  const g = new ForceGraph3D(el)
    .width(size)
    .height(size)
    .dagMode(mode)
    .dagLevelDistance(LEVEL_DISTANCE['3d'])
    .cooldownTime(ANIMATION_MS)
    .nodeId('id')
    .nodeLabel((n) => nodeLabelElement((n as Positioned).asset_name))
    .nodeColor((n) => nodeColor((n as Positioned).module))
    .onNodeClick((n) => onClick(n as Positioned))
    .onEngineStop(() => g.zoomToFit(400, 16))
    .graphData(data);
  return {
    dagMode: (m) => void g.dagMode(m).d3ReheatSimulation(),
    focus: (id) => {
      const n = placed(id);
      if (!n) return false;
      const { x = 0, y = 0, z = 0 } = n;
      const ratio = 1 + 120 / Math.max(Math.hypot(x, y, z), 1);
      g.cameraPosition({ x: x * ratio, y: y * ratio, z: z * ratio }, { x, y, z }, 1000);
      return true;
    },
    dispose: () => {
      // the WebGL context is a scarce browser resource: released now, not when the tab is garbage collected
      g._destructor();
      g.renderer().dispose();
      g.renderer().forceContextLoss();
    },
  };
}

interface GraphCanvasProps {
  dimension: GraphDimension;
  graph: InventoryGraph;
  dagMode: DagMode;
  /** Centre on this node when it changes. */
  focusId: string | null;
  onNodeClick: (node: GraphNode) => void;
  onError: (message: string) => void;
}

/** The inventory graph, 600 × 600, in 2D or 3D; the renderer is disposed when the tab or the page is left. */
export function GraphCanvas({ dimension, graph, dagMode, focusId, onNodeClick, onError }: GraphCanvasProps) {
  const el = useRef<HTMLDivElement>(null);
  const renderer = useRef<Renderer | null>(null);
  const latest = useRef({ dagMode, onNodeClick, onError });
  latest.current = { dagMode, onNodeClick, onError };
  const [ready, setReady] = useState(false);

  useEffect(() => {
    let cancelled = false;
    setReady(false);
    createRenderer(dimension, el.current!, graph, latest.current.dagMode, (n) => latest.current.onNodeClick(n)).then(
      (r) => {
        if (cancelled) r.dispose();
        else {
          renderer.current = r;
          setReady(true);
        }
      },
      (err: unknown) => !cancelled && latest.current.onError(err instanceof Error ? err.message : String(err)),
    );
    return () => {
      cancelled = true;
      renderer.current?.dispose();
      renderer.current = null;
      el.current?.replaceChildren();
    };
  }, [dimension, graph]);

  useEffect(() => {
    if (ready) renderer.current?.dagMode(dagMode);
  }, [ready, dagMode]);

  useEffect(() => {
    if (!ready || !focusId) return;
    // a node has no position until the layout's first tick: try again shortly
    let timer = 0;
    const attempt = (left: number) => {
      if (!renderer.current?.focus(focusId) && left > 0) timer = window.setTimeout(() => attempt(left - 1), 100);
    };
    attempt(30);
    return () => window.clearTimeout(timer);
  }, [ready, focusId]);

  return (
    <div
      ref={el}
      className={styles.graph}
      role="img"
      aria-label={`Inventory graph (${dimension.toUpperCase()}), ${graph.nodes.length} assets`}
      data-dimension={dimension}
      data-dag-mode={dagMode}
      data-ready={ready}
    />
  );
}
