import assert from 'node:assert/strict';
import { checkReport } from '../../contract/report.js';
import { EXAMPLE_REPORT } from '../../routes/report/examples.js';

/** A valid report whose JSON is exactly `bytes` long: MTR hops, padded through their host names. */
export function reportOfSize(bytes: number) {
  const report = structuredClone(EXAMPLE_REPORT) as Record<string, any>;
  const hop = (n: number) => ({
    n,
    asn: 3320,
    host: 'h'.repeat(100),
    ip: '203.0.113.1',
    lossPct: 0,
    drop: 0,
    rcv: 10,
    sntCount: 10,
    lastMs: 10.5,
    avgMs: 11.25,
    bestMs: 9.75,
    worstMs: 14.5,
    stdevMs: 1.25,
    javgMs: 0.5,
  });
  const probes = Array.from({ length: 32 }, () => ({
    countryCode: 'DE',
    city: 'Frankfurt',
    network: 'Deutsche Telekom AG',
    asn: 3320,
    hops: [] as Array<ReturnType<typeof hop>>,
  }));
  report.sections.mtrtest = { testedAt: '2026-11-24T12:33:00.000Z', target: 'example.com', probes };
  // Sizes are counted rather than measured: serialising the whole report after every hop would take seconds.
  let size = Buffer.byteLength(JSON.stringify(report));
  for (const probe of probes) {
    while (probe.hops.length < 64) {
      const next = hop(probe.hops.length + 1);
      const grows = Buffer.byteLength(JSON.stringify(next)) + (probe.hops.length > 0 ? 1 : 0);
      if (size + grows > bytes) break;
      probe.hops.push(next);
      size += grows;
    }
  }
  // Each host name may take 28 more characters.
  for (const h of probes.flatMap((p) => p.hops)) {
    const pad = Math.min(28, bytes - size);
    h.host += 'h'.repeat(pad);
    size += pad;
  }
  assert.equal(Buffer.byteLength(JSON.stringify(report)), bytes);
  assert.ok(checkReport.Check(report));
  return report;
}
