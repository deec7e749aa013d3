import { test } from 'node:test';
import assert from 'node:assert/strict';
import { displayText, isolated } from '../../web/site/src/lib/untrusted.js';

test('displayText drops every explicit bidi embedding, override and isolate, and nothing else', () => {
  const controls = ['\u202A', '\u202B', '\u202C', '\u202D', '\u202E', '\u2066', '\u2067', '\u2068', '\u2069'];
  assert.equal(displayText(`${controls.join('')}moc.elgoog${controls.join('')}`), 'moc.elgoog');
  // Right-to-left scripts and the implicit marks read correctly without help, so they stay.
  const arabic = 'شركة الاتصالات\u200F (STC)\u200E';
  assert.equal(displayText(arabic), arabic);
  assert.equal(displayText('Google LLC'), 'Google LLC');
});

test('isolated wraps the shown text in FIRST STRONG ISOLATE and POP DIRECTIONAL ISOLATE', () => {
  assert.equal(isolated('\u202Eexample.com'), '\u2068example.com\u2069');
  assert.equal(isolated('\u2069evil'), '\u2068evil\u2069', 'a value cannot close the isolate early');
  assert.equal(isolated(''), '');
});
