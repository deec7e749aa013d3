import assert from 'node:assert/strict';
import test from 'node:test';
import { isPrefix, isReserved, lookupTarget, macDigits, prefixOf } from '../../web/site/src/lib/ip.js';

test('the visitor’s own address counts as reserved when no source can place it', () => {
  for (const ip of [
    '127.0.0.1',
    '10.1.2.3',
    '172.16.0.1',
    '192.168.1.20',
    '100.64.0.1',
    '169.254.1.1',
    '0.0.0.0',
    '224.0.0.1',
    '::1',
    '::',
    'fe80::1',
    'fd00::1',
    'ff02::1',
    '2001:db8::1',
    '::ffff:192.168.1.1',
  ]) {
    assert.equal(isReserved(ip), true, ip);
  }
  for (const ip of [
    '8.8.8.8',
    '1.1.1.1',
    '172.32.0.1',
    '2a01:4f8:c0c:1234::1',
    '2001:4860:4860::8888',
    '::ffff:8.8.8.8',
  ]) {
    assert.equal(isReserved(ip), false, ip);
  }
});

test('an address’s routing prefix is its /24 or /48', () => {
  assert.equal(prefixOf('8.8.8.8'), '8.8.8.0/24');
  assert.equal(prefixOf('2a01:4f8:c0c:1234::1'), '2a01:4f8:c0c::/48');
  assert.equal(prefixOf('2001:db8::1'), '2001:db8:0::/48');
  assert.equal(prefixOf('example.com'), null);
});

test('the lookup box sends each kind of query to its page', () => {
  assert.deepEqual(lookupTarget(' 8.8.8.8 '), { path: '/ip/8.8.8.8' });
  assert.deepEqual(lookupTarget('2001:4860:4860::8888'), { path: '/ip/2001:4860:4860::8888' });
  assert.deepEqual(lookupTarget('AS13335'), { path: '/asn/13335' });
  assert.deepEqual(lookupTarget('as 15169'), { path: '/asn/15169' });
  assert.deepEqual(lookupTarget('1.1.1.0/24'), { path: '/prefix/1.1.1.0/24' });
  assert.deepEqual(lookupTarget('00-00-0c-12-34-56'), { path: '/mac/00:00:0C:12:34:56' });
  assert.deepEqual(lookupTarget('https://Example.COM/path?x=1'), { path: '/whois', query: { q: 'example.com' } });
  for (const nothing of ['', 'hello', '1.2.3.4/33', 'AS99999999999', '300.1.1.1']) {
    assert.equal(lookupTarget(nothing), null, nothing);
  }
});

test('prefixes and MAC addresses are recognised in their usual spellings', () => {
  assert.equal(isPrefix('2a01:4f8::/32'), true);
  assert.equal(isPrefix('8.8.8.8/33'), false);
  assert.equal(isPrefix('8.8.8.8'), false);
  assert.equal(macDigits('0000.0c12.3456'), '00000C123456');
  assert.equal(macDigits('00:00:0C:12:34'), null);
});
