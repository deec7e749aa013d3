import assert from 'node:assert/strict';
import test from 'node:test';
import {
  classifyRound,
  commonName,
  distinctEndpoints,
  endpointOf,
  summarize,
  type Round,
} from '../../web/site/src/features/nat/mapping.js';

// Recorded rounds: the server-reflexive candidates Chromium 156 gave for one
// connection asking coturn on two addresses of a namespace behind nftables
// (e2e/stun-server.ts), `snat to 193.0.0.1` (port kept: endpoint-independent)
// and `snat to 193.0.0.1 fully-random` (address-and-port-dependent).
const A = 'stun:198.18.250.2:3478';
const A2 = 'stun:198.18.250.2:3479';
const B = 'stun:198.18.250.3:3478';
const TWO_ADDRESSES = [A, B];
const THREE = [A, A2, B];

const none = { ipv4: [], ipv6: [] };
const round = (partial: Partial<Round>): Round => ({ shared: [], answered: none, publicHosts: [], ...partial });
const ipv4 = (...urls: string[]) => ({ ipv4: urls, ipv6: [] });

test('one mapping for servers on two addresses: endpoint-independent (the browser drops the second, identical candidate)', () => {
  const r = round({
    shared: [{ address: '193.0.0.1', port: 33070, base: '1672234444', url: B }],
    answered: ipv4(A, B),
  });
  assert.equal(classifyRound(TWO_ADDRESSES, r, 'ipv4'), 'endpoint-independent');
  assert.equal(classifyRound(THREE, { ...r, answered: ipv4(A, A2, B) }, 'ipv4'), 'endpoint-independent');
});

test('one mapping from one address on two ports cannot tell endpoint-independent from address-dependent', () => {
  const r = round({ shared: [{ address: '193.0.0.1', port: 33070, base: 'f', url: A }], answered: ipv4(A, A2) });
  assert.equal(classifyRound([A, A2], r, 'ipv4'), 'endpoint-or-address-dependent');
  assert.equal(commonName('endpoint-or-address-dependent'), 'cone-or-symmetric');
});

test('a mapping per server, two on one address: address-and-port-dependent', () => {
  const shared = [
    { address: '193.0.0.1', port: 54695, base: '3366539707', url: A },
    { address: '193.0.0.1', port: 2657, base: '3366539707', url: A2 },
    { address: '193.0.0.1', port: 40001, base: '3366539707', url: B },
  ];
  assert.equal(classifyRound(THREE, round({ shared, answered: ipv4(A, A2, B) }), 'ipv4'), 'address-and-port-dependent');
  // Without the servers' names the count says it: three mappings from two addresses.
  const unnamed = shared.map(({ address, port, base }) => ({ address, port, base }));
  assert.equal(
    classifyRound(THREE, round({ shared: unnamed, answered: ipv4(A, A2, B) }), 'ipv4'),
    'address-and-port-dependent',
  );
  assert.equal(commonName('address-and-port-dependent'), 'symmetric');
});

test('two ports of one address named with different mappings: address-and-port-dependent even when a third server agrees', () => {
  const shared = [
    { address: '193.0.0.1', port: 1000, base: 'f', url: A },
    { address: '193.0.0.1', port: 2000, base: 'f', url: A2 },
  ];
  assert.equal(classifyRound(THREE, round({ shared, answered: ipv4(A, A2, B) }), 'ipv4'), 'address-and-port-dependent');
});

test('a mapping per address, the second port leaving no candidate of its own: address-dependent', () => {
  const shared = [
    { address: '193.0.0.1', port: 1000, base: 'f', url: A },
    { address: '193.0.0.1', port: 2000, base: 'f', url: B },
  ];
  assert.equal(classifyRound(THREE, round({ shared, answered: ipv4(A, A2, B) }), 'ipv4'), 'address-dependent');
});

test('two addresses, one port each, two mappings: address-dependent or address-and-port-dependent', () => {
  const shared = [
    { address: '193.0.0.1', port: 1000, base: 'f', url: A },
    { address: '193.0.0.1', port: 2000, base: 'f', url: B },
  ];
  assert.equal(
    classifyRound(TWO_ADDRESSES, round({ shared, answered: ipv4(A, B) }), 'ipv4'),
    'address-or-port-dependent',
  );
});

test('a server that does not answer leaves one answering: not determined, whatever the mapping', () => {
  const r = round({ shared: [{ address: '193.0.0.1', port: 1000, base: 'f', url: A }], answered: ipv4(A) });
  assert.equal(classifyRound(TWO_ADDRESSES, r, 'ipv4'), 'one-answered');
});

test('a candidate naming its server counts as its answer, should its lone ask be lost', () => {
  const shared = [
    { address: '193.0.0.1', port: 1000, base: 'f', url: A },
    { address: '193.0.0.1', port: 2000, base: 'f', url: B },
  ];
  assert.equal(classifyRound(TWO_ADDRESSES, round({ shared, answered: ipv4(A) }), 'ipv4'), 'address-or-port-dependent');
});

