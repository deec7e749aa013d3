import { test } from 'node:test';
import assert from 'node:assert/strict';
import { masked, shownAddress } from '../../web/site/src/lib/preferences.js';
import { flagUrl } from '../../web/site/src/lib/flag.js';

test('while addresses are hidden every address loses its last part; other text and the unhidden state stay as they are', () => {
  masked.value = false;
  assert.equal(shownAddress('203.0.113.45'), '203.0.113.45');
  masked.value = true;
  assert.equal(shownAddress('203.0.113.45'), '203.0.113.x');
  assert.equal(shownAddress('2001:db8:85a3:8d3:1319:8a2e:370:7348'), '2001:db8:85a3:8d3:x');
  assert.equal(shownAddress('not an address'), 'not an address');
  masked.value = false;
});

test("a country's flag is its own file; a code naming no country asks for none", () => {
  assert.equal(flagUrl('US'), '/flags/us.svg');
  assert.equal(flagUrl('xk'), '/flags/xk.svg');
  assert.equal(flagUrl('QA'), '/flags/qa.svg');
  for (const code of ['', 'ZZ', 'XX', 'QZ', 'AA', 'USA', '../x', 'U1']) assert.equal(flagUrl(code), null, code);
});
