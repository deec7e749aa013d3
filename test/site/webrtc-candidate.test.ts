import assert from 'node:assert/strict';
import test from 'node:test';
import { isMdnsName, parseCandidate } from '../../web/site/src/features/webrtc/candidate.js';

test('a candidate line gives its type, address, port and transport, read by position', () => {
  // As Chromium hands them over (recorded against coturn).
  assert.deepEqual(
    parseCandidate(
      'candidate:1874004038 1 udp 1677729535 9.9.9.9 37008 typ srflx raddr 0.0.0.0 rport 0 generation 0 ufrag 6sEX network-cost 999',
    ),
    { type: 'srflx', address: '9.9.9.9', port: 37008, protocol: 'udp' },
  );
  assert.deepEqual(
    parseCandidate(
      'candidate:4057908818 1 udp 2113937151 b3672211-d82a-4335-b23d-fcae9d5a318b.local 37008 typ host generation 0',
    ),
    { type: 'host', address: 'b3672211-d82a-4335-b23d-fcae9d5a318b.local', port: 37008, protocol: 'udp' },
  );
  assert.deepEqual(parseCandidate('a=candidate:1 1 UDP 1 2001:db8::5 9 typ prflx'), {
    type: 'prflx',
    address: '2001:db8::5',
    port: 9,
    protocol: 'udp',
  });
  assert.deepEqual(parseCandidate('candidate:2 1 tcp 1 192.168.1.4 9 typ host tcptype active'), {
    type: 'host',
    address: '192.168.1.4',
    port: 9,
    protocol: 'tcp',
  });
});

test("the related address (raddr) never stands in for the candidate's own", () => {
  assert.equal(
    parseCandidate('candidate:1 1 udp 1 203.0.113.7 5000 typ srflx raddr 192.168.1.4 rport 5000')?.address,
    '203.0.113.7',
  );
});

test('anything but a well-formed candidate is null', () => {
  for (const line of [
    '',
    'end-of-candidates',
    'candidate:1 1 udp 1 9.9.9.9 5000 typ unknowntype',
    'candidate:1 1 udp 1 9.9.9.9 5000 kind srflx',
    'candidate:1 1 sctp 1 9.9.9.9 5000 typ host',
    'candidate:1 1 udp 1 not-an-address 5000 typ host',
    'candidate:1 1 udp 1 999.1.1.1 5000 typ srflx',
    'candidate:1 1 udp 1 9.9.9.9 70000 typ srflx',
    'foundation 1 udp 1 9.9.9.9 5000 typ srflx',
  ]) {
    assert.equal(parseCandidate(line), null, line);
  }
});

test('a .local name is a hidden local address, an IP is not', () => {
  assert.ok(isMdnsName('b3672211-d82a-4335-b23d-fcae9d5a318b.local'));
  assert.ok(!isMdnsName('192.168.1.4'));
  assert.ok(!isMdnsName('example.com'));
});
