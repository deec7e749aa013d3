import assert from 'node:assert/strict';
import test from 'node:test';
import { checkReport } from '../../contract/report.js';
import type { Outcome, ProbeResult } from '../../web/site/src/features/webrtc/stun-probe.js';
import { publicAddresses, verdictOf } from '../../web/site/src/features/webrtc/verdict.js';
import { serverId, webrtcSection } from '../../web/site/src/features/webrtc/report.js';

const found = (ip: string, type: 'srflx' | 'prflx' | 'host' = 'srflx'): Outcome => ({ status: 'found', type, ip });
const result = (outcome: Outcome, hosts: string[] = [], url = 'stun:s'): ProbeResult => ({ url, outcome, hosts });
const timeout: Outcome = { status: 'error', reason: 'timeout' };

test('an address WebRTC shows that the site does not see is a leak', () => {
  assert.deepEqual(verdictOf([result(found('193.0.0.1')), result(timeout)], '8.8.8.8'), {
    kind: 'leak',
    siteSees: '8.8.8.8',
    others: ['193.0.0.1'],
    otherFamilyOnly: false,
  });
});

test('the same address as the site sees is no leak, however IPv6 is spelt', () => {
  assert.deepEqual(verdictOf([result(found('8.8.8.8')), result(found('8.8.8.8'))], '8.8.8.8'), {
    kind: 'noLeak',
    siteSees: '8.8.8.8',
  });
  assert.deepEqual(verdictOf([result(found('2001:4860:4860:0:0:0:0:8888'))], '2001:4860:4860::8888'), {
    kind: 'noLeak',
    siteSees: '2001:4860:4860::8888',
  });
});

test('a leak only of the other address family is marked so (a dual-stack line, or a VPN carrying IPv4 only)', () => {
  const verdict = verdictOf([result(found('8.8.8.8')), result(found('2001:4860:4860::8888'))], '8.8.8.8');
  assert.deepEqual(verdict, {
    kind: 'leak',
    siteSees: '8.8.8.8',
    others: ['2001:4860:4860::8888'],
    otherFamilyOnly: true,
  });
});

test('a public local address counts; private ones, .local names and reserved reflexive ones do not', () => {
  const results = [
    result(found('100.64.1.2'), ['192.168.1.4', 'ab-12.local', '1.1.1.1']),
    result(found('8.8.8.8'), ['1.1.1.1']),
  ];
  assert.deepEqual(publicAddresses(results), ['1.1.1.1', '8.8.8.8']);
  assert.equal(verdictOf(results, '8.8.8.8').kind, 'leak');
});

test('WebRTC off everywhere is "unavailable"; working WebRTC that exposed nothing public is "no address"', () => {
  const off: Outcome = { status: 'unavailable' };
  assert.deepEqual(verdictOf([result(off), result(off)], '8.8.8.8'), { kind: 'unavailable' });
  assert.deepEqual(verdictOf([result(timeout, ['ab.local']), result(off)], '8.8.8.8'), { kind: 'noAddress' });
});

test('a STUN server that saw only a private address answered: no public address, but not "no answer"', () => {
  assert.deepEqual(verdictOf([result(found('10.0.0.5'))], '8.8.8.8'), { kind: 'privateOnly', answered: 1, asked: 1 });
  // The local addresses' own probe (no URL) is no server asked.
  const own = result(found('192.168.1.4', 'host'), ['192.168.1.4'], '');
  assert.deepEqual(verdictOf([result(found('100.64.1.2'), ['192.168.1.4']), result(timeout), own], '8.8.8.8'), {
    kind: 'privateOnly',
    answered: 1,
    asked: 2,
  });
});

test("without the site's own view of the visitor, the addresses are listed without a verdict", () => {
  assert.deepEqual(verdictOf([result(found('193.0.0.1'))], null), { kind: 'unknownSite', addresses: ['193.0.0.1'] });
});

test('the report section holds each server with what it saw, and the service accepts it', () => {
  const places = new Map([['193.0.0.1', { countryCode: 'NL', org: 'RIPE NCC' }]]);
  const section = webrtcSection(
    [
      result(found('193.0.0.1'), [], 'stun:stun.l.google.com:19302'),
      result(found('2001:4860:4860:0:0:0:0:8888', 'prflx'), [], 'stun:[2001:db8::1]:3478'),
      result(timeout, [], 'stun:global.stun.twilio.com:3478'),
      result({ status: 'unavailable' }, [], 'stun:stun.cloudflare.com:3478'),
    ],
    places,
  );
  assert.deepEqual(section.servers, [
    {
      id: 'stun.l.google.com:19302',
      url: 'stun:stun.l.google.com:19302',
      ip: '193.0.0.1',
      natType: 'srflx',
      countryCode: 'NL',
      org: 'RIPE NCC',
    },
    { id: '[2001:db8::1]:3478', url: 'stun:[2001:db8::1]:3478', ip: '2001:4860:4860::8888', natType: 'prflx' },
    { id: 'global.stun.twilio.com:3478', url: 'stun:global.stun.twilio.com:3478', natType: 'error' },
    { id: 'stun.cloudflare.com:3478', url: 'stun:stun.cloudflare.com:3478', natType: 'unavailable' },
  ]);
  const now = new Date().toISOString();
  const report = {
    v: 1,
    generatedAt: now,
    origin: 'localhost',
    locale: 'en',
    sections: { webrtc: { testedAt: now, ...section } },
  };
  assert.ok(checkReport.Check(report), JSON.stringify([...checkReport.Errors(report)]));
  const tooLong = {
    ...report,
    sections: { webrtc: { testedAt: now, servers: [{ ...section.servers[0], id: 'x'.repeat(33) }] } },
  };
  assert.ok(!checkReport.Check(tooLong), 'the check is the real one: it refuses an id past 32 characters');
});

test("a server's id stays within the report's 32 characters", () => {
  assert.equal(serverId(`stun:${'a'.repeat(60)}.example:3478`).length, 32);
});
