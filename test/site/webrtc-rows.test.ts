import assert from 'node:assert/strict';
import test from 'node:test';
import { liveRow, storedRow } from '../../web/site/src/features/webrtc/rows.js';
import type { PlaceState } from '../../web/site/src/features/webrtc/locate.js';

const URL = 'stun:stun.example.net:3478';
const nl: PlaceState = { status: 'done', place: { countryCode: 'NL', org: 'RIPE NCC' } };

test('a row before the test, while asked, and for each way a server gives no address', () => {
  const none = new Map<string, PlaceState>();
  assert.equal(liveRow(URL, null, false, none, null).state, 'notAsked');
  assert.equal(liveRow(URL, null, true, none, null).state, 'waiting');
  for (const reason of ['timeout', 'noAnswer', 'failed'] as const) {
    const row = liveRow(URL, { url: URL, outcome: { status: 'error', reason }, hosts: [] }, true, none, '8.8.8.8');
    assert.deepEqual(row, { url: URL, state: reason, place: null, seenBySite: null });
  }
  assert.equal(
    liveRow(URL, { url: URL, outcome: { status: 'unavailable' }, hosts: [] }, true, none, null).state,
    'unavailable',
  );
});

test("a found address carries its place and whether it is the site's, however IPv6 is spelt", () => {
  const places = new Map([['2001:4860:4860::8888', nl]]);
  const result = {
    url: URL,
    outcome: { status: 'found', type: 'srflx', ip: '2001:4860:4860:0:0:0:0:8888' } as const,
    hosts: [],
  };
  assert.deepEqual(liveRow(URL, result, true, places, '2001:4860:4860::8888'), {
    url: URL,
    state: 'found',
    ip: '2001:4860:4860::8888',
    natType: 'srflx',
    place: nl,
    seenBySite: true,
  });
  assert.equal(liveRow(URL, result, true, places, '8.8.8.8').seenBySite, false);
  assert.equal(liveRow(URL, result, true, places, null).seenBySite, null, 'not compared before the site answered');
});

test("a shared report's row: its place when it has one, never a comparison", () => {
  assert.deepEqual(
    storedRow({ id: 'a', url: URL, ip: '193.0.0.1', natType: 'srflx', countryCode: 'NL', org: 'RIPE NCC' }),
    { url: URL, state: 'found', ip: '193.0.0.1', natType: 'srflx', place: nl, seenBySite: null },
  );
  assert.equal(storedRow({ id: 'a', url: URL, ip: '193.0.0.x', natType: 'prflx' }).place, null);
  assert.equal(storedRow({ id: 'a', url: URL, natType: 'error' }).state, 'error');
  assert.equal(storedRow({ id: 'a', url: URL, natType: 'unavailable' }).state, 'unavailable');
  // A report made elsewhere may hold a type this site never produces.
  assert.equal(storedRow({ id: 'a', url: URL, ip: '193.0.0.1', natType: 'relay' }).natType, 'relay');
});