test('only host candidates: no answer; a public host address and no mapping: no NAT', () => {
  assert.equal(classifyRound(TWO_ADDRESSES, round({ answered: ipv4() }), 'ipv4'), 'no-answer');
  assert.equal(classifyRound(TWO_ADDRESSES, round({ publicHosts: ['192.168.1.2'] }), 'ipv6'), 'no-answer');
  assert.equal(classifyRound(TWO_ADDRESSES, round({ publicHosts: ['2001:db8::5'] }), 'ipv6'), 'no-nat');
  assert.equal(commonName('no-nat'), 'open');
});

test('fewer than two distinct servers listed: not determined, whatever came back; WebRTC switched off: unavailable', () => {
  const r = round({ shared: [{ address: '193.0.0.1', port: 1, base: 'f', url: A }], answered: ipv4(A) });
  assert.equal(classifyRound([A], r, 'ipv4'), 'few-servers');
  assert.equal(classifyRound([A, A, 'stun:198.18.250.2'], r, 'ipv4'), 'few-servers');
  assert.equal(classifyRound(TWO_ADDRESSES, round({ unavailable: true }), 'ipv4'), 'unavailable');
});

test('IPv6 is classified on its own: an IPv6 mapping does not count for IPv4, and the reverse', () => {
  const V6A = 'stun:[2001:db8::1]:3478';
  const V6B = 'stun:[2001:db8::2]:3478';
  const urls = [A, B, V6A, V6B];
  const r = round({
    shared: [
      { address: '2001:db8:ffff::10', port: 5000, base: 'v6' },
      { address: '2001:db8:ffff::10', port: 5001, base: 'v6' },
      { address: '193.0.0.1', port: 1000, base: 'v4' },
    ],
    answered: { ipv4: [A, B], ipv6: [V6A, V6B] },
  });
  assert.equal(classifyRound(urls, r, 'ipv4'), 'endpoint-independent');
  assert.equal(classifyRound(urls, r, 'ipv6'), 'address-or-port-dependent');
  const [v4, v6] = summarize(urls, [r, r]);
  assert.deepEqual(v4, {
    family: 'ipv4',
    answer: 'endpoint-independent',
    agreeing: 2,
    rounds: 2,
    answers: ['endpoint-independent', 'endpoint-independent'],
  });
  assert.equal(v6?.answer, 'address-or-port-dependent');
});

test('a second interface (another base) is its own group: the one with most mappings decides', () => {
  const shared = [
    { address: '193.0.0.1', port: 1000, base: 'wifi', url: A },
    { address: '193.0.0.9', port: 7000, base: 'wired', url: A },
    { address: '193.0.0.9', port: 7001, base: 'wired', url: B },
  ];
  assert.equal(
    classifyRound(TWO_ADDRESSES, round({ shared, answered: ipv4(A, B) }), 'ipv4'),
    'address-or-port-dependent',
  );
});

test('the rounds agreeing are counted, a flip is kept, and only IPv4 is reported when nothing of IPv6 came', () => {
  const same = round({ shared: [{ address: '193.0.0.1', port: 1000, base: 'f' }], answered: ipv4(A, B) });
  const flipped = round({
    shared: [
      { address: '193.0.0.1', port: 1000, base: 'f' },
      { address: '193.0.0.1', port: 1001, base: 'f' },
    ],
    answered: ipv4(A, B),
  });
  const summary = summarize(TWO_ADDRESSES, [same, same, flipped, same, same]);
  assert.equal(summary.length, 1);
  assert.deepEqual(summary[0], {
    family: 'ipv4',
    answer: 'endpoint-independent',
    agreeing: 4,
    rounds: 5,
    answers: [
      'endpoint-independent',
      'endpoint-independent',
      'address-or-port-dependent',
      'endpoint-independent',
      'endpoint-independent',
    ],
  });
  // An even split leads with the more cautious answer.
  assert.equal(summarize(TWO_ADDRESSES, [same, flipped])[0]?.answer, 'address-or-port-dependent');
});

test('STUN URLs: the default port, IPv6 literals, names and what is no STUN server', () => {
  assert.deepEqual(endpointOf('stun:stun.l.google.com:19302'), {
    url: 'stun:stun.l.google.com:19302',
    host: 'stun.l.google.com',
    port: 19302,
  });
  assert.deepEqual(endpointOf('stun:198.18.0.2'), { url: 'stun:198.18.0.2', host: '198.18.0.2', port: 3478 });
  assert.equal(endpointOf('stun:[2001:db8::1]:3478')?.host, '2001:db8::1');
  for (const bad of ['turn:example.com', 'stun:', 'stun:a:0', 'stun:a:70000', 'https://example.com', 'stun:a/b']) {
    assert.equal(endpointOf(bad), null, bad);
  }
  assert.equal(distinctEndpoints([A, 'stun:198.18.250.2', B, 'stun:198.18.250.3:3478']).length, 2);
});
