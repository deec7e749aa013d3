import type { AsGraph } from './graph.js';

/** Provider hops walked from the queried AS; an AS first reached at this depth is not expanded. */
export const MAX_DEPTH = 3;
/** Non-Tier-1 providers followed per AS, those with the most customers first. */
export const MAX_INTERMEDIATES = 3;

export type NodeType = 'origin' | 'origin-tier1' | 'tier1' | 'intermediate';

export interface TopologyNode {
  asn: number;
  type: NodeType;
}

/** A transit link: `from` buys transit from `to`. */
export interface TopologyEdge {
  from: number;
  to: number;
}

export interface Topology {
  nodes: TopologyNode[];
  edges: TopologyEdge[];
}

const EMPTY: Topology = { nodes: [], edges: [] };

/**
 * The upstream graph of `asn` toward the Tier-1s, walked layer by layer up
 * provider links. At each AS every Tier-1 provider gets an edge (a Tier-1 is
 * never expanded), and up to MAX_INTERMEDIATES other providers, ranked by
 * customer count (then by ASN, so answers are stable), are followed to the
 * next layer. Intermediates left without an outgoing edge (dead ends, or
 * reached at MAX_DEPTH) are then pruned until none is left, so every
 * intermediate shown lies on a path to a Tier-1. An AS missing from the
 * snapshot gives an empty graph.
 */
export function upstreamTopology(graph: AsGraph, asn: number): Topology {
  const origin = graph.indexOf(asn);
  if (origin === -1) return EMPTY;
  // Graph indices, in the order they join; `type` per index.
  const order: number[] = [origin];
  const typeOf = new Map<number, NodeType>([[origin, graph.isTier1(origin) ? 'origin-tier1' : 'origin']]);
  const edgeFrom: number[] = [];
  const edgeTo: number[] = [];
  const seenEdges = new Set<number>();
  const addEdge = (from: number, to: number) => {
    // Indices stay below 2^20 (graph.ts), so the pair packs into one safe integer.
    const key = from * 0x100000 + to;
    if (seenEdges.has(key)) return;
    seenEdges.add(key);
    edgeFrom.push(from);
    edgeTo.push(to);
  };

  let layer = [origin];
  for (let depth = 0; depth < MAX_DEPTH && layer.length > 0; depth++) {
    const next: number[] = [];
    for (const node of layer) {
      const providers = graph.providersOf(node);
      const intermediates: number[] = [];
      for (const p of providers) {
        if (graph.isTier1(p)) {
          addEdge(node, p);
          if (!typeOf.has(p)) {
            typeOf.set(p, 'tier1');
            order.push(p);
          }
        } else {
          intermediates.push(p);
        }
      }
      if (intermediates.length > MAX_INTERMEDIATES) {
        intermediates.sort(
          (a, b) => graph.customerCounts[b]! - graph.customerCounts[a]! || graph.asns[a]! - graph.asns[b]!,
        );
        intermediates.length = MAX_INTERMEDIATES;
      }
      for (const p of intermediates) {
        addEdge(node, p);
        if (!typeOf.has(p)) {
          typeOf.set(p, 'intermediate');
          order.push(p);
          next.push(p);
        }
      }
    }
    layer = next;
  }

  const kept = pruneDeadEnds(order, typeOf, edgeFrom, edgeTo);
  const nodes: TopologyNode[] = [];
  for (const i of order) if (kept.has(i)) nodes.push({ asn: graph.asns[i]!, type: typeOf.get(i)! });
  const edges: TopologyEdge[] = [];
  for (let e = 0; e < edgeFrom.length; e++) {
    if (kept.has(edgeFrom[e]!) && kept.has(edgeTo[e]!)) {
      edges.push({ from: graph.asns[edgeFrom[e]!]!, to: graph.asns[edgeTo[e]!]! });
    }
  }
  return { nodes, edges };
}

/** The nodes left once intermediates without an outgoing edge to a kept node are removed, repeatedly. */
function pruneDeadEnds(
  order: number[],
  typeOf: Map<number, NodeType>,
  edgeFrom: number[],
  edgeTo: number[],
): Set<number> {
  const kept = new Set(order);
  for (let removed = true; removed;) {
    removed = false;
    const hasOutgoing = new Set<number>();
    for (let e = 0; e < edgeFrom.length; e++) if (kept.has(edgeTo[e]!)) hasOutgoing.add(edgeFrom[e]!);
    for (const i of kept) {
      if (typeOf.get(i) === 'intermediate' && !hasOutgoing.has(i)) {
        kept.delete(i);
        removed = true;
      }
    }
  }
  return kept;
}
