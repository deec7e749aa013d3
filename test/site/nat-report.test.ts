import assert from 'node:assert/strict';
import test from 'node:test';
import { checkReport } from '../../contract/report.js';
import { carrierGrade } from '../../web/site/src/features/nat/carrier-grade.js';
import { NAT_ANSWERS } from '../../contract/nat-answers.js';
import { summarize, type Round } from '../../web/site/src/features/nat/mapping.js';
import { natSection } from '../../web/site/src/features/nat/report.js';

const envelope = (nattest: unknown) => ({
  v: 1,
  generatedAt: '2026-11-29T12:00:00Z',
  origin: 'localhost',
  locale: 'en',
  sections: { nattest },
});

test("the nattest section the page builds is one the service's whitelist accepts, every answer and likelihood included", () => {
  const round: Round = {
    shared: [{ address: '193.0.0.1', port: 1000, base: 'f' }],
    answered: { ipv4: ['stun:198.18.0.2:3478', 'stun:198.18.0.3:3478'], ipv6: [] },
    publicHosts: ['2001:db8::5'],
  };
  const families = summarize(['stun:198.18.0.2:3478', 'stun:198.18.0.3:3478'], [round, round, round, round, round]);
  const cgn = carrierGrade({ addresses: ['100.64.0.1', '193.0.0.1'], stunSees: ['193.0.0.1'], siteSees: '8.8.8.8' });
  const section = natSection(2, families, cgn);
  assert.deepEqual(section, {
    servers: 2,
    families: [
      { family: 'ipv4', mapping: 'endpoint-independent', agreeing: 5, rounds: 5 },
      { family: 'ipv6', mapping: 'no-nat', agreeing: 5, rounds: 5 },
    ],
    carrierGrade: 'likely',
    evidence: [{ kind: 'shared-range' }, { kind: 'different-address' }],
  });
  assert.ok(checkReport.Check(envelope({ testedAt: '2026-11-29T12:00:00Z', ...section })));
  for (const mapping of NAT_ANSWERS) {
    for (const likelihood of ['likely', 'possible', 'no-sign', 'unknown']) {
      const stored = {
        ...section,
        families: [{ family: 'ipv4', mapping, agreeing: 3, rounds: 5 }],
        carrierGrade: likelihood,
      };
      assert.ok(
        checkReport.Check(envelope({ testedAt: '2026-11-29T12:00:00Z', ...stored })),
        `${mapping} ${likelihood}`,
      );
    }
  }
});

test('the whitelist refuses what the section never holds: an address, an unknown answer, more than ten rounds', () => {
  const base = { testedAt: '2026-11-29T12:00:00Z', servers: 2, families: [], carrierGrade: 'unknown', evidence: [] };
  assert.ok(checkReport.Check(envelope(base)));
  assert.equal(checkReport.Check(envelope({ ...base, ip: '193.0.0.1' })), false);
  assert.equal(checkReport.Check(envelope({ ...base, evidence: [{ kind: 'shared-range', ip: '100.64.0.1' }] })), false);
  const family = { family: 'ipv4', mapping: 'full-cone', agreeing: 5, rounds: 5 };
  assert.equal(checkReport.Check(envelope({ ...base, families: [family] })), false);
  assert.equal(
    checkReport.Check(envelope({ ...base, families: [{ ...family, mapping: 'endpoint-independent', rounds: 11 }] })),
    false,
  );
});
