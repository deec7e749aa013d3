import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULTS, readPreferences, savePreferences } from '../../web/site/src/features/runall/preferences.js';
import { collectedEntries, defaultEntries, recordSection } from '../../web/site/src/lib/report-sections.js';
import { sectionText } from '../../web/site/src/lib/report-text.js';
import { shortcutReader, type KeyPress } from '../../web/site/src/lib/shortcuts.js';
import { RUNALL_KEY } from '../../web/site/src/lib/storage-keys.js';
import { memoryStore } from './memory-store.js';

const press = (key: string, target: unknown = null, mods: Partial<KeyPress> = {}): KeyPress => ({
  key,
  ctrlKey: false,
  metaKey: false,
  altKey: false,
  target: target as EventTarget | null,
  ...mods,
});

test('the run-all preferences are kept, and a hand-edited value falls back to the default field by field', () => {
  const store = memoryStore();
  assert.deepEqual(readPreferences(store), DEFAULTS);
  savePreferences(store, { simple: true, auto: ['speed', 'addresses'], cards: 2 });
  assert.deepEqual(readPreferences(store), { simple: true, auto: ['addresses', 'speed'], cards: 2 });
  store.data.set(RUNALL_KEY, JSON.stringify({ simple: 'yes', auto: ['nope', 'dnsleak'], cards: 99 }));
  assert.deepEqual(readPreferences(store), { simple: false, auto: ['dnsleak'], cards: DEFAULTS.cards });
  store.data.set(RUNALL_KEY, '{not json');
  assert.deepEqual(readPreferences(store), DEFAULTS);
  assert.deepEqual(readPreferences(memoryStore(true)), DEFAULTS);
});

test('a run on one page never replaces another page’s result of the same section; each is listed, newest first', () => {
  recordSection('dnsleak', { providers: [{ id: 'a', name: 'A' }] }, '/dnsleak');
  recordSection('dnsleak', { providers: [{ id: 'b', name: 'B' }] }, '/runall');
  recordSection('dnsleak', { providers: [{ id: 'c', name: 'C' }] }, '/runall');
  const [[id, entries]] = collectedEntries(['dnsleak']) as [[string, Array<{ page: string; section: unknown }>]];
  assert.equal(id, 'dnsleak');
  assert.deepEqual(entries.map((e) => e.page).sort(), ['/dnsleak', '/runall']);
  const byPage = Object.fromEntries(entries.map((e) => [e.page, e.section]));
  assert.deepEqual((byPage['/dnsleak'] as { providers: unknown }).providers, [{ id: 'a', name: 'A' }]);
  assert.deepEqual((byPage['/runall'] as { providers: unknown }).providers, [{ id: 'c', name: 'C' }]);
  // By default a page shares its own result, else the newest.
  assert.equal(defaultEntries(['dnsleak'], '/dnsleak').get('dnsleak')!.page, '/dnsleak');
  assert.equal(defaultEntries(['dnsleak'], '/runall').get('dnsleak')!.page, '/runall');
});

test('a section as text: every field by its report name, a list one line per item, nothing of testedAt', () => {
  assert.deepEqual(
    sectionText({
      testedAt: '2026-01-01T00:00:00Z',
      providers: [{ id: 'ipapi', name: 'ip-api.com', ip: '8.8.8.53', countryCode: 'US' }],
      downloadMbps: 93.5,
      uploadMbps: null,
      connection: { ip: '8.8.8.8', colo: 'FRA' },
    }),
    [
      'providers:',
      '- id: ipapi, name: ip-api.com, ip: 8.8.8.53, countryCode: US',
      'downloadMbps: 93.5',
      'connection.ip: 8.8.8.8',
      'connection.colo: FRA',
    ],
  );
});

test('shortcuts: single keys, g then a letter, nothing with a modifier or while typing in a field', () => {
  const read = shortcutReader();
  assert.deepEqual(read(press('r')), { kind: 'run' });
  assert.deepEqual(read(press('?')), { kind: 'help' });
  assert.equal(read(press('g')), null);
  assert.deepEqual(read(press('s')), { kind: 'go', path: '/speed' });
  assert.deepEqual(read(press('s')), { kind: 'share' });
  assert.equal(read(press('g')), null);
  assert.equal(read(press('x')), null);
  assert.deepEqual(read(press('t')), { kind: 'theme' });
  assert.equal(read(press('r', null, { ctrlKey: true })), null);
  for (const tagName of ['INPUT', 'TEXTAREA', 'SELECT']) assert.equal(read(press('r', { tagName })), null);
  assert.equal(read(press('r', { tagName: 'DIV', isContentEditable: true })), null);
  assert.deepEqual(read(press('/', { tagName: 'BUTTON' })), { kind: 'lookup' });
});
