import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { AsnProfile, Connectivity } from '../../contract/asn.js';
import { drawnUpstreams, neighbourCounts, snapshotDay } from '../../web/site/src/features/asn/neighbours.js';

// AS15169 as the demo answered it: Radar counted no upstream and one peer, the snapshot draws two upstreams.
const PROFILE: AsnProfile = {
  prefixes: null,
  relationships: { upstreams: 0, downstreams: 0, peers: 1, source: 'radar' },
  speed: null,
  missing: [],
};
const GRAPH: Connectivity = {
  origin: 15169,
  nodes: [
    { asn: 15169, type: 'origin', name: 'Google LLC' },
    { asn: 3356, type: 'tier1', name: null },
    { asn: 6453, type: 'intermediate', name: null },
    { asn: 1299, type: 'tier1', name: null },
  ],
  edges: [
    { from: 15169, to: 3356 },
    { from: 15169, to: 6453 },
    { from: 6453, to: 1299 },
  ],
  relationships: { upstreams: 2, downstreams: 0, peers: 1 },
  snapshot: '2026-11-01',
};

test('the counts come from the snapshot the graph is drawn from, not from Radar, when the AS is in it', () => {
  const counts = neighbourCounts(PROFILE, GRAPH);
  assert.deepEqual(counts, { upstreams: 2, downstreams: 0, peers: 1, source: 'local' });
  assert.equal(counts?.upstreams, drawnUpstreams(GRAPH), 'as many upstreams as the graph draws from the origin');
});

test("the profile's counts stand where the snapshot has no such AS, or the server none", () => {
  const absent = { ...GRAPH, nodes: [], edges: [], relationships: null };
  assert.deepEqual(neighbourCounts(PROFILE, absent), PROFILE.relationships);
  assert.deepEqual(neighbourCounts(PROFILE, { ...absent, snapshot: null }), PROFILE.relationships);
  assert.deepEqual(neighbourCounts(PROFILE, null), PROFILE.relationships);
  assert.equal(neighbourCounts(null, null), null);
});

test('an upstream drawn is counted once, whatever else the graph draws above it', () => {
  assert.equal(drawnUpstreams(GRAPH), 2);
  assert.equal(drawnUpstreams({ ...GRAPH, nodes: [GRAPH.nodes[0]!], edges: [] }), 0);
});

test("the snapshot's day is written in the page's language, the day it names whatever the time zone", () => {
  assert.equal(snapshotDay('2026-11-01', 'en'), 'November 1, 2026');
  assert.equal(snapshotDay('2026-11-01', 'fr'), '1 novembre 2026');
});
