import type { Connectivity, NodeType } from '../../api/types';

export interface PlacedNode {
  asn: number;
  name: string | null;
  type: NodeType;
  x: number;
  y: number;
}
export interface PlacedEdge {
  from: PlacedNode;
  to: PlacedNode;
}
export interface Layout {
  width: number;
  height: number;
  nodes: PlacedNode[];
  edges: PlacedEdge[];
}

export const NODE_WIDTH = 168;
export const NODE_HEIGHT = 44;
const COLUMN_GAP = 64;
const ROW_GAP = 16;
const PAD = 8;

/**
 * Columns left to right: the origin, then each AS by its shortest provider
 * path from the origin, with every Tier-1 pinned to the last column, as the
 * reference frontend draws it. Edges run customer → provider, left to right.
 */
export function layoutGraph(graph: Connectivity): Layout {
  const providers = new Map<number, number[]>();
  for (const edge of graph.edges) providers.set(edge.from, [...(providers.get(edge.from) ?? []), edge.to]);
  const origin = graph.nodes.find((n) => n.type === 'origin' || n.type === 'origin-tier1');
  const depth = new Map<number, number>();
  if (origin) {
    depth.set(origin.asn, 0);
    const queue = [origin.asn];
    while (queue.length) {
      const asn = queue.shift()!;
      for (const next of providers.get(asn) ?? []) {
        if (!depth.has(next)) {
          depth.set(next, depth.get(asn)! + 1);
          queue.push(next);
        }
      }
    }
  }
  const intermediateDepth = Math.max(
    0,
    ...graph.nodes.filter((n) => n.type === 'intermediate').map((n) => depth.get(n.asn) ?? 1),
  );
  const lastColumn = intermediateDepth + 1;
  const columnOf = (type: NodeType, asn: number) =>
    type === 'origin' || type === 'origin-tier1'
      ? 0
      : type === 'tier1'
        ? lastColumn
        : Math.min(depth.get(asn) ?? 1, lastColumn - 1);

  const columns = new Map<number, Connectivity['nodes']>();
  for (const node of graph.nodes) {
    const column = columnOf(node.type, node.asn);
    columns.set(column, [...(columns.get(column) ?? []), node]);
  }
  const used = [...columns.keys()].sort((a, b) => a - b);
  const tallest = Math.max(1, ...[...columns.values()].map((c) => c.length));
  const height = PAD * 2 + tallest * NODE_HEIGHT + (tallest - 1) * ROW_GAP;
  const placed = new Map<number, PlacedNode>();
  used.forEach((column, index) => {
    const members = [...(columns.get(column) ?? [])].sort((a, b) => a.asn - b.asn);
    const block = members.length * NODE_HEIGHT + (members.length - 1) * ROW_GAP;
    members.forEach((node, row) => {
      placed.set(node.asn, {
        asn: node.asn,
        name: node.name,
        type: node.type,
        x: PAD + index * (NODE_WIDTH + COLUMN_GAP),
        y: (height - block) / 2 + row * (NODE_HEIGHT + ROW_GAP),
      });
    });
  });
  const edges = graph.edges.flatMap((edge) => {
    const from = placed.get(edge.from);
    const to = placed.get(edge.to);
    return from && to ? [{ from, to }] : [];
  });
  return {
    width: PAD * 2 + used.length * NODE_WIDTH + Math.max(0, used.length - 1) * COLUMN_GAP,
    height,
    nodes: [...placed.values()],
    edges,
  };
}
