import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildTestApi, call } from '../support/app.js';

test("a watch's token never reaches the log: request lines show /watch/[redacted]", async () => {
  const dir = await mkdtemp(join(tmpdir(), 'watch-logs-'));
  const { app, logs } = await buildTestApi({ REPORT_STORE: 'local', DATA_DIR: dir, LOG_HTTP: 'true' });
  try {
    const token = (await call(app, { method: 'POST', url: '/api/watch' })).json().token as string;
    assert.equal((await call(app, `/api/watch/${token}`)).statusCode, 200);
    assert.equal((await call(app, { method: 'DELETE', url: `/api/watch/${token}` })).statusCode, 204);
    const lines = logs.find('request completed').map((line) => line.url);
    assert.deepEqual(lines, ['/api/watch', '/api/watch/[redacted]', '/api/watch/[redacted]']);
    assert.ok(!logs.text.includes(token));
  } finally {
    await app.close();
    await rm(dir, { recursive: true, force: true });
  }
});
