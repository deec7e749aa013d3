import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
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
