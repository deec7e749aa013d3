import { test } from 'node:test';
import assert from 'node:assert/strict';
import { verdictOf } from '../../web/site/src/features/dnsleak/verdict.js';

test('resolvers in another country than the address: a possible leak naming every resolver country', () => {
  assert.deepEqual(verdictOf(['NL', 'NL'], 'US'), { kind: 'leak', resolverCountries: ['NL'], ownCountry: 'US' });
  assert.deepEqual(verdictOf(['US', 'NL', 'US', 'AU'], 'US'), {
    kind: 'leak',
    resolverCountries: ['US', 'NL', 'AU'],
    ownCountry: 'US',
  });
});

test('every located resolver in the visitor’s country: no sign of a leak; unlocated ones do not count', () => {
  assert.deepEqual(verdictOf(['US', 'US'], 'US'), { kind: 'noLeak', ownCountry: 'US' });
  assert.deepEqual(verdictOf(['US', ''], 'US'), { kind: 'noLeak', ownCountry: 'US' });
});

test('nothing to compare is said as such, never as "no leak"', () => {
  assert.deepEqual(verdictOf([], 'US'), { kind: 'noResolvers' });
  assert.deepEqual(verdictOf([], ''), { kind: 'noResolvers' });
  assert.deepEqual(verdictOf(['', ''], 'US'), { kind: 'resolversUnknown' });
  assert.deepEqual(verdictOf(['NL', 'US'], ''), { kind: 'ownUnknown', resolverCountries: ['NL', 'US'] });
});
