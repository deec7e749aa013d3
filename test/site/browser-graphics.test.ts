import { test } from 'node:test';
import assert from 'node:assert/strict';
import { graphicsOf } from '../../web/site/src/features/browser/graphics.js';

const basics = {
  version: 'WebGL 1.0',
  vendor: 'WebKit',
  renderer: 'WebKit WebGL',
  shadingLanguageVersion: 'WebGL GLSL ES 1.0',
};

test('the unmasked names are the adapter; the generic ones only when the browser withholds them', () => {
  assert.deepEqual(
    graphicsOf({
      value: { ...basics, vendorUnmasked: 'Google Inc. (Intel)', rendererUnmasked: ' ANGLE (Intel, UHD 620) ' },
    }),
    { state: 'shown', vendor: 'Google Inc. (Intel)', renderer: 'ANGLE (Intel, UHD 620)' },
  );
  assert.deepEqual(graphicsOf({ value: { ...basics, vendorUnmasked: '', rendererUnmasked: '' } }), {
    state: 'hidden',
    vendor: 'WebKit',
    renderer: 'WebKit WebGL',
  });
});

test('no WebGL context (a status number), an error or no component at all is no adapter', () => {
  assert.deepEqual(graphicsOf({ value: -1 }), { state: 'none' });
  assert.deepEqual(graphicsOf({ error: new Error('context lost') }), { state: 'none' });
  assert.deepEqual(graphicsOf(undefined), { state: 'none' });
});
