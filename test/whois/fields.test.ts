import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fixture } from '../support/fake-upstream.js';
import { whoisFields } from '../../routes/whois/fields.js';

test('a gTLD registry answer: one string per field, repeated fields as arrays, empty values and prose lines left out', () => {
  const fields = whoisFields(fixture('whois.verisign-grs.com', 'example.com.txt') as string);
  assert.equal(fields['Domain Name'], 'EXAMPLE.COM');
  assert.equal(fields['Registrar WHOIS Server'], 'whois.iana.org');
  assert.equal(fields['Registrar URL'], 'http://res-dom.iana.org');
  assert.deepEqual(fields['Name Server'], ['A.IANA-SERVERS.NET', 'B.IANA-SERVERS.NET']);
  assert.equal((fields['Domain Status'] as string[]).length, 3);
  assert.equal(fields['Last update of whois database'], '2026-11-22T23:10:51Z');
  assert.equal('Registrar Abuse Contact Email' in fields, false);
  assert.equal(
    Object.keys(fields).some((key) => key.startsWith('For more information')),
    false,
  );
});

test('an RPSL answer: comments skipped, keys kept as the registry writes them', () => {
  const fields = whoisFields(fixture('whois.ripe.net', '193.0.6.139.txt') as string);
  assert.equal(fields.inetnum, '193.0.0.0 - 193.0.7.255');
  assert.equal(fields['admin-c'], 'BRD-RIPE');
  assert.deepEqual(fields.descr, ['RIPE Network Coordination Centre', 'Amsterdam, Netherlands']);
  assert.equal(
    Object.keys(fields).some((key) => key.startsWith('%')),
    false,
  );
});

test('lines that only look like fields are not: URLs, a "__raw" key, prose without a short label', () => {
  const fields = whoisFields(
    'https://icann.org/epp\n__raw: no\nThis is a long sentence that goes on and on before it reaches a colon: value\nKey: v\r\n',
  );
  assert.deepEqual(fields, { Key: 'v' });
});
