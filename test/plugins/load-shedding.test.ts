import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { MAX_EVENT_LOOP_DELAY_MS, RETRY_AFTER_S } from '../../plugins/load-shedding.js';
import { buildTestApi, call } from '../support/app.js';

/** Holds the event loop for `ms`, as a runaway computation would. */
function hog(ms: number): void {
  const end = Date.now() + ms;
  while (Date.now() < end);
}

test('a sustained event-loop delay over the limit sheds requests with 503 and Retry-After, then recovers', async () => {
  const { app, logs } = await buildTestApi({ LOG_HTTP: 'true', LOAD_SHEDDING: 'true' });
  try {
    assert.equal((await call(app, '/api/configs')).statusCode, 200);

    // The sampler averages the delay over a second, so the loop is held for
    // whole seconds at a time, with a turn between for its timers.
    let shed;
    for (let round = 0; round < 8 && !shed; round++) {
      hog(MAX_EVENT_LOOP_DELAY_MS + 200);
      await new Promise((resolve) => setImmediate(resolve));
      const res = await call(app, '/api/configs');
      if (res.statusCode === 503) shed = res;
      else assert.equal(res.statusCode, 200);
    }
    assert.ok(shed, 'a request was refused while the loop stayed blocked');
    assert.deepEqual(shed.json(), { error: 'Service Unavailable' });
    assert.equal(shed.headers['retry-after'], String(RETRY_AFTER_S));
    assert.equal(shed.headers['cache-control'], 'no-store');
    assert.equal(logs.find('request failed').length, 0, 'a refusal is an answer, not a failure to log');
    assert.equal(logs.find('request completed').at(-1)!.statusCode, 503);

    let recovered = false;
    for (let i = 0; i < 40 && !recovered; i++) {
      await sleep(100);
      recovered = (await call(app, '/api/configs')).statusCode === 200;
    }
    assert.ok(recovered, 'requests are answered again once the loop is free');
  } finally {
    await app.close();
  }
});

test('LOAD_SHEDDING=false leaves it out: a blocked loop delays requests but never refuses them', async () => {
  const { app } = await buildTestApi({ LOAD_SHEDDING: 'false' });
  try {
    for (let round = 0; round < 3; round++) {
      hog(MAX_EVENT_LOOP_DELAY_MS + 200);
      await new Promise((resolve) => setImmediate(resolve));
      assert.equal((await call(app, '/api/configs')).statusCode, 200);
    }
  } finally {
    await app.close();
  }
});

test('a heap filling up is refused with 503 before it runs out, and answered again once memory is free', async () => {
  // The app in a process of its own under a 128 MB old generation (V8 reports a 176 MB limit, young
  // generation included), its heap filled a megabyte at a time until a request is refused.
  const filler = fileURLToPath(new URL('../support/heap-filler.ts', import.meta.url));
  const child = spawn(process.execPath, ['--max-old-space-size=128', '--import', 'tsx', filler], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const [code, signal] = (await once(child, 'exit')) as [number | null, NodeJS.Signals | null];
  assert.deepEqual([code, signal], [0, null], `the process ended on its own, not of out-of-memory: ${err.slice(-600)}`);
  const lines = out
    .trim()
    .split('\n')
    .map(
      (line) =>
        JSON.parse(line) as { phase: string; status: number; body?: unknown; heldMb?: number; warnings?: number },
    );
  const shed = lines.find((line) => line.status === 503);
  assert.ok(shed && shed.phase === 'filling', 'a request was refused while the heap filled');
  assert.deepEqual(shed.body, { error: 'Service Unavailable' });
  assert.ok(shed.heldMb! > 1, 'not refused before anything was held');
  assert.equal(lines.at(-2)!.status, 200, 'answered again once the memory was let go');
  assert.equal(lines.at(-1)!.warnings, 1, 'one warning for the operator, however many requests were refused');
});

test("the live-heap bound leaves out the young generation the process was started with, as V8's limit counts it", async () => {
  const moduleUrl = new URL('../../plugins/load-shedding.ts', import.meta.url).href;
  const script = `const { youngGenerationBytes } = await import(${JSON.stringify(moduleUrl)});
    const { heap_size_limit } = (await import('node:v8')).getHeapStatistics();
    process.stdout.write(JSON.stringify([youngGenerationBytes(), heap_size_limit]));`;
  const MB = 1024 * 1024;
  for (const [flags, env, semiSpaceMb] of [
    [[], {}, 16],
    [['--max-semi-space-size=2'], {}, 2],
    [[], { NODE_OPTIONS: '--max-semi-space-size=4' }, 4],
  ] as const) {
    const child = spawn(
      process.execPath,
      [...flags, '--max-old-space-size=128', '--import', 'tsx', '--input-type=module', '-e', script],
      { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    await once(child, 'exit');
    const [young, limit] = JSON.parse(out) as [number, number];
    assert.equal(young, 3 * semiSpaceMb * MB, JSON.stringify(flags));
    assert.equal(limit - young, 128 * MB, `${JSON.stringify({ flags, env })}: what is left is the old generation`);
  }
});
