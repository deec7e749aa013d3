import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { APP_ROOT } from '../../lib/app-root.js';

const run = promisify(execFile);

// In a process started with V8's growth held at 10 %, about 90 MB kept after a
// full collection and then as much again: counts the full collections on the way.
const program = (fix: boolean) => `
  import { PerformanceObserver, constants } from 'node:perf_hooks';
  ${fix ? `import { fixHeapGrowth } from ${JSON.stringify(join(APP_ROOT, 'lib', 'heap-growth.ts'))}; fixHeapGrowth();` : ''}
  const kept = [];
  const grow = (n) => { for (let i = 0; i < n; i++) kept.push({ i, text: 'entry ' + i }); };
  grow(1_000_000);
  globalThis.gc();
  let full = 0;
  const count = (entries) => { for (const entry of entries) if (entry.detail.kind === constants.NODE_PERFORMANCE_GC_MAJOR) full++; };
  const observer = new PerformanceObserver((list) => count(list.getEntries()));
  observer.observe({ entryTypes: ['gc'] });
  grow(1_000_000);
  // GC entries reach an observer a task later; what is still queued is taken at the end.
  setTimeout(() => { count(observer.takeRecords()); process.stdout.write(String(full)); }, 200);
`;

const fullCollections = async (fix: boolean) => {
  const { stdout } = await run(
    process.execPath,
    ['--import', 'tsx', '--expose-gc', '--heap-growing-percent=10', '--input-type=module', '-e', program(fix)],
    { cwd: APP_ROOT },
  );
  return Number(stdout);
};

test('fixHeapGrowth takes effect in a running process: the old generation doubles without a full collection', async () => {
  assert.ok((await fullCollections(false)) > 0, 'at 10 % growth, doubling the heap takes a full collection');
  assert.equal(await fullCollections(true), 0);
});
