import type { AsGraph } from './graph.js';

/** Bounds of the upstream graph: hops above the queried AS, providers followed per AS, nodes in all. */
export const MAX_DEPTH = 6;
const MAX_PROVIDERS_ORIGIN = 8;
const MAX_PROVIDERS_PER_AS = 3;
export const MAX_NODES = 40;

export interface TopologyNode {
  asn: number;
  /** Fewest provider hops from the queried AS. */
  depth: number;
  tier1: boolean;
}

export interface TopologyEdge {
  /** The customer. */
  from: number;
  /** Its provider, or the other member of a Tier-1 peering. */
  to: number;
  relation: 'provider' | 'peer';
}

export interface Topology {
  found: boolean;
  nodes: TopologyNode[];
  edges: TopologyEdge[];
  /** Some provider was left out by a bound. */
  truncated: boolean;
}

/**
 * Walks provider links breadth-first from `asn` up to the Tier-1 clique. At
 * each AS the providers with the most customers (the likeliest transit toward
 * the core) are followed first, up to MAX_PROVIDERS_ORIGIN for the queried AS
 * and MAX_PROVIDERS_PER_AS above it; Tier-1s are not expanded. Links between
 * ASes already in the graph are always drawn; new ASes stop at MAX_NODES and
 * MAX_DEPTH. Peerings among the Tier-1s reached are added as `peer` edges.
 */
export function upstreamTopology(graph: AsGraph, asn: number): Topology {
  const origin = graph.indexOf(asn);
  if (origin === -1) return { found: false, nodes: [], edges: [], truncated: false };
  const depthOf = new Map<number, number>([[origin, 0]]);
  const edges: TopologyEdge[] = [];
  let truncated = false;
  let frontier = [origin];
  for (let depth = 0; frontier.length > 0; depth++) {
    const next: number[] = [];
    for (const node of frontier) {
      if (graph.isTier1(node)) continue;
      const providers = graph.providersOf(node).sort((a, b) => graph.customerCounts[b]! - graph.customerCounts[a]! || a - b);
      const width = node === origin ? MAX_PROVIDERS_ORIGIN : MAX_PROVIDERS_PER_AS;
      if (providers.length > width) truncated = true;
      for (const p of providers.slice(0, width)) {
        if (!depthOf.has(p)) {
          if (depth + 1 > MAX_DEPTH || depthOf.size >= MAX_NODES) {
            truncated = true;
            continue;
          }
          depthOf.set(p, depth + 1);
          next.push(p);
        }
        edges.push({ from: graph.asns[node]!, to: graph.asns[p]!, relation: 'provider' });
      }
    }
    frontier = next;
  }
  // Clique members peer with one another by construction: no adjacency scan needed.
  const tier1s = [...depthOf.keys()].filter((i) => graph.isTier1(i));
  for (let i = 0; i < tier1s.length; i++) {
    for (let j = i + 1; j < tier1s.length; j++) edges.push({ from: graph.asns[tier1s[i]!]!, to: graph.asns[tier1s[j]!]!, relation: 'peer' });
  }
  const nodes = [...depthOf.entries()].map(([i, depth]) => ({ asn: graph.asns[i]!, depth, tier1: graph.isTier1(i) }));
  return { found: true, nodes, edges, truncated };
}
