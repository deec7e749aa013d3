import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applyTheme, isDark, readTheme, saveTheme } from '../../web/site/src/lib/theme.js';
import { THEME_KEY } from '../../web/site/src/lib/storage-keys.js';
import { memoryStore } from './memory-store.js';

test('a chosen theme is remembered; auto is remembered as nothing, so the default follows the system', () => {
  const store = memoryStore();
  assert.equal(readTheme(store), 'auto');
  saveTheme(store, 'dark');
  assert.equal(store.data.get(THEME_KEY), 'dark');
  assert.equal(readTheme(store), 'dark');
  saveTheme(store, 'auto');
  assert.equal(store.data.has(THEME_KEY), false);
  assert.equal(readTheme(store), 'auto');
});

test('a hand-edited value, no storage or a refusing one read as auto, and saving there does not throw', () => {
  const store = memoryStore();
  store.data.set(THEME_KEY, 'purple');
  assert.equal(readTheme(store), 'auto');
  assert.equal(readTheme(null), 'auto');
  const refusing = memoryStore(true);
  assert.equal(readTheme(refusing), 'auto');
  assert.doesNotThrow(() => saveTheme(refusing, 'light'));
});

test('light and dark pin data-theme on <html>; auto removes it', () => {
  const attributes = new Map<string, string>();
  const root = {
    setAttribute: (name: string, value: string) => void attributes.set(name, value),
    removeAttribute: (name: string) => void attributes.delete(name),
  };
  applyTheme(root, 'dark');
  assert.equal(attributes.get('data-theme'), 'dark');
  applyTheme(root, 'light');
  assert.equal(attributes.get('data-theme'), 'light');
  applyTheme(root, 'auto');
  assert.equal(attributes.has('data-theme'), false);
});

test('the page is dark when pinned dark, or on auto when the system is', () => {
  assert.equal(isDark('auto', true), true);
  assert.equal(isDark('auto', false), false);
  assert.equal(isDark('light', true), false);
  assert.equal(isDark('dark', false), true);
});
