import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fromDoh, fromNode, tokens } from '../../routes/dnsresolver/normalise.js';

test('addresses take their canonical form from either kind', () => {
  assert.equal(fromDoh('AAAA', '2606:2800:021f:cb07:6820:80da:af6b:8b2c'), '2606:2800:21f:cb07:6820:80da:af6b:8b2c');
  assert.equal(fromDoh('AAAA', '2001:DB8:0:0:0:0:0:1'), '2001:db8::1');
  assert.deepEqual(fromNode('AAAA', [{ address: '2001:db8::1', ttl: 5 }]), ['2001:db8::1']);
  assert.equal(fromDoh('A', '93.184.215.14'), '93.184.215.14');
});

test('names lose the trailing dot and their case', () => {
  assert.equal(fromDoh('CNAME', 'Www.Example.ORG.'), 'www.example.org');
  assert.deepEqual(fromNode('NS', ['A.IANA-SERVERS.NET']), ['a.iana-servers.net']);
  assert.equal(fromDoh('PTR', 'dns.google.'), 'dns.google');
  assert.equal(fromDoh('MX', '0 .'), '0 .');
});

test('SRV and NAPTR read the same from node:dns objects and DoH data', () => {
  assert.equal(fromDoh('SRV', '10 60 5060 bigbox.example.com.'), '10 60 5060 bigbox.example.com');
  assert.deepEqual(fromNode('SRV', [{ priority: 10, weight: 60, port: 5060, name: 'bigbox.example.com' }]), ['10 60 5060 bigbox.example.com']);
  const naptr = '100 10 "S" "SIP+D2U" "" _sip._udp.example.com.';
  const expected = '100 10 "S" "SIP+D2U" "" _sip._udp.example.com';
  assert.equal(fromDoh('NAPTR', naptr), expected);
  assert.deepEqual(
    fromNode('NAPTR', [{ order: 100, preference: 10, flags: 'S', service: 'SIP+D2U', regexp: '', replacement: '_sip._udp.example.com' }]),
    [expected],
  );
});

test('CAA from node:dns, DoH text and RFC 3597 hex agree', () => {
  const expected = '0 issue "letsencrypt.org"';
  assert.deepEqual(fromNode('CAA', [{ critical: 0, issue: 'letsencrypt.org' }]), [expected]);
  assert.equal(fromDoh('CAA', '0 issue "letsencrypt.org"'), expected);
  assert.equal(fromDoh('CAA', '\\# 22 00 05 69 73 73 75 65 6c 65 74 73 65 6e 63 72 79 70 74 2e 6f 72 67'), expected);
});

test('TXT joins its character-strings and unescapes quotes', () => {
  assert.equal(fromDoh('TXT', '"v=DKIM1; k=rsa; " "p=MIGf"'), 'v=DKIM1; k=rsa; p=MIGf');
  assert.equal(fromDoh('TXT', 'plain text from dns.google'), 'plain text from dns.google');
  assert.deepEqual(tokens('"say \\"hi\\"" x'), ['say "hi"', 'x']);
  assert.deepEqual(fromNode('TXT', [['a', 'b'], ['c']]), ['ab', 'c']);
});
