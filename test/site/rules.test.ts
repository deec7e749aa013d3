import { test } from 'node:test';
import assert from 'node:assert/strict';
import { destinations, uniqueExits } from '../../web/site/src/features/rules/destinations.js';

test('without the operator’s hostnames, eight echo services on eight domains, numbered and named by host', () => {
  const list = destinations([]);
  assert.equal(list.length, 8);
  assert.equal(new Set(list.map((d) => d.name)).size, 8);
  assert.deepEqual(
    list.map((d) => d.id),
    ['1', '2', '3', '4', '5', '6', '7', '8'],
  );
  assert.equal(list[2]!.name, '1.0.0.1');
});

test('the operator’s hostnames of this service are asked for its own answer instead, at most sixteen', () => {
  const origins = Array.from({ length: 20 }, (_, i) => `https://rule-${i + 1}.netdiag.example`);
  const list = destinations(origins);
  assert.equal(list.length, 16);
  assert.equal(list[0]!.name, 'rule-1.netdiag.example');
  assert.deepEqual(list[0]!.urls, [{ url: 'https://rule-1.netdiag.example/api/client-ip', read: 'json-ip' }]);
});

test('distinct exits count each address once and skip the destinations that did not answer', () => {
  const done = (ip: string) => ({ state: 'done' as const, ip, family: 'IPv4' as const });
  assert.deepEqual(
    uniqueExits([
      done('203.0.113.1'),
      done('203.0.113.1'),
      null,
      { state: 'error', reason: 'timeout' },
      done('198.51.100.2'),
    ]),
    ['203.0.113.1', '198.51.100.2'],
  );
});
