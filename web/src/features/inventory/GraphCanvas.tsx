import { useEffect, useRef, useState } from 'react';
import type { GraphNode, InventoryGraph } from '@cc/shared/schemas/inventory.ts';
import { ANIMATION_MS, GRAPH_SIZE, LABEL_FIT_PADDING, LABELLED_NODES_MAX, LEVEL_DISTANCE, LabelPlacer, NEAREST_LABELS, drawNodeLabel, labelsShown, nodeColor, nodeLabelElement, prominentNodes, type DagMode, type GraphDimension } from './graph-view.ts';
import { startLabelLayer, type Point } from './label-layer.ts';
import styles from './inventory.module.css';
import { markDrawn } from '../../common/drawn.ts';

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
  // the libraries add x, y (z) to the objects they are given: copies keep the query cache untouched; nodes are drawn
  // in this order, the root first, so when names would collide the upper levels keep theirs
  const nodes = graph.nodes.map((n): Positioned => ({ ...n })).sort((a, b) => a.level - b.level);
  const data = { nodes, links: graph.links.map((l) => ({ ...l })) };
  // the same objects the layout moves: their x, y (z) are where the node is now
  const byId = new Map(data.nodes.map((n) => [n.id, n]));
  const placed = (id: string) => {
    const n = byId.get(id);
    return n && n.x !== undefined && n.y !== undefined ? n : null;
  };
  // the spec's 600 × 600, or the screen's width when narrower (a phone): the box's CSS decides, the canvas follows
  const size = Math.min(GRAPH_SIZE, el.clientWidth || GRAPH_SIZE);
  // names shown without hovering: all of a small graph, the hubs of a large one (more once zoomed in)
  const prominent = prominentNodes(graph);
  if (dimension === '2d') {
    const { default: ForceGraph } = await import('force-graph');
    const placer = new LabelPlacer();
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
      // names under the nodes without hovering (every one once zoomed in); the hover label stays
      .nodeCanvasObjectMode(() => 'after')
      .onRenderFramePre(() => placer.reset())
      .nodeCanvasObject((n, ctx, scale) => {
        if (n.x !== undefined && n.y !== undefined && (prominent.has(n.id) || labelsShown(data.nodes.length, scale))) drawNodeLabel(ctx, n.asset_name, n.x, n.y, scale, placer);
      })
      .onNodeClick((n) => onClick(n))
      // every layout (Td and radial ones reach far) ends fitted into the box, with room for the names under the nodes
      .onEngineStop(() => g.zoomToFit(400, LABEL_FIT_PADDING))
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
    .onEngineStop(() => g.zoomToFit(400, LABEL_FIT_PADDING))
    .graphData(data);
  // three's camera, typed by what is used of it (the web app does not depend on three's types)
  const camera = g.camera() as unknown as { position: Point & { clone(): Point }; getWorldDirection(into: Point): Point };
  const stopLabels = startLabelLayer({
    el,
    nodes: data.nodes,
    always: prominent,
    nearest: data.nodes.length > LABELLED_NODES_MAX ? NEAREST_LABELS : 0,
    viewpoint: () => ({
      camera: camera.position,
      forward: camera.getWorldDirection(camera.position.clone()),
      toScreen: (p) => g.graph2ScreenCoords(p.x, p.y, p.z),
    }),
  });
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
      stopLabels();
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
          // the frame after the one the nodes were first drawn in
          requestAnimationFrame(() => requestAnimationFrame(() => markDrawn('inventory-graph')));
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
