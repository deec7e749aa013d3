import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isPublicIp } from '../../lib/network/public-address.js';

// One address inside each block of IANA's special-purpose registries, with the block's "Globally
// Reachable" column: true is public; false and N/A are not.
const REGISTRY: Array<[address: string, block: string, globallyReachable: boolean | 'N/A']> = [
  ['0.1.2.3', '0.0.0.0/8', false],
  ['0.0.0.0', '0.0.0.0/32', false],
  ['10.1.2.3', '10.0.0.0/8', false],
  ['100.64.0.1', '100.64.0.0/10', false],
  ['127.0.0.1', '127.0.0.0/8', false],
  ['169.254.10.10', '169.254.0.0/16', false],
  ['172.16.5.4', '172.16.0.0/12', false],
  ['192.0.0.100', '192.0.0.0/24', false],
  ['192.0.0.1', '192.0.0.0/29', false],
  ['192.0.0.8', '192.0.0.8/32', false],
  ['192.0.0.9', '192.0.0.9/32', true],
  ['192.0.0.10', '192.0.0.10/32', true],
  ['192.0.0.170', '192.0.0.170/32', false],
  ['192.0.0.171', '192.0.0.171/32', false],
  ['192.0.2.1', '192.0.2.0/24', false],
  ['192.31.196.1', '192.31.196.0/24', true],
  ['192.52.193.1', '192.52.193.0/24', true],
  ['192.88.99.1', '192.88.99.0/24', 'N/A'],
  ['192.168.1.1', '192.168.0.0/16', false],
  ['192.175.48.1', '192.175.48.0/24', true],
  ['198.18.0.1', '198.18.0.0/15', false],
  ['198.51.100.7', '198.51.100.0/24', false],
  ['203.0.113.9', '203.0.113.0/24', false],
  ['240.0.0.1', '240.0.0.0/4', false],
  ['255.255.255.255', '255.255.255.255/32', false],
  ['::1', '::1/128', false],
  ['::', '::/128', false],
  ['::ffff:8.8.8.8', '::ffff:0:0/96', false],
  ['64:ff9b::808:808', '64:ff9b::/96', true],
  ['64:ff9b:1::1', '64:ff9b:1::/48', false],
  ['100::1', '100::/64', false],
  ['100:0:0:1::1', '100:0:0:1::/64', false],
  ['2001:5::1', '2001::/23', false],
  ['2001:0:4136:e378:8000:63bf:3fff:fdd2', '2001::/32', 'N/A'],
  ['2001:1::1', '2001:1::1/128', true],
  ['2001:1::2', '2001:1::2/128', true],
  ['2001:1::3', '2001:1::3/128', true],
  ['2001:1::4', '2001::/23 (around 2001:1::1/128)', false],
  ['2001:2::1', '2001:2::/48', false],
  ['2001:3::1', '2001:3::/32', true],
  ['2001:4:112::1', '2001:4:112::/48', true],
  ['2001:10::1', '2001:10::/28', 'N/A'],
  ['2001:20::1', '2001:20::/28', true],
  ['2001:30::1', '2001:30::/28', true],
  ['2001:db8::1', '2001:db8::/32', false],
  ['2002:808:808::1', '2002::/16', 'N/A'],
  ['2620:4f:8000::1', '2620:4f:8000::/48', true],
  ['3fff::1', '3fff::/20', false],
  ['5f00::1', '5f00::/16', false],
  ['fd12:3456:789a::1', 'fc00::/7', false],
  ['fe80::1', 'fe80::/10', false],
];

test('every block of the special-purpose registries: public exactly where it is globally reachable', () => {
  for (const [address, block, reachable] of REGISTRY) {
    assert.equal(isPublicIp(address), reachable === true, `${address} in ${block} (globally reachable: ${reachable})`);
  }
});

test('outside the registries: ordinary unicast is public; multicast and unassigned IPv6 space are not', () => {
  for (const address of ['8.8.8.8', '1.1.1.1', '193.0.6.139', '2606:4700:4700::1111', '2a01:4f8:c0c:1234::1']) {
    assert.equal(isPublicIp(address), true, address);
  }
  for (const address of ['224.0.0.1', '239.255.255.250', 'ff02::1', 'ff0e::1', '::8.8.8.8', '4000::1', 'e000::1']) {
    assert.equal(isPublicIp(address), false, address);
  }
});
