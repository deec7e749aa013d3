import { test } from 'node:test';
import assert from 'node:assert/strict';
import { maskAddresses, maskIp } from '../../web/site/src/lib/mask.js';
import { checkReport } from '../../contract/report.js';

test('an address keeps its network and loses its tail, in the form the report accepts', () => {
  assert.equal(maskIp('203.0.113.45'), '203.0.113.x');
  assert.equal(maskIp('2001:db8:85a3:8d3:1319:8a2e:370:7348'), '2001:db8:85a3:8d3:x');
  assert.equal(maskIp('2001:db8::1'), '2001:db8:0:0:x');
  assert.equal(maskIp('::ffff:192.0.2.1'), '0:0:0:0:x');
});

test('masking rewrites every address field of every section and nothing else, and the service accepts the result', () => {
  const sections = {
    ipinfo: { testedAt: '2026-11-26T00:00:00Z', cards: [{ source: 'Local', ip: '8.8.8.8', city: '1.2.3.4' }] },
    webrtc: {
      testedAt: '2026-11-26T00:00:00Z',
      servers: [{ id: 'a', url: 'stun:x', ip: '2001:db8::5', natType: 'srflx' }],
    },
    pingtest: { testedAt: '2026-11-26T00:00:00Z', target: '1.1.1.1', probes: [] },
    mtrtest: { testedAt: '2026-11-26T00:00:00Z', target: 'example.com', probes: [{ hops: [{ n: 1, ip: '9.9.9.9' }] }] },
  } as const;
  const masked = maskAddresses(sections);
  assert.equal(masked.ipinfo.cards[0]!.ip, '8.8.8.x');
  assert.equal(masked.ipinfo.cards[0]!.city, '1.2.3.4', 'a field that is not an address stays');
  assert.equal(masked.webrtc.servers[0]!.ip, '2001:db8:0:0:x');
  assert.equal(masked.pingtest.target, '1.1.1.x');
  assert.equal(masked.mtrtest.target, 'example.com');
  assert.equal(masked.mtrtest.probes[0]!.hops[0]!.ip, '9.9.9.x');
  assert.equal(sections.ipinfo.cards[0]!.ip, '8.8.8.8', 'the collected results stay as they were');
  const report = { v: 1, generatedAt: '2026-11-26T00:00:00Z', origin: 'localhost', locale: 'en', sections: masked };
  assert.ok(checkReport.Check(report), JSON.stringify([...checkReport.Errors(report)].slice(0, 3)));
});
