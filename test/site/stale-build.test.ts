import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isChunkLoadError } from '../../web/site/src/lib/stale-build.js';

// The browser test (e2e/stale-build.spec.ts) meets Chromium's words only; each browser words it its own way.
test("a page's code that could not be fetched is told in every browser's words, and nothing else is", () => {
  const url = 'https://netdiag.example/assets/WhoisPage-e0UP5CI0.js';
  const chunkFailures = [
    new TypeError(`Failed to fetch dynamically imported module: ${url}`), // Chromium
    new TypeError(`error loading dynamically imported module: ${url}`), // Firefox
    new TypeError('Importing a module script failed.'), // Safari
    new Error('Unable to preload CSS for /assets/WhoisPage-Bq3k0xYz.css'), // Vite, a page's stylesheet
  ];
  for (const error of chunkFailures) assert.equal(isChunkLoadError(error), true, error.message);
  const others = [
    new TypeError("Cannot read properties of undefined (reading 'id')"),
    new Error('Failed to fetch'),
    'Failed to fetch dynamically imported module',
    undefined,
  ];
  for (const error of others) assert.equal(isChunkLoadError(error), false, String(error));
});
