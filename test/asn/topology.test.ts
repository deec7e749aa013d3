import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { parseAsRel, TIER1_MIN_CUSTOMERS } from '../../datasets/asn/graph.js';
import { upstreamTopology, type Topology } from '../../datasets/asn/topology.js';
import { generateAsRel, TIER1 } from '../../bench/gen-as-rel.js';

/** `count` stub customers of `provider`, numbered from `first`. */
function stubs(provider: number, count: number, first: number): string[] {
  return Array.from({ length: count }, (_, i) => `${provider}|${first + i}|-1|bgp`);
}

/** A snapshot whose Tier-1s 1001 and 1002 (peers, no providers) each have TIER1_MIN_CUSTOMERS stub customers, plus `lines`. */
async function graphWith(lines: string[]) {
  const text =
    [
      '1001|1002|0|bgp',
      ...stubs(1001, TIER1_MIN_CUSTOMERS, 500_000),
      ...stubs(1002, TIER1_MIN_CUSTOMERS, 600_000),
      ...lines,
    ].join('\n') + '\n';
  return parseAsRel(Readable.from([text]));
}

const types = (t: Topology) => Object.fromEntries(t.nodes.map((n) => [n.asn, n.type]));
const edges = (t: Topology) => new Set(t.edges.map((e) => `${e.from}>${e.to}`));

test('a Tier-1 buys transit from nobody and sells it to at least 100 ASes', async () => {
  const graph = await graphWith([
    // 2001: provider-free, one customer short of the floor.
    ...stubs(2001, TIER1_MIN_CUSTOMERS - 1, 700_000),
    // 2002: enough customers, but it buys transit from 1001.
    ...stubs(2002, TIER1_MIN_CUSTOMERS, 800_000),
    '1001|2002|-1|bgp',
  ]);
  assert.deepEqual(
    [...graph.tier1].map((i) => graph.asns[i]),
    [1001, 1002],
  );
});

test('every Tier-1 provider gets an edge; of the others, the three with the most customers are followed', async () => {
  const graph = await graphWith([
    // 3000 buys from both Tier-1s and from five transit networks of different sizes.
    '1001|3000|-1|bgp',
    '1002|3000|-1|bgp',
    ...[3001, 3002, 3003, 3004, 3005].map((p) => `${p}|3000|-1|bgp`),
    ...[3001, 3002, 3003, 3004, 3005].map((p) => `1001|${p}|-1|bgp`),
    ...stubs(3001, 2, 900_000),
    ...stubs(3002, 9, 900_100),
    ...stubs(3003, 5, 900_200),
    ...stubs(3004, 9, 900_300),
    ...stubs(3005, 1, 900_400),
  ]);
  const topology = upstreamTopology(graph, 3000);
  assert.deepEqual(types(topology), {
    1001: 'tier1',
    1002: 'tier1',
    3000: 'origin',
    3002: 'intermediate',
    3003: 'intermediate',
    3004: 'intermediate',
  });
  assert.deepEqual(
    edges(topology),
    new Set(['3000>1001', '3000>1002', '3000>3002', '3000>3003', '3000>3004', '3002>1001', '3003>1001', '3004>1001']),
  );
  assert.equal(topology.nodes[0]!.asn, 3000);
});

test('a Tier-1 is reached within three provider hops or the path is pruned, repeatedly, back to the origin', async () => {
  const graph = await graphWith([
    // 4000 → 4001 → 4002 → 1001: the Tier-1 is the third hop.
    '4001|4000|-1|bgp',
    '4002|4001|-1|bgp',
    '1001|4002|-1|bgp',
    // 5000 → 5001 → 5002 → 5003 → 1002: 5003 sits at depth 3 and is not expanded.
    '5001|5000|-1|bgp',
    '5002|5001|-1|bgp',
    '5003|5002|-1|bgp',
    '1002|5003|-1|bgp',
  ]);
  const reached = upstreamTopology(graph, 4000);
  assert.deepEqual(types(reached), { 1001: 'tier1', 4000: 'origin', 4001: 'intermediate', 4002: 'intermediate' });
  assert.deepEqual(edges(reached), new Set(['4000>4001', '4001>4002', '4002>1001']));
  const tooDeep = upstreamTopology(graph, 5000);
  assert.deepEqual(tooDeep, { nodes: [{ asn: 5000, type: 'origin' }], edges: [] });
});

test('a pruned branch keeps the nodes other paths still need; an AS reached twice is one node', async () => {
  const graph = await graphWith([
    // 6000 buys from 6001 and 6002; both buy from 6003, which buys from 1001; 6002 also from 6004, a dead end.
    '6001|6000|-1|bgp',
    '6002|6000|-1|bgp',
    '6003|6001|-1|bgp',
    '6003|6002|-1|bgp',
    '6004|6002|-1|bgp',
    '1001|6003|-1|bgp',
  ]);
  const topology = upstreamTopology(graph, 6000);
  assert.deepEqual(types(topology), {
    1001: 'tier1',
    6000: 'origin',
    6001: 'intermediate',
    6002: 'intermediate',
    6003: 'intermediate',
  });
  assert.deepEqual(edges(topology), new Set(['6000>6001', '6000>6002', '6001>6003', '6002>6003', '6003>1001']));
  assert.equal(topology.edges.length, 5);
});

test('a Tier-1 origin is origin-tier1; an unknown AS gives an empty graph', async () => {
  const graph = await graphWith([]);
  assert.deepEqual(upstreamTopology(graph, 1002), { nodes: [{ asn: 1002, type: 'origin-tier1' }], edges: [] });
  assert.deepEqual(upstreamTopology(graph, 64511), { nodes: [], edges: [] });
});

test("on a generated snapshot the Tier-1s are the generator's large enough ones and every graph keeps to the rules", async () => {
  const { text, asns } = generateAsRel(20_000, 7);
  const graph = await parseAsRel(Readable.from([text]));
  // Every other generated AS buys transit; at this size most of the generator's top networks reach the customer floor.
  const large = TIER1.filter((asn) => graph.customerCounts[graph.indexOf(asn)]! >= TIER1_MIN_CUSTOMERS);
  assert.ok(large.length >= 8, `${large.length} of the generator's Tier-1s have ${TIER1_MIN_CUSTOMERS} customers`);
  assert.deepEqual(
    [...graph.tier1].map((i) => graph.asns[i]).sort((a, b) => a - b),
    [...large].sort((a, b) => a - b),
  );
  let reached = 0;
  let sampled = 0;
  for (const asn of asns.filter((_, i) => i % 97 === 0)) {
    sampled++;
    const topology = upstreamTopology(graph, asn);
    assert.equal(topology.nodes[0]!.asn, asn);
    const types = new Map(topology.nodes.map((n) => [n.asn, n.type]));
    assert.equal(types.size, topology.nodes.length, `AS${asn}: each AS once`);
    const from = new Set(topology.edges.map((e) => e.from));
    for (const e of topology.edges) assert.ok(types.has(e.from) && types.has(e.to), `AS${asn}: edge inside the graph`);
    for (const [n, type] of types) {
      if (type === 'tier1') assert.ok(!from.has(n), `AS${asn}: Tier-1 ${n} not expanded`);
      if (type === 'intermediate') assert.ok(from.has(n), `AS${asn}: intermediate ${n} leads somewhere`);
    }
    assert.ok(topology.nodes.length <= 1 + 3 + 9 + 27 + TIER1.length, `AS${asn}: bounded`);
    if ([...types.values()].includes('tier1')) reached++;
  }
  assert.ok(reached > sampled / 2, `most ASes reach a Tier-1 within three hops (${reached} of ${sampled})`);
});
