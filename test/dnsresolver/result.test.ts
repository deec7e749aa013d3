import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { DnsRecordType } from '../../schemas/guards.js';
import {
  dohResult as dohAnswer,
  plainNothing,
  plainResult as plainAnswer,
  txtText,
} from '../../routes/dnsresolver/result.js';

// What the row's `result` reads; what it means (`status`) has its own tests below.
const plainResult = (type: DnsRecordType, records: unknown) => plainAnswer(type, records).result;
const dohResult = (body: unknown, type: DnsRecordType) => dohAnswer(body, type).result;

test('plain DNS: addresses and names as node:dns gives them; nothing is "N/A"', () => {
  assert.deepEqual(plainResult('A', ['93.184.215.14']), ['93.184.215.14']);
  assert.deepEqual(plainResult('AAAA', ['2606:2800:21f:cb07:6820:80da:af6b:8b2c']), [
    '2606:2800:21f:cb07:6820:80da:af6b:8b2c',
  ]);
  assert.deepEqual(plainResult('NS', ['a.iana-servers.net', 'b.iana-servers.net']), [
    'a.iana-servers.net',
    'b.iana-servers.net',
  ]);
  assert.deepEqual(plainResult('CNAME', ['example.org']), ['example.org']);
  assert.equal(plainResult('A', []), 'N/A');
  assert.equal(plainResult('TXT', []), 'N/A');
});

test('plain DNS: one TXT entry per record, its character-strings joined; MX as one string, a null MX as "0 ."', () => {
  assert.deepEqual(plainResult('TXT', [['v=spf1 -all'], ['google-site-', 'verification=abc123']]), [
    'v=spf1 -all',
    'google-site-verification=abc123',
  ]);
  assert.equal(
    plainResult('MX', [
      { priority: 10, exchange: 'mx1.example.com' },
      { priority: 20, exchange: 'mx2.example.com' },
    ]),
    '10 mx1.example.com., 20 mx2.example.com.',
  );
  assert.equal(plainResult('MX', [{ priority: 0, exchange: '' }]), '0 .');
});

test('plain DNS: SOA, SRV, CAA and NAPTR in zone-file form, as DoH resolvers write their data', () => {
  assert.deepEqual(
    plainResult('SOA', {
      nsname: 'ns.icann.org',
      hostmaster: 'noc.dns.icann.org',
      serial: 2024081464,
      refresh: 7200,
      retry: 3600,
      expire: 1209600,
      minttl: 3600,
    }),
    ['ns.icann.org. noc.dns.icann.org. 2024081464 7200 3600 1209600 3600'],
  );
  assert.deepEqual(plainResult('SRV', [{ priority: 10, weight: 60, port: 5060, name: 'bigbox.example.com' }]), [
    '10 60 5060 bigbox.example.com.',
  ]);
  assert.deepEqual(plainResult('CAA', [{ critical: 0, issue: 'letsencrypt.org' }]), ['0 issue "letsencrypt.org"']);
  assert.deepEqual(
    plainResult('NAPTR', [
      { order: 100, preference: 10, flags: 'S', service: 'SIP+D2U', regexp: '', replacement: '_sip._udp.example.com' },
    ]),
    ['100 10 "S" "SIP+D2U" "" _sip._udp.example.com.'],
  );
});

