import assert from 'node:assert/strict';
import test from 'node:test';
import { frenchPlural, russianPlural } from '../../web/site/src/lib/plural.js';

test('Russian counts pick one, few or many as a Russian reader expects', () => {
  const form = (n: number) => ['one', 'few', 'many'][russianPlural(n, 3)];
  for (const n of [1, 21, 31, 101, 1001]) assert.equal(form(n), 'one', String(n));
  for (const n of [2, 3, 4, 22, 24, 102, 1003]) assert.equal(form(n), 'few', String(n));
  for (const n of [0, 5, 9, 10, 11, 12, 13, 14, 19, 20, 25, 100, 111, 112, 114]) {
    assert.equal(form(n), 'many', String(n));
  }
  assert.equal(form(-3), 'few', 'a negative count follows its size');
});

test('French takes the singular for 0 and 1 and the plural from 2 on', () => {
  assert.deepEqual(
    [0, 1, 2, 10].map((n) => frenchPlural(n, 2)),
    [0, 0, 1, 1],
  );
});

test('a text with fewer forms than the rule names never points past its last form', () => {
  assert.equal(russianPlural(5, 2), 1);
  assert.equal(russianPlural(5, 1), 0);
  assert.equal(frenchPlural(7, 1), 0);
});
