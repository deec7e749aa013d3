import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { descriptorBudget, openFilesLimit } from '../../lib/descriptor-budget.js';

const LIMITS = (soft: string, hard: string) =>
  [
    'Limit                     Soft Limit           Hard Limit           Units     ',
    'Max processes             63432                63432                processes ',
    `Max open files            ${soft.padEnd(21)}${hard.padEnd(21)}files     `,
    'Max locked memory         8388608              8388608              bytes     ',
  ].join('\n');

test('the open-files limit is the soft one of /proc/self/limits; unlimited is the largest number; anything else the fallback', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'limits-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const file = join(dir, 'limits');
  await writeFile(file, LIMITS('4096', '524288'));
  assert.equal(openFilesLimit(file), 4096);
  await writeFile(file, LIMITS('unlimited', 'unlimited'));
  assert.equal(openFilesLimit(file), Number.MAX_SAFE_INTEGER);
  await writeFile(file, 'not a limits file');
  assert.equal(openFilesLimit(file), 1024);
  assert.equal(openFilesLimit(join(dir, 'missing')), 1024);
  // This process's own, on Linux.
  assert.ok(openFilesLimit() > 0);
});

test('a quarter of the limit per listener, a quarter for outbound sockets, a quarter left over', () => {
  assert.deepEqual(descriptorBudget(1024), {
    openFiles: 1024,
    connectionsPerListener: 256,
    connectionsPerOrigin: 32,
    dnsQueries: 128,
  });
  const small = descriptorBudget(256);
  assert.equal(small.connectionsPerListener, 64);
  assert.equal(small.connectionsPerOrigin, 8);
  assert.equal(small.dnsQueries, 32);
  // Past a point more sockets would only queue work elsewhere.
  const large = descriptorBudget(1_048_576);
  assert.equal(large.connectionsPerListener, 262_144);
  assert.equal(large.connectionsPerOrigin, 1024);
  assert.equal(large.dnsQueries, 512);
  // A tiny limit still lets one of each through.
  const tiny = descriptorBudget(3);
  assert.deepEqual([tiny.connectionsPerListener, tiny.connectionsPerOrigin, tiny.dnsQueries], [1, 1, 1]);
});