test('DoH: the Answer records of the type asked; none is ["N/A"]; a body that is not a DoH answer is "N/A"', () => {
  assert.deepEqual(
    dohResult(
      {
        Status: 0,
        Answer: [
          { type: 5, data: 'example.org.' },
          { type: 1, data: '93.184.215.14' },
        ],
      },
      'A',
    ),
    ['93.184.215.14'],
  );
  assert.deepEqual(dohResult({ Status: 0, Answer: [{ type: 5, data: 'example.org.' }] }, 'CNAME'), ['example.org.']);
  assert.deepEqual(dohResult({ Status: 0, Answer: [{ type: 5, data: 'example.org.' }] }, 'A'), ['N/A']);
  assert.deepEqual(
    dohResult(
      { Status: 3, Authority: [{ type: 6, data: 'a.root-servers.net. nstld.verisign-grs.com. 1 2 3 4 5' }] },
      'A',
    ),
    ['N/A'],
  );
  assert.equal(dohResult({ Status: 0, Answer: [] }, 'A'), 'N/A');
  assert.equal(dohResult({ Status: 0, Answer: [{ type: 1 }] }, 'A'), 'N/A');
  assert.equal(dohResult({ error: 'bad request' }, 'A'), 'N/A');
  assert.equal(dohResult(null, 'A'), 'N/A');
  assert.equal(dohResult([], 'A'), 'N/A');
});

test('what each answer means: records, a name that does not exist, a name without records of the type, a failure', () => {
  assert.equal(plainAnswer('A', ['93.184.215.14']).status, 'records');
  assert.equal(plainAnswer('A', []).status, 'nodata');
  // node:dns throws NXDOMAIN and NODATA: they are answers; anything else is a failure.
  assert.deepEqual(plainNothing(Object.assign(new Error('queryA ENOTFOUND x'), { code: 'ENOTFOUND' })), {
    result: 'N/A',
    status: 'nxdomain',
  });
  assert.deepEqual(plainNothing(Object.assign(new Error('queryA ENODATA x'), { code: 'ENODATA' })), {
    result: 'N/A',
    status: 'nodata',
  });
  assert.equal(plainNothing(Object.assign(new Error('queryA ESERVFAIL x'), { code: 'ESERVFAIL' })), undefined);
  assert.equal(plainNothing(Object.assign(new Error('queryA ETIMEOUT x'), { code: 'ETIMEOUT' })), undefined);
  assert.equal(plainNothing(null), undefined);

  assert.equal(dohAnswer({ Status: 0, Answer: [{ type: 1, data: '93.184.215.14' }] }, 'A').status, 'records');
  assert.equal(dohAnswer({ Status: 3 }, 'A').status, 'nxdomain');
  assert.equal(dohAnswer({ Status: 0 }, 'A').status, 'nodata');
  assert.equal(dohAnswer({ Status: 0, Answer: [{ type: 5, data: 'example.org.' }] }, 'A').status, 'nodata');
  assert.deepEqual(dohAnswer({ Status: 2 }, 'A'), { result: ['N/A'], status: 'failed' });
  assert.equal(dohAnswer({ Status: 0, Answer: [] }, 'A').status, 'failed');
  assert.equal(dohAnswer({ error: 'bad request' }, 'A').status, 'failed');
});

test('one TXT record reads the same from plain DNS and from DoH, quoted or not', () => {
  const plain = plainResult('TXT', [['v=spf1 -all'], ['google-site-', 'verification=abc123']]);
  const quoted = dohResult(
    {
      Status: 0,
      Answer: [
        { type: 16, data: '"v=spf1 -all"' },
        { type: 16, data: '"google-site-" "verification=abc123"' },
      ],
    },
    'TXT',
  );
  const unquoted = dohResult(
    {
      Status: 0,
      Answer: [
        { type: 16, data: 'v=spf1 -all' },
        { type: 16, data: 'google-site-verification=abc123' },
      ],
    },
    'TXT',
  );
  assert.deepEqual(plain, ['v=spf1 -all', 'google-site-verification=abc123']);
  assert.deepEqual(quoted, plain);
  assert.deepEqual(unquoted, plain);
});

test('TXT character-strings: escaped quotes and backslashes, \\DDD bytes decoded as UTF-8, text outside quotes ignored', () => {
  assert.equal(txtText('"say \\"hi\\"" "a\\\\b"'), 'say "hi"a\\b');
  assert.equal(txtText('"caf\\195\\169" "\\240\\159\\152\\128 ok"'), 'café😀 ok');
  assert.equal(txtText('"日本" "語"'), '日本語');
  assert.equal(txtText('plain text'), 'plain text');
});
