import { test } from 'node:test';
import assert from 'node:assert/strict';
import { dnsSummary } from '../../web/site/src/features/dns/summary.js';

type Status = 'records' | 'nxdomain' | 'nodata' | 'failed';
const rows = (...groups: Array<[Status, number, boolean?]>) =>
  groups.flatMap(([status, n, differs = false]) => Array.from({ length: n }, () => ({ status, differs })));

test('a name ten resolvers call non-existent and four answer: both are said, never "the same records"', () => {
  assert.deepEqual(dnsSummary(rows(['nxdomain', 10], ['records', 4]), 'A'), [
    { key: 'noSuchName', n: 10 },
    { key: 'gaveAddresses', n: 4 },
  ]);
  assert.deepEqual(dnsSummary(rows(['nxdomain', 10], ['records', 4]), 'MX'), [
    { key: 'noSuchName', n: 10 },
    { key: 'gaveRecords', n: 4 },
  ]);
});

test('a name every resolver that answered calls non-existent, some not answering', () => {
  assert.deepEqual(dnsSummary(rows(['nxdomain', 12], ['failed', 2]), 'A'), [{ key: 'noSuchName', n: 12 }]);
});

test('records from every resolver that answered: the same, or how many differ', () => {
  assert.deepEqual(dnsSummary(rows(['records', 13], ['failed', 1]), 'A'), [{ key: 'agree', n: 13 }]);
  assert.deepEqual(dnsSummary(rows(['records', 12], ['records', 2, true]), 'A'), [{ key: 'disagree', n: 2 }]);
});

test('no records at all: a name without records of the type, or no resolver reached', () => {
  assert.deepEqual(dnsSummary(rows(['nodata', 10], ['failed', 4]), 'AAAA'), [{ key: 'noRecords', n: 0 }]);
  assert.deepEqual(dnsSummary(rows(['failed', 14]), 'A'), [{ key: 'noneAnswered', n: 0 }]);
  assert.deepEqual(dnsSummary([], 'A'), [{ key: 'noneAnswered', n: 0 }]);
});
