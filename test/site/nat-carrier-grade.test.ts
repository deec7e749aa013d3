import assert from 'node:assert/strict';
import test from 'node:test';
import { carrierGrade, inSharedRange } from '../../web/site/src/features/nat/carrier-grade.js';

test('100.64.0.0/10 is the shared range, and nothing around it is', () => {
  for (const ip of ['100.64.0.0', '100.64.12.7', '100.127.255.255', '::ffff:100.100.1.1']) {
    assert.ok(inSharedRange(ip), ip);
  }
  for (const ip of ['100.63.255.255', '100.128.0.0', '10.0.0.1', '2001:db8::1', 'abc.local', 'x']) {
    assert.equal(inSharedRange(ip), false, ip);
  }
});

test('an address in the shared range WebRTC shows makes a carrier-grade NAT likely, with that address as evidence', () => {
  assert.deepEqual(
    carrierGrade({ addresses: ['100.72.1.9', '193.0.0.1'], stunSees: ['193.0.0.1'], siteSees: '193.0.0.1' }),
    {
      likelihood: 'likely',
      evidence: [{ kind: 'shared-range', ip: '100.72.1.9' }],
    },
  );
});

test('a STUN server seeing another address than the site makes it possible, never more', () => {
  assert.deepEqual(carrierGrade({ addresses: ['193.0.0.1'], stunSees: ['193.0.0.1'], siteSees: '8.8.8.8' }), {
    likelihood: 'possible',
    evidence: [{ kind: 'different-address', stunSees: '193.0.0.1', siteSees: '8.8.8.8' }],
  });
});

test('both evidences together: likely, each listed', () => {
  const found = carrierGrade({ addresses: ['100.64.0.1', '193.0.0.1'], stunSees: ['193.0.0.1'], siteSees: '8.8.8.8' });
  assert.equal(found.likelihood, 'likely');
  assert.deepEqual(
    found.evidence.map((e) => e.kind),
    ['shared-range', 'different-address'],
  );
});

test('the same address for both is no sign; addresses of different families are not compared', () => {
  assert.deepEqual(carrierGrade({ addresses: ['8.8.8.8'], stunSees: ['8.8.8.8'], siteSees: '8.8.8.8' }), {
    likelihood: 'no-sign',
    evidence: [],
  });
  // The same IPv6 address written two ways is the same address.
  assert.equal(
    carrierGrade({ addresses: [], stunSees: ['2001:db8:0:0::1'], siteSees: '2001:db8::1' }).likelihood,
    'no-sign',
  );
  assert.deepEqual(carrierGrade({ addresses: [], stunSees: ['193.0.0.1'], siteSees: '2001:db8::1' }), {
    likelihood: 'unknown',
    evidence: [],
  });
});

test('nothing to compare: unknown', () => {
  assert.deepEqual(carrierGrade({ addresses: [], stunSees: [], siteSees: '8.8.8.8' }), {
    likelihood: 'unknown',
    evidence: [],
  });
  assert.deepEqual(carrierGrade({ addresses: ['193.0.0.1'], stunSees: ['193.0.0.1'], siteSees: null }), {
    likelihood: 'unknown',
    evidence: [],
  });
});
