import assert from 'node:assert/strict';
import test from 'node:test';
import {
  hostIn,
  isPrefix,
  isReserved,
  lookupTarget,
  macDigits,
  prefixOf,
  readAsn,
  readDomain,
  readDomainOrIp,
  readMac,
  readPrefix,
} from '../../web/site/src/lib/ip.js';

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
  assert.deepEqual(lookupTarget('http://[2001:4860:4860::8888]:8080/x'), { path: '/ip/2001:4860:4860::8888' });
  assert.deepEqual(lookupTarget('https://1.1.1.1/'), { path: '/ip/1.1.1.1' });
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

test('every form reads a pasted URL as the host it names, and refuses what is not its kind', () => {
  for (const [input, host] of [
    ['https://user:pw@Example.COM:8443/a/b?c=d#e', 'example.com'],
    ['example.com/path', 'example.com'],
    ['www.example.com.', 'www.example.com'],
    ['ftp://files.example.org', 'files.example.org'],
    ['http://[2001:db8::1]/', '2001:db8::1'],
    ['  8.8.8.8  ', '8.8.8.8'],
    ['1.2.3.4/33', ''],
    ['http://', ''],
  ] as const) {
    assert.equal(hostIn(input), host, input);
  }
  assert.equal(readDomain('https://Example.com/x'), 'example.com');
  assert.equal(readDomain('8.8.8.8'), null);
  assert.equal(readDomain('not a domain'), null);
  assert.equal(readDomainOrIp('https://8.8.8.8/'), '8.8.8.8');
  assert.equal(readDomainOrIp('https://example.com/'), 'example.com');
  assert.equal(readDomainOrIp('example'), null);
  assert.equal(readAsn('AS13335'), '13335');
  assert.equal(readAsn('as 0015169'), '15169');
  assert.equal(readAsn('AS4294967296'), null);
  assert.equal(readPrefix(' 8.8.8.0/24 '), '8.8.8.0/24');
  assert.equal(readPrefix('8.8.8.0'), null);
  assert.equal(readMac('00-00-0c-12-34-56'), '00:00:0C:12:34:56');
  assert.equal(readMac('00:00:0C:12:34'), null);
});
